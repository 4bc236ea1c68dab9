import fs from 'node:fs/promises'
import type { Browser } from '@playwright/test'
import { analyticsAd, analyticsOwner, day } from './ad-analytics-data.ts'
import { expect, signInAsBusiness, test } from './fixtures.ts'

/** The owner's page of one ad, in one browser mode: history, figures, a range chosen with the form, the CSV. */
async function adPage(browser: Browser, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ javaScriptEnabled })
  const page = await context.newPage()
  await signInAsBusiness(page, analyticsOwner)
  await page.goto('/dashboard')
  await page.getByRole('link', { name: `Analytics and history of ${analyticsAd.title}` }).click()
  await expect(page).toHaveURL(/\/dashboard\/events\/\d+$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(analyticsAd.title)
  await expect(page.getByTestId('ad-status')).toHaveText('Live')

  await expect(page.getByTestId('ad-timeline').getByRole('listitem')).toHaveText([
    `Created${analyticsAd.createdOn}`,
    `Confirmed for payment${analyticsAd.createdOn}`,
    `Paid${analyticsAd.paidOn}`,
    `Reviewed${analyticsAd.reviewedOn}`,
    `Live${analyticsAd.showAdOnDates[0]}`,
    'Endednot yet',
  ])

  const totals = page.getByTestId('ad-totals')
  const chooseRange = async (from: string, to: string) => {
    await page.getByLabel('From', { exact: true }).fill(from)
    await page.getByLabel('To', { exact: true }).fill(to)
    await page.getByRole('button', { name: 'Show' }).click()
    await expect(page).toHaveURL(new RegExp(`\\?from=${from}&to=${to}$`))
  }

  await chooseRange(day(-6), day(-2))
  await expect(totals.locator('dt')).toHaveText([
    'Views',
    'Clicks',
    'Bounces',
    'Click-through rate',
    'QR code scans',
  ])
  await expect(totals.locator('dd')).toHaveText(['40', '12', '4', '30.0%', '0'])
  const chart = page.getByRole('img', {
    name: `Views and clicks per day for ${analyticsAd.title}`,
    exact: true,
  })
  await expect(chart).toHaveAccessibleDescription(
    `Views and clicks per day from ${day(-6)} to ${day(-2)}: 40 views and 12 clicks in all, at most 20 in a day.`,
  )
  const bars = chart.locator('rect > title')
  await expect(bars).toHaveText([
    `${day(-6)}: 12 views`,
    `${day(-6)}: 5 clicks`,
    `${day(-5)}: 8 views`,
    `${day(-5)}: 2 clicks`,
    `${day(-4)}: 0 views`,
    `${day(-4)}: 0 clicks`,
    `${day(-3)}: 0 views`,
    `${day(-3)}: 0 clicks`,
    `${day(-2)}: 20 views`,
    `${day(-2)}: 5 clicks`,
  ])

  await chooseRange(day(-2), day(-2))
  await expect(page.getByLabel('From', { exact: true })).toHaveValue(day(-2))
  await expect(totals.locator('dd')).toHaveText(['20', '5', '3', '25.0%', '0'])
  await expect(chart).toHaveAccessibleDescription(
    `Views and clicks per day from ${day(-2)} to ${day(-2)}: 20 views and 5 clicks in all, at most 20 in a day.`,
  )
  await expect(bars).toHaveText([`${day(-2)}: 20 views`, `${day(-2)}: 5 clicks`])

  await chooseRange(day(-6), day(-4))
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download CSV' }).click(),
  ])
  expect(download.suggestedFilename()).toMatch(new RegExp(`^ad-\\d+-${day(-6)}-${day(-4)}\\.csv$`))
  expect(await fs.readFile(await download.path(), 'utf8')).toBe(
    [
      '"date","views","clicks","bounces","click_through_rate","qr_scans"',
      `"${day(-6)}","12","5","1","41.7%","0"`,
      `"${day(-5)}","8","2","0","25.0%","0"`,
      `"${day(-4)}","0","0","0","—","0"`,
      '',
    ].join('\r\n'),
  )
  await context.close()
}

test("the ad's page: history, the chart's figures, another range and the CSV, with JavaScript", async ({
  browser,
}) => {
  await adPage(browser, true)
})

test("the ad's page: history, the chart's figures, another range and the CSV, without JavaScript", async ({
  browser,
}) => {
  await adPage(browser, false)
})
