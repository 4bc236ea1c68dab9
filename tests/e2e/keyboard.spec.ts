import type { Locator, Page } from '@playwright/test'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import {
  demoAdmin,
  demoBusiness,
  expect,
  signInAsBusiness,
  signInAsNewBusiness,
  signInAsStaff,
  test,
} from './fixtures.ts'

/*
 * Keyboard only: after opening the first address, every step is Tab, Shift+Tab, Enter, Space, an arrow key or
 * typing into the field the keyboard moved to. Each control reached shows where the focus is.
 */

/** True when the focused element (or, for a visually hidden input, the label drawn in its place) shows a focus ring. */
async function focusIsVisible(page: Page) {
  return page.evaluate(() => {
    const focused = document.activeElement as HTMLElement | null
    if (!focused || focused === document.body) return false
    const shows = (el: Element) => {
      const style = getComputedStyle(el)
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0
      return outline || style.boxShadow !== 'none'
    }
    const box = focused.getBoundingClientRect()
    const hidden = box.width <= 1 || box.height <= 1
    const drawn = hidden
      ? (focused.closest('label') ?? document.querySelector(`label[for="${focused.id}"]`))
      : focused
    return drawn !== null && shows(drawn)
  })
}

/**
 * Presses Tab (or Shift+Tab) until `target` has the focus, and checks that the focus shows there. The event form's
 * stops depend on the day (it lists the month's dates), so the limit is a page's worth, not a form's.
 */
async function tabTo(page: Page, target: Locator, { back = false, max = 400 } = {}) {
  const description = target.toString()
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab')
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) {
      expect(await focusIsVisible(page), `a visible focus on ${description}`).toBe(true)
      return
    }
  }
  throw new Error(`${description} was not reached with ${max} presses of ${back ? 'Shift+Tab' : 'Tab'}`)
}

/** Tabs to a field and types into it. */
async function typeInto(page: Page, field: Locator, text: string) {
  await tabTo(page, field)
  await page.keyboard.type(text)
}

test("the calendar's filters (open beside the results): choose a category and see its events", async ({
  page,
}) => {
  await page.goto('/calendar')
  const category = page.getByLabel('Category')
  await tabTo(page, category)
  for (let i = 0; i < 20 && (await category.inputValue()) !== 'Concert'; i++)
    await page.keyboard.press('ArrowDown')
  await expect(category).toHaveValue('Concert')
  await tabTo(page, page.getByRole('button', { name: 'Apply filters' }))
  await page.keyboard.press('Enter')

  await expect(page).toHaveURL(/[?&]category=Concert(&|$)/)
  await expect(page.getByRole('heading', { name: /We found [1-9]\d* event\(s\) for you!/ })).toBeVisible()
  for (const event of await page.getByTestId('calendar-event').all())
    await expect(event).toContainText('Concert')
})

test('an advertiser signs in, creates an ad, previews and pays for it; an administrator approves it', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000)
  // The account exists already; signing in is the first thing done with the keyboard.
  const account = await signInAsNewBusiness(page, 'Keyboard Bakery')
  await page.context().clearCookies()
  const title = `Keyboard Bake Sale ${Date.now().toString(36)}`
  const date = addDaysIso(todayInZone('America/New_York'), 2)

  await page.goto('/login')
  await typeInto(page, page.getByLabel('Email', { exact: true }), account.businessEmail)
  await typeInto(page, page.getByLabel('Password', { exact: true }), account.businessPassword)
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/dashboard$/)

  await tabTo(page, page.getByRole('link', { name: 'Create a New Event' }))
  await page.keyboard.press('Enter')
  const form = page.getByRole('dialog', { name: 'Create Event Listing' })
  await expect(form).toBeVisible()
  await typeInto(page, form.getByLabel('Title'), title)
  await typeInto(page, form.getByLabel('Description'), `${title}: bread, buns and a raffle.`)
  await tabTo(page, form.getByRole('checkbox', { name: 'Arts' }))
  await page.keyboard.press('Space')
  await expect(form.getByRole('checkbox', { name: 'Arts' })).toBeChecked()
  await tabTo(page, form.getByRole('checkbox', { name: date, exact: true }))
  await page.keyboard.press('Space')
  await expect(form.getByRole('checkbox', { name: date, exact: true })).toBeChecked()
  await tabTo(page, form.getByRole('button', { name: 'Ready to Preview' }))
  await page.keyboard.press('Enter')

  const preview = page.getByRole('dialog', { name: 'Preview Your Ad - Customer View' })
  await expect(preview.getByRole('heading', { name: title })).toBeVisible()
  await tabTo(page, preview.getByRole('button', { name: /^Approve Your Ad - \$/ }))
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/checkout$/)

  await typeInto(page, page.getByLabel('Card number'), '4242 4242 4242 4242')
  await typeInto(page, page.getByLabel('Expiry (MM/YY)'), '12/34')
  await typeInto(page, page.getByLabel('CVC'), '123')
  await tabTo(page, page.getByRole('button', { name: /^Pay \$/ }))
  await page.keyboard.press('Enter')
  await expect(page.getByText('Your ad will go live after administrator approval.').first()).toBeVisible()

  const adminContext = await browser.newContext()
  const admin = await adminContext.newPage()
  await admin.goto('/api/login')
  await typeInto(admin, admin.getByLabel('Email'), demoAdmin.email)
  await admin.keyboard.press('Enter')
  await expect(admin).toHaveURL(/\/admin$/)
  const card = admin.getByTestId('pending-event').filter({ has: admin.getByRole('heading', { name: title }) })
  await tabTo(admin, card.getByRole('button', { name: 'Approve' }))
  await admin.keyboard.press('Enter')
  await expect(admin.getByTestId('toast')).toContainText(title)
  await expect(card).toHaveCount(0)
  await adminContext.close()

  const live = await page.request.get(
    `/api/public-events?keyword=${encodeURIComponent(title)}&from=${date}&to=${date}`,
  )
  expect(((await live.json()) as Array<{ eventTitle: string }>).map((e) => e.eventTitle)).toEqual([title])
})

/** Tabs through the whole page, failing at the first control that does not show the keyboard's focus. */
async function expectFocusShownAtEveryStop(page: Page, path: string) {
  await page.goto(path)
  for (let stop = 0; stop < 200; stop++) {
    await page.keyboard.press('Tab')
    const where = await page.evaluate(() => {
      const focused = document.activeElement
      if (!focused || focused === document.body) return null
      // A date field takes one Tab per part (month, day, year); the field is checked when the focus enters it.
      const seen = window as unknown as { lastFocused?: Element }
      if (seen.lastFocused === focused) return 'same'
      seen.lastFocused = focused
      return `${focused.tagName.toLowerCase()} ${focused.id || focused.getAttribute('name') || focused.textContent?.trim().slice(0, 40)}`
    })
    if (where === null) return
    if (where === 'same') continue
    expect(await focusIsVisible(page), `${path}: a visible focus on ${where}`).toBe(true)
  }
}

test("the keyboard's focus shows at every stop of the landing, sign-in, dashboard, ad and moderation pages", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000)
  for (const path of ['/landing', '/login']) await expectFocusShownAtEveryStop(page, path)

  await signInAsBusiness(page, demoBusiness)
  await page.goto('/dashboard')
  const href = await page.getByTestId('gallery-card').getByRole('link').first().getAttribute('href')
  const id = /\/event\/(\d+)/.exec(href ?? '')?.[1]
  for (const path of ['/dashboard', `/dashboard/events/${id}`]) {
    await expectFocusShownAtEveryStop(page, path)
  }

  const adminContext = await browser.newContext()
  const admin = await adminContext.newPage()
  await signInAsStaff(admin, demoAdmin.email)
  for (const path of ['/admin', '/admin/categories', '/admin/outbox'])
    await expectFocusShownAtEveryStop(admin, path)
  await adminContext.close()
})
