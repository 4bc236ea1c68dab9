import type { Locator } from '@playwright/test'
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

const SCREENS = [
  { name: 'desktop', width: 1280, height: 720 },
  { name: 'phone', width: 375, height: 667 },
] as const

for (const screen of SCREENS) {
  test(`on a ${screen.name} screen the sign-in toast covers neither the site header nor the create dialog’s Close`, async ({
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
  })
}
