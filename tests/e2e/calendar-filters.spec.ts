import type { Locator, Page } from '@playwright/test'
import { todayInZone } from '#app/utils/time.ts'
import { expect, test } from './fixtures.ts'

/** Where people look for the calendar's filters: open beside the results on a wide screen, above them on a phone. */

const WIDE = { width: 1280, height: 800 }
const PHONE = { width: 375, height: 667 }
const today = todayInZone('America/New_York')
const TWO_FILTERS = `/calendar?category=Concert&from=${today}`

const found = (page: Page) => page.getByRole('heading', { name: /We found \d+ event\(s\) for you!/ })
const filtersControl = (page: Page) => page.getByTestId('calendar-filters').locator('summary')

async function box(locator: Locator) {
  const found = await locator.boundingBox()
  expect(found, 'laid out').not.toBeNull()
  return found!
}

/** The elements of `targets` in the order Tab reaches them, from the top of the page. */
async function tabOrder(page: Page, targets: Record<string, Locator>, presses = 60) {
  const reached: string[] = []
  await page.locator('body').focus()
  for (let i = 0; i < presses && reached.length < Object.keys(targets).length; i++) {
    await page.keyboard.press('Tab')
    for (const [name, target] of Object.entries(targets)) {
      if (reached.includes(name)) continue
      if (await target.evaluate((el) => el === document.activeElement)) reached.push(name)
    }
  }
  return reached
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`${javaScriptEnabled ? 'with' : 'without'} JavaScript`, () => {
    test.describe('on a wide screen (1280 px)', () => {
      test.use({ viewport: WIDE, javaScriptEnabled })

      test('the filters are open in the left column, every field in sight, and Tab reaches them first', async ({
        page,
      }) => {
        await page.goto(TWO_FILTERS)
        for (const label of ['Keyword', 'Category', 'ZIP Code', 'Date(s) From', 'To'])
          await expect(page.getByLabel(label, { exact: true }), label).toBeInViewport()
        await expect(page.getByRole('link', { name: 'Clear Filters' })).toBeVisible()
        await expect(filtersControl(page)).toBeHidden()
        const keyword = await box(page.getByLabel('Keyword'))
        const heading = await box(found(page))
        expect(keyword.x + keyword.width).toBeLessThan(heading.x)

        // The active filters follow the results heading, each removable by a link.
        const active = page.getByRole('list', { name: 'Active filters' })
        await expect(active.getByRole('link')).toHaveCount(2)
        expect((await box(active)).y).toBeGreaterThan(heading.y)

        expect(
          await tabOrder(page, {
            keyword: page.getByLabel('Keyword'),
            apply: page.getByRole('button', { name: 'Apply filters' }),
            removeFilter: active.getByRole('link').first(),
          }),
        ).toEqual(['keyword', 'apply', 'removeFilter'])
      })

      test('the month view has the same filters, open', async ({ page }) => {
        await page.goto('/calendar?view=month&category=Concert')
        await expect(page.getByLabel('Keyword')).toBeInViewport()
        await expect(page.getByLabel('Category')).toHaveValue('Concert')
        await expect(filtersControl(page)).toBeHidden()
      })
    })

    test.describe('on a phone (375 px)', () => {
      test.use({ viewport: PHONE, javaScriptEnabled })

      test('one "Filters (2)" control above the results, then the heading and the active filters', async ({
        page,
      }) => {
        await page.goto(TWO_FILTERS)
        const control = filtersControl(page)
        await expect(control).toHaveText('Filters (2)')
        await expect(control).toBeInViewport()
        await expect(page.getByLabel('Keyword')).toBeHidden()
        await expect(found(page)).toBeInViewport()
        const active = page.getByRole('list', { name: 'Active filters' })
        await expect(active).toBeInViewport()
        const controlBox = await box(control)
        const headingBox = await box(found(page))
        expect(headingBox.y).toBeGreaterThanOrEqual(controlBox.y + controlBox.height)
        expect(headingBox.y - (controlBox.y + controlBox.height)).toBeLessThan(80)
        expect((await box(active)).y).toBeGreaterThan(headingBox.y)

        // Keyboard: the control, then the active filters, then the events.
        expect(
          await tabOrder(page, {
            control,
            removeFilter: active.getByRole('link').first(),
            event: page
              .getByTestId('calendar-event')
              .or(page.getByTestId('featured-event'))
              .first()
              .getByRole('heading')
              .getByRole('link'),
          }),
        ).toEqual(['control', 'removeFilter', 'event'])

        // The control opens the form right under it, above the results.
        await control.click()
        const keyword = page.getByLabel('Keyword')
        await expect(keyword).toBeVisible()
        expect((await box(keyword)).y).toBeLessThan((await box(found(page))).y)
        await keyword.fill('no event says this')
        await page.getByRole('button', { name: 'Apply filters' }).click()
        await expect(page).toHaveURL(/keyword=no\+event\+says\+this/)
        await expect(filtersControl(page)).toHaveText('Filters (3)')
      })

      test('each active filter is removed by its link; none set, the control says just "Filters"', async ({
        page,
      }) => {
        await page.goto(TWO_FILTERS)
        const active = page.getByRole('list', { name: 'Active filters' })
        await active.getByRole('link', { name: /Concert/ }).click()
        await expect(page).not.toHaveURL(/category=/)
        await expect(page).toHaveURL(new RegExp(`from=${today}`))
        await expect(filtersControl(page)).toHaveText('Filters (1)')
        await active.getByRole('link', { name: /from/ }).click()
        await expect(page).toHaveURL(/\/calendar$/)
        await expect(filtersControl(page)).toHaveText('Filters')
        await expect(page.getByRole('list', { name: 'Active filters' })).toHaveCount(0)
      })

      test('the month view: the same control above the month, keeping the month when filtering', async ({
        page,
      }) => {
        await page.goto('/calendar?view=month&month=2026-11&category=Concert')
        const control = filtersControl(page)
        await expect(control).toHaveText('Filters (1)')
        const month = page.getByTestId('calendar-month')
        expect((await box(control)).y).toBeLessThan((await box(month)).y)
        await control.click()
        await page.getByLabel('Keyword').fill('no event says this')
        await page.getByRole('button', { name: 'Apply filters' }).click()
        await expect(page).toHaveURL(/view=month/)
        await expect(page).toHaveURL(/month=2026-11/)
        await page
          .getByRole('list', { name: 'Active filters' })
          .getByRole('link', { name: /Concert/ })
          .click()
        await expect(page).toHaveURL(/view=month/)
        await expect(page).toHaveURL(/month=2026-11/)
        await expect(page).not.toHaveURL(/category=/)
      })
    })
  })
}
