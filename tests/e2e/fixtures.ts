import { test as base, expect, type Browser, type Page } from '@playwright/test'
import { SIGNUP_STAMP_COOKIE, SIGNUP_STARTED_FIELD } from '#app/constants.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { DEMO_BUSINESSES, DEMO_STAFF } from '#db/demo-data.ts'

export const demoBusiness = DEMO_BUSINESSES[0]
export const demoAdmin = DEMO_STAFF[0]!
export const demoClinician = DEMO_STAFF[1]!

/** A small real PNG (1×1), enough for the server to re-encode. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

/** Fails the test when the page logs an error or breaks the content security policy. */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = []
      page.on('console', (message) => {
        if (message.type() !== 'error') return
        // A 4xx answer given on purpose (a 404 screen, a 401 for wrong credentials) makes the browser log its status.
        const isClientErrorStatus =
          /^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
        if (!isClientErrorStatus) errors.push(`${message.text()} (on ${page.url()})`)
      })
      page.on('pageerror', (error) => errors.push(`${error.message} (on ${page.url()})`))
      await use(errors)
    },
    { auto: true },
  ],
})

test.afterEach(async ({ consoleErrors }, testInfo) => {
  const expected = testInfo.annotations.some((a) => a.type === 'expect-console-errors')
  if (!expected) expect(consoleErrors, 'errors in the browser console').toEqual([])
})

export { expect }

export async function expectNoScripts(page: Page) {
  expect(await page.locator('script[src], script[type="module"]').count()).toBe(0)
}

/**
 * The header the site's own pages send with a state change (as a browser does), for the calls below that stand in for
 * them: a signed-in change that names no origin is refused.
 */
export function fromSite() {
  return { Origin: test.info().project.use.baseURL! }
}

let counter = 0

/** Signs the page's browser context in as an advertiser through the JSON sign-in call. */
export async function signInAsBusiness(
  page: Page,
  account: { businessEmail: string; password: string } = demoBusiness,
) {
  const res = await page.request.post('/api/business/login', {
    headers: fromSite(),
    data: { email: account.businessEmail, password: account.password },
  })
  expect(res.status(), await res.text()).toBe(200)
}

/** Registers a fresh advertiser (so a test owns all of its data) and signs in as it. */
export async function signInAsNewBusiness(page: Page, name = 'Test Cafe') {
  const id = `${Date.now().toString(36)}${++counter}${Math.random().toString(36).slice(2, 6)}`
  const account = {
    businessName: `${name} ${id}`,
    businessAddress: '1 Test Street',
    businessCity: 'Springfield',
    businessState: 'IL',
    businessZip: '62701',
    businessPhone: '2175550100',
    businessEmail: `e2e-${id}@example.com`,
    businessPassword: 'secret123',
    verifyPassword: 'secret123',
    businessContact: 'Erin Tester',
  }
  const res = await page.request.post('/api/business', { headers: fromSite(), data: account })
  expect(res.status(), await res.text()).toBe(201)
  await signInAsBusiness(page, { businessEmail: account.businessEmail, password: account.businessPassword })
  return account
}

/** Staff sign in through the development sign-in page that /api/login shows without an identity provider. */
export async function signInAsStaff(page: Page, email: string) {
  await page.goto('/api/login')
  await page.getByLabel('Email').fill(email)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL((url) => !url.pathname.startsWith('/api/login'))
}

/** Opens the first event of the listing on the page and returns the detail page's path (with its query). */
export async function openFirstListedEvent(page: Page) {
  await page.getByRole('list', { name: 'Events' }).getByRole('link', { name: 'View details' }).first().click()
  await expect(page).toHaveURL(/\/event\/\d+-[a-z0-9-]+$/)
  return new URL(page.url()).pathname + new URL(page.url()).search
}

/** A new ad of the signed-in advertiser, saved through the approve call and paid for at checkout (needs JavaScript). */
export async function paidAd(page: Page, title: string) {
  const tomorrow = addDaysIso(todayInZone('America/New_York'), 1)
  const res = await page.request.post('/api/approve-event', {
    headers: fromSite(),
    multipart: {
      eventData: JSON.stringify({
        eventTitle: title,
        eventDescription: `${title}: come and see.`,
        eventCategory: ['Community'],
      }),
      selectedDates: JSON.stringify([tomorrow]),
      totalAmount: '29.00',
    },
  })
  expect(res.status(), await res.text()).toBe(200)
  const { eventID } = (await res.json()) as { eventID: number }
  await page.goto('/checkout')
  await page.getByLabel('Card number').fill('4242 4242 4242 4242')
  await page.getByLabel('Expiry (MM/YY)').fill('12/34')
  await page.getByLabel('CVC').fill('123')
  await page.getByRole('button', { name: 'Pay $29.00' }).click()
  await expect(page.getByText('Your ad will go live after administrator approval.').first()).toBeVisible()
  return eventID
}

/** An administrator approves the ad, in a page of their own that is closed again. */
export async function approveAsAdmin(browser: Browser, eventID: number) {
  const admin = await browser.newPage()
  await signInAsStaff(admin, demoAdmin.email)
  const review = await admin.request.post('/api/admin/review-event', {
    headers: fromSite(),
    data: { eventID, action: 'approve' },
  })
  expect(review.status(), await review.text()).toBe(200)
  await admin.close()
}

/**
 * Waits until the page's robot-guarded form was drawn at least `minFillMs` ago, by the moment in its signed stamp
 * (`ms.nonce.signature`, the server's clock, which is this machine's): what a person's pace gives, without a fixed
 * sleep on top of the time the test took to fill it. The report form carries its stamp in a field, the registration
 * form in a cookie.
 */
export async function waitForFormStampAge(page: Page, minFillMs: number) {
  const field = page.locator(`input[name="${SIGNUP_STARTED_FIELD}"]`)
  const stamp = (await field.count())
    ? await field.inputValue()
    : ((await page.context().cookies()).find((cookie) => cookie.name === SIGNUP_STAMP_COOKIE)?.value ?? '')
  const drawnAt = Number(stamp.split('.')[0])
  expect(drawnAt).toBeGreaterThan(0)
  await expect.poll(() => Date.now() - drawnAt, { intervals: [50] }).toBeGreaterThan(minFillMs)
}

/**
 * Waits until the ad form on a page that arrived as a new document has hydrated: until then, a date checked or a
 * field typed in would be undone by it. Hydrated, its Cancel is a button (before, a link to the dashboard).
 */
export async function waitForEventFormHydrated(page: Page) {
  await expect(page.getByRole('button', { name: 'Cancel', exact: true })).toBeVisible()
}
