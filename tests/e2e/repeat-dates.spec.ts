import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { MAX_DATES_MESSAGE } from '#app/models/ads/event-rules.ts'
import { expandRepeatRule } from '#app/utils/repeat-dates.ts'
import { weekdayOf } from '#app/utils/time.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { expect, signInAsNewBusiness, test } from './fixtures.ts'

const today = todayInZone('America/New_York')
const window = { today, lastDate: addDaysIso(today, 365) }
const fridays = expandRepeatRule({ kind: 'weekly', from: today, weekdays: [5], weeks: 3 }, window)

async function fillAd(page: Page, title: string) {
  await page.getByLabel('Title').fill(title)
  await page.getByLabel('Description').fill(`${title}: every Friday.`)
  await page.getByRole('checkbox', { name: 'Concert' }).check()
}

async function chooseFridays(page: Page, weeks: string) {
  await page.getByRole('radio', { name: 'Repeat every week on:' }).check()
  await page.getByRole('checkbox', { name: 'Friday' }).check()
  await page.getByLabel('Repeat from').fill(today)
  await page.getByLabel('Number of weeks').fill(weeks)
}

test('with JavaScript: the rule fills the display dates, single dates still toggle, and over 21 is an alert', async ({
  page,
}) => {
  await signInAsNewBusiness(page, 'Repeat Js Club')
  await page.goto('/dashboard/events/new')
  await fillAd(page, 'Repeat Js Jazz')
  await chooseFridays(page, '3')
  await page.getByRole('checkbox', { name: 'Monday' }).check()
  await page.getByRole('checkbox', { name: 'Wednesday' }).check()
  await page.getByLabel('Number of weeks').fill('8')
  const alerts: string[] = []
  page.once('dialog', (dialog) => {
    alerts.push(dialog.message())
    void dialog.dismiss()
  })
  await page.getByRole('button', { name: 'Add these dates' }).click()
  await expect.poll(() => alerts).toEqual([MAX_DATES_MESSAGE])
  await expect(page.getByTestId('dates-count')).toHaveText('0 selected')

  await page.getByRole('checkbox', { name: 'Monday' }).uncheck()
  await page.getByRole('checkbox', { name: 'Wednesday' }).uncheck()
  await page.getByLabel('Number of weeks').fill('3')
  await page.getByRole('button', { name: 'Add these dates' }).click()
  await expect(page.getByTestId('dates-count')).toHaveText('3 selected')
  for (const date of fridays) await expect(page.getByLabel(date, { exact: true })).toBeChecked()
  // A single date can still be removed.
  await page.getByLabel(fridays[0]!, { exact: true }).uncheck({ force: true })
  await expect(page.getByTestId('dates-count')).toHaveText('2 selected')

  const { violations } = await new AxeBuilder({ page })
    .include('[data-testid="repeat-dates"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze()
  expect(violations.map((v) => v.id)).toEqual([])

  await page.getByRole('button', { name: 'Ready to Preview' }).click()
  await page.getByRole('button', { name: 'Approve Your Ad - $29.00' }).click()
  await page.waitForURL('**/checkout')
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the server expands the posted rule and the preview lists the dates before checkout', async ({
    page,
  }) => {
    await signInAsNewBusiness(page, 'Repeat Plain Club')
    await page.goto('/dashboard/events/new')
    await fillAd(page, 'Repeat Plain Jazz')
    // Past the limit: the form comes back with the alert's text at the rule and the rule as it was typed.
    await chooseFridays(page, '8')
    await page.getByRole('checkbox', { name: 'Monday' }).check()
    await page.getByRole('checkbox', { name: 'Wednesday' }).check()
    await page.getByRole('button', { name: 'Ready to Preview' }).click()
    await expect(page.getByTestId('repeat-dates').getByRole('alert')).toHaveText(MAX_DATES_MESSAGE)
    await expect(page.getByLabel('Number of weeks')).toHaveValue('8')
    await expect(page.getByRole('checkbox', { name: 'Monday' })).toBeChecked()

    await page.getByRole('checkbox', { name: 'Monday' }).uncheck()
    await page.getByRole('checkbox', { name: 'Wednesday' }).uncheck()
    await page.getByLabel('Number of weeks').fill('3')
    await page.getByRole('button', { name: 'Ready to Preview' }).click()
    await expect(page.getByRole('heading', { name: 'Preview Your Ad - Customer View' })).toBeVisible()
    const listed = page.getByTestId('chosen-dates').locator('time')
    await expect(listed).toHaveCount(3)
    expect(await listed.evaluateAll((times) => times.map((t) => t.getAttribute('datetime')))).toEqual(fridays)
    expect(fridays.map(weekdayOf)).toEqual([5, 5, 5])
    await page.getByRole('button', { name: 'Approve Your Ad - $29.00' }).click()
    await expect(page).toHaveURL(/\/checkout$/)
  })
})
