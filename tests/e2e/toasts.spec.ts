import type { Locator, Page } from '@playwright/test'
import { demoBusiness, expect, test } from './fixtures.ts'

async function box(locator: Locator) {
  const found = await locator.boundingBox()
  expect(found, `${locator} has a box`).not.toBeNull()
  return found!
}

/** Fails when the toast's box and the control's box share any area. */
async function expectApart(toast: Locator, control: Locator) {
  const a = await box(toast)
  const b = await box(control)
  const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
  expect(overlap, `toast ${JSON.stringify(a)} covers ${control} ${JSON.stringify(b)}`).toBe(false)
}

/**
 * The dialog's controls whose visible part (inside the dialog's scrolling area) lies under the toast. Scrolls the
 * dialog through its whole height, so a control further down counts as soon as it can come under the toast.
 */
async function dialogControlsUnderToast(page: Page, toast: Locator) {
  const toastBox = await box(toast)
  return page.evaluate((t) => {
    const scroller = document.querySelector<HTMLElement>('[data-modal-scroller]')
    if (!scroller) return ['no dialog scrolling area']
    const covered = new Set<string>()
    for (let top = 0; top <= scroller.scrollHeight; top += scroller.clientHeight / 2) {
      scroller.scrollTop = top
      const area = scroller.getBoundingClientRect()
      for (const control of scroller.querySelectorAll('a, button, input, select, textarea, label, summary')) {
        const r = control.getBoundingClientRect()
        if (r.width === 0 || r.height === 0) continue
        const left = Math.max(r.left, area.left, t.x)
        const right = Math.min(r.right, area.right, t.x + t.width)
        const upper = Math.max(r.top, area.top, t.y)
        const lower = Math.min(r.bottom, area.bottom, t.y + t.height)
        if (left < right && upper < lower) covered.add(control.outerHTML.slice(0, 80))
      }
    }
    return [...covered]
  }, toastBox)
}

const SCREENS = [
  { name: 'desktop', width: 1280, height: 720 },
  { name: 'phone', width: 375, height: 667 },
] as const

for (const screen of SCREENS) {
  test(`on a ${screen.name} screen the sign-in toast covers neither the site header nor any control of the create dialog`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: screen.width, height: screen.height })
    // Signing in on the way to the create dialog: the toast and the dialog appear together.
    await page.goto('/dashboard/events/new')
    await page.waitForURL(/\/login\?redirectTo=/)
    await page.getByLabel('Email').fill(demoBusiness.businessEmail)
    await page.getByLabel('Password', { exact: true }).fill(demoBusiness.password)
    await page.getByRole('button', { name: 'Sign In' }).click()
    await page.waitForURL('**/dashboard/events/new')

    const toast = page.getByTestId('toast').filter({ hasText: 'Login Successful' })
    const dialog = page.getByRole('dialog', { name: 'Create Event Listing' })
    const close = dialog.getByRole('link', { name: 'Close' })
    await expect(close).toBeVisible()
    await expect(toast).toBeVisible()
    await expectApart(toast, close)
    await expectApart(toast, page.getByRole('banner'))
    expect(await dialogControlsUnderToast(page, toast)).toEqual([])
  })
}
