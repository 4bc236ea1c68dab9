import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { END_BEFORE_START_MESSAGE } from '#app/models/ads/event-times.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { expect, signInAsNewBusiness, test } from './fixtures.ts'

const today = todayInZone('America/New_York')
const date = addDaysIso(today, 2)
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

async function fillAd(page: Page, title: string) {
  await page.getByLabel('Title').fill(title)
  await page.getByLabel('Description').fill(`All about ${title}.`)
  await page.getByRole('checkbox', { name: 'Concert' }).check()
  await page.getByLabel(date, { exact: true }).check({ force: true })
}

async function eventIdFromDashboard(page: Page, title: string) {
  await page.goto('/dashboard')
  const href = await page
    .getByTestId('gallery-card')
    .filter({ hasText: title })
    .getByRole('link')
    .first()
    .getAttribute('href')
  const id = /\/event\/(\d+)/.exec(href ?? '')?.[1]
  expect(id, `gallery link ${href}`).toBeTruthy()
  return id!
}

test('with JavaScript the times are checked at their field, and the saved ad keeps them', async ({
  page,
}) => {
  await signInAsNewBusiness(page, 'Timed Jazz Cellar')
  await page.goto('/dashboard/events/new')
  await fillAd(page, 'Friday Night Jazz Trio')
  await expect(page.getByLabel('Start time')).toHaveAccessibleDescription('Leave empty for an all-day event')
  await page.getByLabel('Start time').fill('19:30')
  await page.getByLabel('End time').fill('18:00')
  await page.getByRole('button', { name: 'Ready to Preview' }).click()

  const dialog = page.getByRole('dialog', { name: 'Preview Your Ad - Customer View' })
  await expect(dialog).toHaveCount(0)
  await expect(page.getByLabel('End time')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByLabel('End time')).toHaveAccessibleDescription(END_BEFORE_START_MESSAGE)
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode(true).analyze()
  expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([])

  await page.getByLabel('End time').fill('22:00')
  await expect(page.getByLabel('End time')).not.toHaveAttribute('aria-invalid')
  await page.getByRole('button', { name: 'Ready to Preview' }).click()
  await dialog.getByRole('button', { name: 'Approve Your Ad - $29.00' }).click()
  await page.waitForURL('**/checkout')

  const id = await eventIdFromDashboard(page, 'Friday Night Jazz Trio')
  await page.goto(`/dashboard/events/${id}/edit`)
  await expect(page.getByLabel('Start time')).toHaveValue('19:30')
  await expect(page.getByLabel('End time')).toHaveValue('22:00')
  await expect(page.getByLabel('Ends after midnight')).not.toBeChecked()
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('an end before the start comes back with the message in the page and what was typed', async ({
    page,
  }) => {
    await signInAsNewBusiness(page, 'Plain Timed Hall')
    await page.goto('/dashboard/events/new')
    await fillAd(page, 'Late Show')
    await page.getByLabel('Start time').fill('22:00')
    await page.getByLabel('End time').fill('01:00')
    await page.getByRole('button', { name: 'Ready to Preview' }).click()

    await expect(page.getByRole('heading', { name: 'Create Event Listing' })).toBeVisible()
    await expect(page.getByLabel('End time')).toHaveAccessibleDescription(END_BEFORE_START_MESSAGE)
    await expect(page.getByText(END_BEFORE_START_MESSAGE)).toBeVisible()
    await expect(page.getByLabel('Start time')).toHaveValue('22:00')
    await expect(page.getByLabel('End time')).toHaveValue('01:00')

    // Ticking "Ends after midnight" makes the same times an evening that ends the next day.
    await page.getByLabel('Ends after midnight').check()
    await page.getByRole('button', { name: 'Ready to Preview' }).click()
    await expect(page.getByRole('heading', { name: 'Preview Your Ad - Customer View' })).toBeVisible()
  })
})
