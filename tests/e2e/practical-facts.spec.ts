import type { Page } from '@playwright/test'
import { TICKET_URL_MESSAGE } from '#app/models/ads/practical-facts.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { expect, signInAsNewBusiness, test } from './fixtures.ts'

/** The practical facts: filled in on the form, shown on the card and the event page, filtered on the calendar. */

const date = addDaysIso(todayInZone('America/New_York'), 2)

async function openFacts(page: Page) {
  const summary = page.getByText('Tickets, place and accessibility (optional)')
  if ((await page.locator('details', { has: summary }).getAttribute('open')) === null) await summary.click()
}

async function fillAd(page: Page, ticketUrl: string) {
  await page.getByLabel('Title').fill('Harbor Jazz')
  await page.getByLabel('Description').fill('A trio on the pier.')
  await page.getByRole('checkbox', { name: 'Concert' }).check()
  await page.getByLabel(date, { exact: true }).check({ force: true })
  await openFacts(page)
  await page.getByLabel('Ticket or registration link').fill(ticketUrl)
  await page.getByRole('radio', { name: 'From $' }).check()
  await page.getByLabel('Lowest price in dollars (with “From $”)').fill('12.50')
  await page.getByRole('checkbox', { name: 'Step-free access' }).check()
  await page.getByRole('radio', { name: '21+' }).check()
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`${javaScriptEnabled ? 'with' : 'without'} JavaScript`, () => {
    test.use({ javaScriptEnabled, viewport: { width: 1280, height: 900 } })

    test('the calendar filters by Free and Step-free access, in its address', async ({ page }) => {
      await page.goto('/calendar')
      await page.getByRole('checkbox', { name: 'Free', exact: true }).check()
      await page.getByRole('checkbox', { name: 'Step-free access' }).check()
      await page.getByRole('button', { name: 'Apply filters' }).click()
      await expect(page).toHaveURL(/[?&]free=1/)
      await expect(page).toHaveURL(/[?&]access=step_free/)
      const results = page.getByRole('list', { name: 'Events' })
      await expect(results.getByRole('heading', { name: 'Friday Night Jazz Trio' })).toBeVisible()
      await expect(results.getByRole('heading', { name: 'Senior Tech Help Desk' })).toBeVisible()
      await expect(results.getByRole('heading', { name: 'Craft Beer Tasting' })).toHaveCount(0)
      const active = page.getByRole('list', { name: 'Active filters' })
      await expect(active.getByRole('link', { name: /Step-free access/ })).toBeVisible()
    })

    test('the event page shows the facts, the link to join included', async ({ page }) => {
      await page.goto('/calendar?access=quiet_space')
      await page.getByRole('link', { name: 'View details' }).first().click()
      const facts = page.getByRole('definition')
      await expect(page.getByRole('heading', { level: 1, name: 'Senior Tech Help Desk' })).toBeVisible()
      await expect(facts.filter({ hasText: 'Free' }).first()).toBeVisible()
      await expect(
        facts.filter({ hasText: 'Step-free access, Accessible restroom, Quiet space' }),
      ).toBeVisible()
      // The advertiser's link, credited to the site.
      await expect(page.getByRole('link', { name: 'Join online' })).toHaveAttribute(
        'href',
        /^https:\/\/meet\.example\.com\/tech-help\?utm_source=[^&]+&utm_medium=event_listing&utm_campaign=\d+-senior-tech-help-desk$/,
      )
    })

    test('the form takes the facts and the preview card shows them; an http ticket link is refused', async ({
      page,
    }) => {
      await signInAsNewBusiness(page, 'Facts Form Hall')
      await page.goto('/dashboard/events/new')
      await fillAd(page, 'http://tickets.example/jazz')
      await page.getByRole('button', { name: 'Ready to Preview' }).click()
      await expect(page.getByLabel('Ticket or registration link')).toHaveAccessibleDescription(
        new RegExp(TICKET_URL_MESSAGE),
      )
      await openFacts(page)
      await page.getByLabel('Ticket or registration link').fill('https://tickets.example/jazz')
      await page.getByRole('button', { name: 'Ready to Preview' }).click()
      const card = javaScriptEnabled
        ? page.getByRole('dialog', { name: 'Preview Your Ad - Customer View' })
        : page.locator('main')
      await expect(card.getByText('From $12.50')).toBeVisible()
      await expect(card.getByRole('link', { name: 'Tickets' })).toHaveAttribute('target', '_blank')
      await expect(card.getByText('Step-free access')).toBeVisible()
      await expect(card.getByText('21+')).toBeVisible()
    })
  })
}
