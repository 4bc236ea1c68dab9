import AxeBuilder from '@axe-core/playwright'
import type { Browser, Page } from '@playwright/test'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { demoAdmin, expect, fromSite, signInAsNewBusiness, signInAsStaff, test } from './fixtures.ts'

const today = todayInZone('America/New_York')
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

/** An administrator makes the code on /admin/promo-codes, through its form. */
async function makeCode(browser: Browser, code: string, percent: string) {
  const context = await browser.newContext()
  const admin = await context.newPage()
  await signInAsStaff(admin, demoAdmin.email)
  await admin.goto('/admin/promo-codes')
  await admin.getByLabel('Code', { exact: true }).fill(code)
  await admin.getByLabel('Percent or dollars off').fill(percent)
  await admin.getByRole('button', { name: 'Create code' }).click()
  await expect(admin.getByTestId('promo-codes').getByRole('row').filter({ hasText: code })).toContainText(
    `${percent}% off`,
  )
  await context.close()
}

async function approveAd(page: Page, title: string) {
  const res = await page.request.post('/api/approve-event', {
    headers: fromSite(),
    multipart: {
      eventData: JSON.stringify({
        eventTitle: title,
        eventDescription: 'A night of live music and local food.',
        eventCategory: ['Concert'],
      }),
      selectedDates: JSON.stringify([addDaysIso(today, 2), addDaysIso(today, 3)]),
      totalAmount: '29.00',
    },
  })
  expect(res.status(), await res.text()).toBe(200)
}

async function expectNoAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode(true).analyze()
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`${javaScriptEnabled ? 'with' : 'without'} JavaScript`, () => {
    test.use({ javaScriptEnabled })

    test('a promo code at checkout: refused codes say why, the applied one shows the new total, and the card pays it', async ({
      page,
      browser,
    }) => {
      const code = `E2E-${javaScriptEnabled ? 'JS' : 'NOJS'}-${Date.now().toString(36).toUpperCase()}`
      await makeCode(browser, code, '20')
      await signInAsNewBusiness(page, 'Promo Hall')
      await approveAd(page, 'Discount Concert')
      await page.goto('/checkout')

      await page.getByLabel('Code', { exact: true }).fill('NO-SUCH-CODE')
      await page.getByRole('button', { name: 'Apply' }).click()
      await expect(page.getByText('No such promo code.')).toBeVisible()

      await page.getByLabel('Code', { exact: true }).fill(code.toLowerCase())
      await page.getByRole('button', { name: 'Apply' }).click()
      await expect(page.getByText(`${code} applied: 20% off.`)).toBeVisible()
      await expect(page.getByText('List price')).toBeVisible()
      await expect(page.getByText('−$5.80')).toBeVisible()
      // axe runs in the page's JavaScript; the page as it loads again, with the code applied.
      if (javaScriptEnabled) {
        await page.goto('/checkout')
        await expectNoAxeViolations(page)
      }

      await page.getByLabel('Card number').fill('4242 4242 4242 4242')
      await page.getByLabel('Expiry (MM/YY)').fill('12/34')
      await page.getByLabel('CVC').fill('123')
      await page.getByRole('button', { name: 'Pay $23.20' }).click()
      await expect(page.getByTestId('toast')).toContainText('Payment Successful')

      await page.goto('/dashboard')
      const card = page.getByTestId('gallery-card').filter({ hasText: 'Discount Concert' })
      await expect(card.getByTestId('event-status')).toHaveText('Awaiting review')
    })
  })
}

test('a code covering the whole price: Confirm, no card, and the ad waits for review', async ({
  page,
  browser,
}) => {
  const code = `E2E-FREE-${Date.now().toString(36).toUpperCase()}`
  await makeCode(browser, code, '100')
  await signInAsNewBusiness(page, 'Free Hall')
  await approveAd(page, 'Free Concert')
  await page.goto('/checkout')
  await page.getByLabel('Code', { exact: true }).fill(code)
  await page.getByRole('button', { name: 'Apply' }).click()
  await expect(page.getByRole('button', { name: 'Confirm' })).toBeVisible()
  await expect(page.getByLabel('Card number')).toHaveCount(0)
  await page.goto('/checkout')
  await expectNoAxeViolations(page)
  await page.getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByTestId('toast')).toContainText('Payment Successful')
  await page.goto('/dashboard')
  const card = page.getByTestId('gallery-card').filter({ hasText: 'Free Concert' })
  await expect(card.getByTestId('event-status')).toHaveText('Awaiting review')
})
