import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { formatEventWhen } from '#app/models/ads/event-times.ts'
import { expect, test } from './fixtures.ts'
import {
  SCHEDULE_KEYWORD,
  SCHEDULE_TICKETS,
  scheduleAds,
  scheduleDays,
  scheduleMonth,
  scheduleToday,
} from './schedule-data.ts'

/** WCAG 2.2 A and AA, as axe-core tags them. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

async function expectAxeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode(true).analyze()
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}

async function sidewaysOverflow(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
}

const VIEWPORTS = [
  { name: 'a phone (375 px)', viewport: { width: 375, height: 740 } },
  { name: 'a desktop (1280 px)', viewport: { width: 1280, height: 900 } },
]

const listPath = `/calendar?keyword=${SCHEDULE_KEYWORD}`

/** The tile of the grid (not the featured strip) with this title. */
function tileOf(page: Page, title: string) {
  return page.getByTestId('calendar-event').filter({ has: page.getByRole('heading', { name: title }) })
}

/** From the list, the event's page through its "View details" (the way a visitor goes). */
async function openEventPage(page: Page, title: string) {
  await page.goto(listPath)
  await tileOf(page, title).getByRole('link', { name: 'View details' }).click()
  await expect(page).toHaveURL(/\/event\/\d+-[a-z0-9-]+$/)
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
}

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`times and status on ${name}`, () => {
    test.use({ viewport })

    test('the calendar tiles: the date with its times, a text label for each status', async ({ page }) => {
      await page.goto(listPath)
      const timed = tileOf(page, scheduleAds.timed.eventTitle)
      await expect(timed.getByTestId('event-when')).toContainText(
        formatEventWhen(scheduleDays[0], { startTime: '19:30', endTime: '22:00' }),
      )
      await expect(timed.getByTestId('event-when')).toContainText('7:30 PM – 10 PM')
      await expect(timed.getByTestId('schedule-status')).toHaveCount(0)
      for (const [ad, label] of [
        [scheduleAds.cancelled, 'Cancelled'],
        [scheduleAds.postponed, 'Postponed'],
        [scheduleAds.soldOut, 'Sold out'],
      ] as const) {
        await expect(tileOf(page, ad.eventTitle).getByTestId('schedule-status')).toHaveText(label, {
          ignoreCase: true,
        })
        await expect(tileOf(page, ad.eventTitle).getByTestId('schedule-status')).toBeVisible()
      }
      await expect(tileOf(page, scheduleAds.soldOut.eventTitle).getByTestId('event-when')).toContainText(
        '8 PM',
      )
      expect(await sidewaysOverflow(page)).toBe(0)
      await expectAxeClean(page)
    })

    test('a timed event: its time on the page, "Add to calendar", Google Calendar and tickets', async ({
      page,
    }) => {
      await openEventPage(page, scheduleAds.timed.eventTitle)
      await expect(page.getByTestId('event-time')).toHaveText('7:30 PM – 10 PM')
      await expect(page.getByRole('link', { name: 'Add to calendar' })).toBeVisible()
      await expect(page.getByRole('link', { name: 'Google Calendar' })).toBeVisible()
      // The advertiser's link, credited to the site (utm_ parameters added after its own).
      await expect(page.getByRole('link', { name: 'Tickets', exact: true })).toHaveAttribute(
        'href',
        new RegExp(
          `^${SCHEDULE_TICKETS.replaceAll('.', '\\.')}\\?utm_source=127\\.0\\.0\\.1&utm_medium=event_listing&utm_campaign=\\d+-lantern-jazz-evening$`,
        ),
      )
      await expect(page.getByRole('status')).toHaveCount(0)
      expect(await sidewaysOverflow(page)).toBe(0)
      await expectAxeClean(page)
    })

    test('a cancelled event: the banner with the note; no "Add to calendar", Google Calendar or tickets', async ({
      page,
    }) => {
      await openEventPage(page, scheduleAds.cancelled.eventTitle)
      await expect(page.getByRole('status')).toHaveText('This event is cancelled. Moved to the gym')
      await expect(page.getByTestId('customer-event-card').getByTestId('schedule-status')).toHaveText(
        'Cancelled',
        { ignoreCase: true },
      )
      await expect(page.getByTestId('event-time')).toHaveText('10 AM – 4 PM')
      await expect(page.getByRole('link', { name: 'Add to calendar' })).toHaveCount(0)
      await expect(page.getByRole('link', { name: 'Google Calendar' })).toHaveCount(0)
      await expect(page.getByRole('link', { name: 'Tickets', exact: true })).toHaveCount(0)
      await expect(page.getByRole('link', { name: 'Share by email' })).toBeVisible()
      expect(await sidewaysOverflow(page)).toBe(0)
      await expectAxeClean(page)
    })

    test('a postponed event: the banner with the note; no "Add to calendar" or tickets', async ({ page }) => {
      await openEventPage(page, scheduleAds.postponed.eventTitle)
      await expect(page.getByRole('status')).toHaveText('This event is postponed. New date to follow')
      await expect(page.getByRole('link', { name: 'Add to calendar' })).toHaveCount(0)
      await expect(page.getByRole('link', { name: 'Tickets', exact: true })).toHaveCount(0)
      // An all-day event has no time line.
      await expect(page.getByTestId('event-time')).toHaveCount(0)
      await expectAxeClean(page)
    })

    test('a sold-out event: "Sold out" in place of the tickets link; it can still be added to a calendar', async ({
      page,
    }) => {
      await openEventPage(page, scheduleAds.soldOut.eventTitle)
      await expect(page.getByRole('status')).toHaveText('This event is sold out.')
      await expect(page.getByLabel('Practical facts')).toContainText(/Tickets:\s*From \$15 · Sold out/)
      await expect(page.getByRole('link', { name: 'Tickets', exact: true })).toHaveCount(0)
      await expect(page.getByRole('link', { name: 'Add to calendar' })).toBeVisible()
      await expect(page.getByTestId('event-time')).toHaveText('8 PM')
      await expectAxeClean(page)
    })

    test('the month grid: each event with its start time and status label', async ({ page }) => {
      await page.goto(`/calendar?view=month&month=${scheduleMonth}&keyword=${SCHEDULE_KEYWORD}`)
      const grid = page.getByTestId('calendar-month')
      const first = grid.locator(`li[data-date="${scheduleDays[0]}"]`)
      const second = grid.locator(`li[data-date="${scheduleDays[1]}"]`)
      const item = (day: typeof first, title: string) =>
        day.locator('li').filter({ has: page.getByRole('link', { name: title }) })
      await expect(item(first, scheduleAds.timed.eventTitle).getByTestId('day-event-when')).toHaveText(
        '7:30 PM',
      )
      const cancelled = item(first, scheduleAds.cancelled.eventTitle).getByTestId('day-event-when')
      await expect(cancelled).toContainText('10 AM')
      await expect(cancelled.getByTestId('schedule-status')).toHaveText('Cancelled', { ignoreCase: true })
      await expect(cancelled.getByTestId('schedule-status')).toBeVisible()
      await expect(item(second, scheduleAds.postponed.eventTitle).getByTestId('schedule-status')).toHaveText(
        'Postponed',
        { ignoreCase: true },
      )
      const soldOut = item(second, scheduleAds.soldOut.eventTitle).getByTestId('day-event-when')
      await expect(soldOut).toContainText('8 PM')
      await expect(soldOut.getByTestId('schedule-status')).toHaveText('Sold out', { ignoreCase: true })
      expect(await sidewaysOverflow(page)).toBe(0)
      await expectAxeClean(page)
    })

    test('the calendar page lines up under the site header', async ({ page }) => {
      for (const path of ['/calendar', '/calendar?view=month']) {
        await page.goto(path)
        const header = await page.locator('header').first().locator('nav').boundingBox()
        const main = await page.locator('main').boundingBox()
        const logo = await page
          .getByRole('link', { name: /EventShout/ })
          .first()
          .boundingBox()
        const tagline = await page.getByRole('heading', { level: 1 }).boundingBox()
        expect(Math.abs(header!.x - main!.x), path).toBeLessThanOrEqual(1)
        expect(Math.abs(header!.width - main!.width), path).toBeLessThanOrEqual(1)
        expect(Math.abs(logo!.x - tagline!.x), path).toBeLessThanOrEqual(1)
        expect(await sidewaysOverflow(page)).toBe(0)
      }
    })
  })
}

test('under a date filter, a tile matched by a display date says when the event is, and "Advertised today"', async ({
  page,
}) => {
  await page.goto(`${listPath}&from=${scheduleToday}&to=${scheduleToday}`)
  const timed = tileOf(page, scheduleAds.timed.eventTitle)
  await expect(timed.getByTestId('event-when')).toContainText(
    `Event on ${formatEventWhen(scheduleDays[0], { startTime: '19:30', endTime: '22:00' })}`,
  )
  await expect(timed.getByTestId('event-advertised')).toHaveText('Advertised today')
  // On its own date the tile needs no such words.
  await page.goto(`${listPath}&from=${scheduleDays[0]}&to=${scheduleDays[0]}`)
  await expect(tileOf(page, scheduleAds.timed.eventTitle).getByTestId('event-when')).not.toContainText(
    'Event on',
  )
})
