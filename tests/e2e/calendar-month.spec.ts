import type { Page } from '@playwright/test'
import { expect, expectNoScripts, test } from './fixtures.ts'

const PHONE = { width: 375, height: 667 }
const DESKTOP = { width: 1280, height: 900 }

async function sidewaysOverflow(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
}

/** The top edges of the grid's day cells, in order. */
async function dayTops(page: Page) {
  return page
    .getByTestId('calendar-month')
    .locator('li[data-date]')
    .evaluateAll((cells) => cells.map((cell) => Math.round(cell.getBoundingClientRect().top)))
}

test.describe('the month view without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('on a phone (375 px): a list of the days with events, no sideways scrolling, titles open the event', async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto('/calendar')
    await page.getByRole('link', { name: 'Month view' }).click()
    await expect(page).toHaveURL(/[?&]view=month/)
    await expectNoScripts(page)
    const grid = page.getByTestId('calendar-month')
    await expect(grid.getByRole('heading', { level: 2 })).toHaveText(/^[A-Z][a-z]+ \d{4}$/)
    expect(await sidewaysOverflow(page)).toBe(0)

    // The seeded events run from today: this month has days with events, shown one under the other.
    const days = grid.locator('li[data-date]:visible')
    expect(await days.count()).toBeGreaterThan(1)
    const tops = (await dayTops(page)).filter((top) => top !== 0)
    expect(new Set(tops).size).toBe(tops.length)
    await expect(days.first().getByRole('heading')).toHaveText(/^(Sun|Mon|Tues|Wednes|Thurs|Fri|Satur)day, /)

    const first = days.first().locator('a[href^="/event/"]').first()
    const title = (await first.textContent())!.trim()
    await first.click()
    await expect(page).toHaveURL(/\/event\/\d+-[a-z0-9-]+$/)
    await expect(page.getByRole('heading', { name: title }).first()).toBeVisible()
    await context.close()
  })

  test('on a desktop: seven columns from Sunday, months move with the filters kept, back to the list', async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto('/calendar?view=month&month=2026-11&category=All')
    const grid = page.getByTestId('calendar-month')
    await expect(grid.getByRole('heading', { name: 'November 2026' })).toBeVisible()
    expect(await sidewaysOverflow(page)).toBe(0)
    // 1 November 2026 is a Sunday: the 1st to the 7th are one row, the 8th starts the next.
    const tops = await dayTops(page)
    expect(new Set(tops.slice(0, 7)).size).toBe(1)
    expect(tops[7]).toBeGreaterThan(tops[0]!)
    await expect(grid.getByText('Sun', { exact: true })).toBeVisible()

    await grid.getByRole('link', { name: 'Next month' }).click()
    await expect(page).toHaveURL(/month=2026-12/)
    await expect(grid.getByRole('heading', { name: 'December 2026' })).toBeVisible()
    await grid.getByRole('link', { name: 'Previous month' }).click()
    await expect(page).toHaveURL(/month=2026-11/)

    // Filtering from the month (its filters open beside it) keeps the month.
    await page.getByLabel('Keyword').fill('no event says this')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect(page).toHaveURL(/view=month/)
    await expect(page).toHaveURL(/month=2026-11/)
    await expect(grid.getByText('No events in November 2026.', { exact: false })).toBeVisible()

    await page.getByRole('link', { name: 'List view' }).click()
    await expect(page).not.toHaveURL(/view=month/)
    await expect(page).toHaveURL(/keyword=no\+event\+says\+this/)
    await expect(page.getByRole('heading', { name: 'We found 0 event(s) for you!' })).toBeVisible()
    await context.close()
  })

  test('a bad month is a 400 page with the reason', async ({ page }) => {
    const response = await page.goto('/calendar?view=month&month=2026-13')
    expect(response?.status()).toBe(400)
    await expect(page.getByText('month: "2026-13" is not a month')).toBeVisible()
  })
})
