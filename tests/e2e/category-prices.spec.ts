import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { PRICED_CATEGORY } from './category-prices-data.ts'
import {
  demoAdmin,
  expect,
  signInAsNewBusiness,
  signInAsStaff,
  test,
  waitForEventFormHydrated,
} from './fixtures.ts'

// The e2e database prices specials apart (seed-category-prices.ts): $15.00 up to a week, $99.00 beyond.
const today = todayInZone('America/New_York')
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']
const HIGHEST = 'An ad in several categories pays the highest of their prices.'

async function expectNoAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode(true).analyze()
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}

test('the pricing page shows the category priced apart, its own tiers in the form, and passes axe', async ({
  page,
}) => {
  await signInAsStaff(page, demoAdmin.email)
  await page.goto('/admin/pricing')
  await expect(page.getByTestId('category-prices')).toContainText(
    `${PRICED_CATEGORY}: 1–7 days: $15.00, 8–21 days: $99.00`,
  )
  await expect(page.getByLabel(`${PRICED_CATEGORY}: its own prices`)).toBeChecked()
  await expect(page.getByLabel(`${PRICED_CATEGORY}, tier 2: price in dollars`)).toHaveValue('99.00')
  await expectNoAxeViolations(page)
})

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled })

    test('the form totals an ad in several categories at the highest of their prices, and says so', async ({
      page,
    }) => {
      await signInAsNewBusiness(page, 'Corner Shop')
      await page.goto('/dashboard/events/new')
      if (javaScriptEnabled) await waitForEventFormHydrated(page)
      await page.getByLabel('Title').fill(`Spring Sale ${javaScriptEnabled ? 'JS' : 'Plain'}`)
      await page.getByLabel('Description').fill('Everything in the shop at half price, one week only.')
      await page.getByRole('checkbox', { name: PRICED_CATEGORY, exact: true }).check()
      const dates = Array.from({ length: 10 }, (_, i) => addDaysIso(today, i + 1))
      for (const d of dates) await page.getByLabel(d, { exact: true }).check({ force: true })

      if (javaScriptEnabled) {
        // Specials alone: their own $99.00 for ten days, and nothing to explain.
        await expect(page.getByLabel('Total cost')).toHaveValue('$99.00')
        await expect(page.getByText(HIGHEST)).toHaveCount(0)
        // With Fundraiser ($49.00 for ten days), the higher applies: still $99.00, now with the note.
        await page.getByRole('checkbox', { name: 'Fundraiser', exact: true }).check()
        await expect(page.getByLabel('Total cost')).toHaveValue('$99.00')
        await expect(page.locator('#highest-price-note')).toHaveText(HIGHEST)
        // Three days: Fundraiser's $29.00 is the higher of the two.
        for (const d of dates.slice(3)) await page.getByLabel(d, { exact: true }).uncheck({ force: true })
        await expect(page.getByLabel('Total cost')).toHaveValue('$29.00')
        await expectNoAxeViolations(page)
        for (const d of dates.slice(3)) await page.getByLabel(d, { exact: true }).check({ force: true })
      } else {
        // Without JavaScript the form lists the category's prices and the rule; the preview prices the ad.
        await expect(page.getByTestId('category-prices')).toContainText(
          `${PRICED_CATEGORY}: 1–7 days: $15.00, 8–21 days: $99.00`,
        )
        await expect(page.locator('#highest-price-note')).toHaveText(HIGHEST)
        await page.getByRole('checkbox', { name: 'Fundraiser', exact: true }).check()
      }
      await page.getByRole('button', { name: 'Ready to Preview' }).click()
      const preview = javaScriptEnabled
        ? page.getByRole('dialog', { name: 'Preview Your Ad - Customer View' })
        : page.getByRole('dialog')
      await expect(preview.getByText('Total Cost: $99.00')).toBeVisible()
      await expect(preview.getByTestId('highest-price-note')).toHaveText(HIGHEST)
      await expect(preview.getByRole('button', { name: 'Approve Your Ad - $99.00' })).toBeVisible()
    })
  })
}
