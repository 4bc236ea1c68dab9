import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { LINK_TEXT } from '#app/models/ads/link-address-rules.ts'
import { eventPageDates, startEventPageServer, type EventPageServer } from '#tests/support/event-pages.ts'
import { expect, signInAsNewBusiness, test, waitForEventFormHydrated } from './fixtures.ts'

/**
 * "Fill from a link" on the Create form, from pages served by a stand-in site on loopback that the app is allowed
 * to read (LINK_FETCH_ALLOW_HOSTS=localhost in playwright.config.ts): the fields filled, what was not found, a
 * refused link, and the photo carried to the preview.
 */

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']
const { start } = eventPageDates()

let site: EventPageServer
test.beforeAll(async () => {
  site = await startEventPageServer({ hostName: 'localhost' })
})
test.afterAll(() => site.close())

async function expectNoAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode(true).analyze()
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}

async function fillFrom(page: Page, path: string) {
  await page.getByLabel('Event page or .ics address').fill(`${site.origin}${path}`)
  await page.getByRole('button', { name: 'Fill from link' }).click()
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`${javaScriptEnabled ? 'with' : 'without'} JavaScript`, () => {
    test.use({ javaScriptEnabled, viewport: { width: 1280, height: 900 } })

    async function openForm(page: Page, business: string) {
      await signInAsNewBusiness(page, business)
      await page.goto('/dashboard/events/new')
      if (javaScriptEnabled) await waitForEventFormHydrated(page)
    }

    test('an event page with JSON-LD fills the form, and its photo reaches the preview', async ({ page }) => {
      await openForm(page, 'Riverside Arts Link')
      await fillFrom(page, '/json-ld.html')
      const report = page.getByTestId('fill-report')
      await expect(report).toContainText('Title, Description, Dates, Times, Place, Ticket link, Photo')
      await expect(report).not.toContainText('Not found')
      await expect(page.getByLabel('Title')).toHaveValue('Jazz on the River')
      await expect(page.getByLabel('Description')).toHaveValue(
        'An evening of live jazz & food trucks by the water.',
      )
      await expect(page.getByLabel(start, { exact: true })).toBeChecked()
      await expect(page.getByLabel('Event date')).toHaveValue(start)
      await expect(page.getByLabel('Start time')).toHaveValue('19:30')
      await expect(page.getByLabel('End time')).toHaveValue('22:00')
      await expect(page.getByLabel('Ticket or registration link')).toHaveValue(
        'https://tickets.example.com/jazz',
      )
      await expect(page.getByLabel('Street address')).toHaveValue('200 River Rd')
      await expect(page.getByLabel('ZIP code')).toHaveValue('62701')
      if (javaScriptEnabled) {
        // The photo is in the form's photo input, as if chosen.
        const chosen = await page
          .locator('input[name="image"]')
          .evaluate((input: HTMLInputElement) => input.files?.[0]?.name)
        expect(chosen).toBe('photo.png')
      } else {
        await expect(page.getByTestId('link-photo')).toContainText('photo.png')
      }
      // Every field can be changed before continuing.
      await page.getByLabel('Title').fill('Jazz on the River (rain or shine)')
      await page.getByRole('checkbox', { name: 'Concert' }).check()
      await page.getByRole('button', { name: 'Ready to Preview' }).click()
      const preview = javaScriptEnabled
        ? page.getByRole('dialog', { name: 'Preview Your Ad - Customer View' })
        : page.locator('main')
      await expect(preview.getByText('Jazz on the River (rain or shine)').first()).toBeVisible()
      await expect(preview.getByText('photo.png').first()).toBeVisible()
    })

    test('an Open Graph page fills what it has and names what it lacks', async ({ page }) => {
      await openForm(page, 'Fire Station Link')
      await page.getByLabel('Description').fill('typed before')
      await fillFrom(page, '/open-graph.html')
      const report = page.getByTestId('fill-report')
      await expect(report).toContainText('Open Graph tags')
      await expect(report).toContainText('Not found at the link: Dates, Times, Place, Ticket link')
      await expect(page.getByLabel('Title')).toHaveValue('Pancake Breakfast')
      await expect(page.getByLabel('Description')).toHaveValue('Fire station pancake breakfast & open house.')
      // axe runs as a script in the page: the filled form is checked at both widths with JavaScript on.
      if (javaScriptEnabled) {
        await expectNoAxeViolations(page)
        await page.setViewportSize({ width: 375, height: 800 })
        await expect(page.getByRole('button', { name: 'Fill from link' })).toBeVisible()
        await expectNoAxeViolations(page)
      }
    })

    test('an .ics file fills the form in the platform’s time zone', async ({ page }) => {
      await openForm(page, 'City Hall Link')
      await fillFrom(page, '/event.ics')
      await expect(page.getByLabel('Title')).toHaveValue('Town Hall: Parks Plan')
      await expect(page.getByLabel('Start time')).toHaveValue('20:00')
      await expect(page.getByLabel('City')).toHaveValue('Springfield')
    })

    test('a link to a private address is refused at the field, saying why', async ({ page }) => {
      await openForm(page, 'Private Link')
      await page.getByLabel('Event page or .ics address').fill('http://127.0.0.1/admin')
      await page.getByRole('button', { name: 'Fill from link' }).click()
      await expect(page.getByLabel('Event page or .ics address')).toHaveAccessibleDescription(
        LINK_TEXT.privateAddress,
      )
      await expect(page.getByLabel('Event page or .ics address')).toHaveValue('http://127.0.0.1/admin')
      await expect(page.getByLabel('Title')).toHaveValue('')
    })
  })
}
