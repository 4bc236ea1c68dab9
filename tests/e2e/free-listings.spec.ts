import AxeBuilder from '@axe-core/playwright'
import type { Browser, Page } from '@playwright/test'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import {
  demoAdmin,
  expect,
  signInAsNewBusiness,
  signInAsStaff,
  test,
  waitForEventFormHydrated,
} from './fixtures.ts'

const today = todayInZone('America/New_York')
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']
/** A category of this file's own, so the free listing it sets up changes no other journey's prices. */
const CATEGORY = `Library Hour ${Date.now().toString(36)}`

async function expectNoAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode(true).analyze()
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}

async function adminPage(browser: Browser, javaScriptEnabled = true) {
  const context = await browser.newContext({ javaScriptEnabled })
  const admin = await context.newPage()
  await signInAsStaff(admin, demoAdmin.email)
  return { admin, close: () => context.close() }
}

// The file's journeys share its one free category, set up once.
test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ browser }) => {
  const { admin, close } = await adminPage(browser)
  await admin.goto('/admin/categories')
  await admin.getByLabel('New category').fill(CATEGORY)
  await admin.getByRole('button', { name: 'Add category' }).click()
  await expect(admin.locator(`input[value="${CATEGORY}"]`)).toBeVisible()

  await admin.goto('/admin/pricing')
  await admin.getByLabel(`${CATEGORY}: free`, { exact: true }).check()
  await admin.getByLabel(`${CATEGORY}: at most how many dates`).fill('2')
  await expect(admin.getByLabel(`${CATEGORY}: photo`)).toBeChecked()
  await expect(admin.getByLabel(`${CATEGORY}: video`)).not.toBeChecked()
  await admin.getByLabel('Note for the history (optional)').fill('Free community listings')
  await admin.getByRole('button', { name: 'Save prices' }).click()
  await expect(admin.getByTestId('free-listings')).toContainText(
    `${CATEGORY} (up to 2 dates, photo, no video)`,
  )
  await expect(admin.getByTestId('price-history')).toContainText(
    `Free listing in ${CATEGORY}: up to 2 dates, photo, no video`,
  )
  await close()
})

test('the pricing page with its free listings passes axe', async ({ browser }) => {
  const { admin, close } = await adminPage(browser)
  await admin.goto('/admin/pricing')
  await expect(admin.getByLabel(`${CATEGORY}: free`, { exact: true })).toBeChecked()
  await expectNoAxeViolations(admin)
  await close()
})

const SIZES = [
  { name: 'phone', width: 375, height: 800 },
  { name: 'desktop', width: 1280, height: 900 },
]

for (const javaScriptEnabled of [true, false]) {
  for (const size of SIZES) {
    test.describe(`${javaScriptEnabled ? 'with' : 'without'} JavaScript, ${size.width} px`, () => {
      test.use({ javaScriptEnabled, viewport: { width: size.width, height: size.height } })

      test('a free listing: the same form and preview, "Submit for review" with no card, then review and the calendar', async ({
        page,
        browser,
      }) => {
        const title = `Story Time ${javaScriptEnabled ? 'JS' : 'Plain'} ${size.width}`
        await signInAsNewBusiness(page, 'Town Library')
        await page.goto('/dashboard/events/new')
        if (javaScriptEnabled) await waitForEventFormHydrated(page)
        await expect(page.getByTestId('free-categories')).toContainText(
          `${CATEGORY} (up to 2 dates, photo, no video)`,
        )
        await page.getByLabel('Title').fill(title)
        await page.getByLabel('Description').fill('Stories and songs for little ones, every week.')
        await page.getByRole('checkbox', { name: CATEGORY }).check()
        const dates = [addDaysIso(today, 1), addDaysIso(today, 2), addDaysIso(today, 3)]
        for (const d of dates) await page.getByLabel(d, { exact: true }).check({ force: true })
        if (javaScriptEnabled) {
          await expect(page.getByTestId('free-dates-limit')).toHaveText(
            'This listing is free: up to 2 display dates.',
          )
          await expect(page.getByLabel('Total cost')).toHaveValue('$0.00')
          await expect(page.getByText('A free listing in this category has no video.')).toBeVisible()
        }
        await page.getByRole('button', { name: 'Ready to Preview' }).click()

        // Three dates where two are free: refused at the field, on the server.
        const tooMany = 'A free listing can have at most 2 display dates.'
        if (javaScriptEnabled) {
          const dialog = page.getByRole('dialog', { name: 'Preview Your Ad - Customer View' })
          await expect(dialog.getByText('Total Cost: $0.00')).toBeVisible()
          await dialog.getByRole('button', { name: 'Submit for review' }).click()
          await expect(page.getByTestId('toast').filter({ hasText: tooMany })).toBeVisible()
        }
        await expect(page.getByText(tooMany).last()).toBeVisible()
        if (javaScriptEnabled) await expectNoAxeViolations(page)
        await page.getByLabel(dates[2]!, { exact: true }).uncheck({ force: true })
        await page.getByRole('button', { name: 'Ready to Preview' }).click()

        const preview = javaScriptEnabled
          ? page.getByRole('dialog', { name: 'Preview Your Ad - Customer View' })
          : page.getByRole('dialog')
        await expect(preview.getByText('Total Cost: $0.00')).toBeVisible()
        await expect(preview.getByText('This listing is free: no card is needed.')).toBeVisible()
        await expect(preview.getByRole('button', { name: /Approve Your Ad/ })).toHaveCount(0)
        await preview.getByRole('button', { name: 'Submit for review' }).click()

        await expect(page).toHaveURL(/\/dashboard\/events\/\d+\/submitted$/)
        await expect(
          page.getByRole('heading', { name: 'Your free listing was sent for review' }),
        ).toBeVisible()
        await expect(page.getByTestId('free-listing-sent')).toContainText('no card was needed')
        await expect(page.getByText('An administrator reviews every listing')).toBeVisible()
        await expect(page.getByLabel('Card number')).toHaveCount(0)
        if (javaScriptEnabled) await expectNoAxeViolations(page)

        await page.goto('/dashboard')
        const card = page.getByTestId('gallery-card').filter({ hasText: title })
        await expect(card.getByTestId('event-status')).toHaveText('Awaiting review')

        // The same moderation queue as a paid ad's, then the public calendar.
        const { admin, close } = await adminPage(browser, false)
        await admin.goto('/admin')
        await admin
          .getByRole('listitem')
          .filter({ hasText: title })
          .getByRole('button', { name: 'Approve' })
          .click()
        await expect(admin.getByRole('listitem').filter({ hasText: title })).toHaveCount(0)
        await close()
        await page.goto(`/calendar?category=${encodeURIComponent(CATEGORY)}`)
        await expect(page.getByRole('list', { name: 'Events' }).getByText(title).first()).toBeVisible()
      })
    })
  }
}
