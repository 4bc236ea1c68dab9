import { eventPagePath } from '#app/models/ads/event-address.ts'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { CalendarMonth } from '#app/components/calendar-month.tsx'
import type { CalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import {
  MONTH_DAY_EVENTS_LIMIT,
  shiftMonth,
  type DayEvents,
  type MonthGrid,
} from '#app/models/calendar/calendar-month.ts'
import { invalidateLiveEvents } from '#app/models/calendar/live-events-cache.server.ts'
import { calendarDayHref, calendarMonthHref } from '#app/models/calendar/calendar-links.ts'
import { loader as calendarLoader } from '#app/routes/calendar.tsx'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { events, type Business } from '#db/schema.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'

const today = platformToday()
/** A month whose every day is after today, so every event in it is live. */
const month = addDaysIso(today, 40).slice(0, 7)
const next = shiftMonth(month, 1)!
const on = (day: number, m = month) => `${m}-${String(day).padStart(2, '0')}`

interface MonthPage {
  view: 'month'
  filters: CalendarFilters
  notices: string[]
  month: { grid: MonthGrid; days: DayEvents[] }
}

async function getMonth(query: string) {
  const response = await callRoute(calendarLoader, `/calendar?view=month&${query}`)
  expect(response.status, await response.clone().text()).toBe(200)
  return (await response.json()) as MonthPage
}

/** Day (yyyy-mm-dd) → the titles it lists, for the days that list any. */
async function titlesByDay(query: string) {
  const page = await getMonth(query)
  return Object.fromEntries(page.month.days.map((d) => [d.date, d.events.map((e) => e.eventTitle)]))
}

/** The grid as the page renders it. */
function monthHtml(page: MonthPage) {
  return renderToStaticMarkup(
    createElement(CalendarMonth, {
      grid: page.month.grid,
      days: page.month.days,
      dayHref: (date: string) => calendarDayHref(page.filters, date),
      prevHref: calendarMonthHref(page.filters, shiftMonth(page.month.grid.month, -1)),
      nextHref: calendarMonthHref(page.filters, shiftMonth(page.month.grid.month, 1)),
    }),
  )
}

let hall: Business
let barn: Business

beforeAll(async () => {
  hall = await insertBusiness(db, { businessName: 'Springfield Hall', businessZip: '62704' })
  barn = await insertBusiness(db, { businessName: 'Shelbyville Barn', businessZip: '90210' })
})

beforeEach(async () => {
  await db.delete(events)
  invalidateLiveEvents()
})

describe('GET /calendar?view=month', () => {
  test('the date rule: an event with its own date on that date only; one without on each display date', async () => {
    await insertTestEvent(hall, { eventTitle: 'Market', showAdOnDates: [on(5), on(12)] })
    await insertTestEvent(hall, {
      eventTitle: 'Gala',
      eventDate: on(20),
      showAdOnDates: [on(5), on(6), on(7)],
    })
    // Advertised this month, happening next month: not in this month's grid.
    await insertTestEvent(hall, { eventTitle: 'Later', eventDate: on(3, next), showAdOnDates: [on(25)] })
    await insertTestEvent(hall, { eventTitle: 'Unpaid', showAdOnDates: [on(5)], paymentStatus: 'pending' })
    await insertTestEvent(hall, { eventTitle: 'Rejected', showAdOnDates: [on(5)], eventStatus: 'rejected' })

    expect(await titlesByDay(`month=${month}`)).toEqual({
      [on(5)]: ['Market'],
      [on(12)]: ['Market'],
      [on(20)]: ['Gala'],
    })
    expect(await titlesByDay(`month=${next}`)).toEqual({ [on(3, next)]: ['Later'] })
  })

  test('events that are over are not shown; a running event shows on its past days too', async () => {
    const thisMonth = today.slice(0, 7)
    await insertTestEvent(hall, { eventTitle: 'Over', showAdOnDates: [addDaysIso(today, -1)] })
    await insertTestEvent(hall, { eventTitle: 'Running', showAdOnDates: [addDaysIso(today, -1), today] })
    const days = await titlesByDay(`month=${thisMonth}`)
    const titles = Object.values(days).flat()
    expect(titles).not.toContain('Over')
    expect(days[today]).toEqual(['Running'])
  })

  test('the grid starts on Sunday and names the month', async () => {
    const page = await getMonth('month=2026-11')
    // 1 November 2026 is a Sunday; 1 February 2026 too; 1 December 2026 a Tuesday.
    expect(page.month.grid).toMatchObject({ label: 'November 2026', leadingBlanks: 0, first: '2026-11-01' })
    expect(page.month.grid.dates).toHaveLength(30)
    expect((await getMonth('month=2026-12')).month.grid.leadingBlanks).toBe(2)
    expect((await getMonth('month=2028-02')).month.grid.dates.at(-1)).toBe('2028-02-29')
  })

  test("without a month: the platform's current month", async () => {
    const page = await getMonth('')
    expect(page.month.grid.month).toBe(today.slice(0, 7))
  })

  test('every other filter applies: category, keyword, ZIP, and the dates crop the month', async () => {
    await insertTestEvent(hall, {
      eventTitle: 'Jazz',
      category: ['Concert'],
      eventDescription: 'Late night jazz',
      showAdOnDates: [on(2), on(9)],
    })
    await insertTestEvent(barn, {
      eventTitle: 'Picnic',
      category: ['Family'],
      eventDescription: 'Sandwiches',
      showAdOnDates: [on(2), on(16)],
    })
    expect(await titlesByDay(`month=${month}&category=Concert`)).toEqual({
      [on(2)]: ['Jazz'],
      [on(9)]: ['Jazz'],
    })
    expect(await titlesByDay(`month=${month}&keyword=SANDWICH`)).toEqual({
      [on(2)]: ['Picnic'],
      [on(16)]: ['Picnic'],
    })
    expect(await titlesByDay(`month=${month}&zip=627`)).toEqual({ [on(2)]: ['Jazz'], [on(9)]: ['Jazz'] })
    expect(await titlesByDay(`month=${month}&from=${on(3)}&to=${on(10)}`)).toEqual({ [on(9)]: ['Jazz'] })
    expect(await titlesByDay(`month=${month}&from=${on(10)}`)).toEqual({ [on(16)]: ['Picnic'] })
    expect(await titlesByDay(`month=${month}&to=${on(1)}`)).toEqual({})
  })

  test(`a day lists ${MONTH_DAY_EVENTS_LIMIT} events and "+k more" links to the list of that day`, async () => {
    const busy = on(15)
    for (let i = 1; i <= 5; i++) {
      await insertTestEvent(hall, { eventTitle: `Busy ${i}`, category: ['Concert'], showAdOnDates: [busy] })
    }
    const page = await getMonth(`month=${month}&category=Concert`)
    expect(page.month.days).toEqual([
      {
        date: busy,
        total: 5,
        events: ['Busy 1', 'Busy 2', 'Busy 3'].map((eventTitle) =>
          expect.objectContaining({ eventTitle, category: ['Concert'] }),
        ),
      },
    ])
    const html = monthHtml(page)
    expect(html).toContain('+2 more')
    expect(html).toContain(`href="/calendar?category=Concert&amp;from=${busy}&amp;to=${busy}"`)
    const first = page.month.days[0]!.events[0]!
    expect(html).toContain(`href="${eventPagePath(first)}" ping="/event/${first.eventID}/view"`)
  })

  test('previous and next month links keep the filters; titles are escaped', async () => {
    await insertTestEvent(hall, {
      eventTitle: 'Fish <Fry> & Co',
      eventDescription: 'Friday fish fry',
      showAdOnDates: [on(8)],
    })
    const page = await getMonth(`month=${month}&keyword=fish&zip=627`)
    const html = monthHtml(page)
    expect(html).toContain('Fish &lt;Fry&gt; &amp; Co')
    const prev = shiftMonth(month, -1)!
    expect(html).toContain(`href="/calendar?keyword=fish&amp;zip=627&amp;view=month&amp;month=${prev}"`)
    expect(html).toContain(`href="/calendar?keyword=fish&amp;zip=627&amp;view=month&amp;month=${next}"`)
    expect(html).toContain('data-date="' + on(8) + '"')
  })

  test.each([
    ['2026-13', 'not a month'],
    ['2026-00', 'not a month'],
    ['garbage', 'not a month'],
    ['2026-1', 'not a month'],
    ['2026-01-01', 'not a month'],
    ['99999-01', 'not a month'],
    ['0001-01', 'out of range'],
    ['2101-01', 'out of range'],
  ])('month=%s is refused with 400 (%s)', async (value, words) => {
    const response = await callRoute(
      calendarLoader,
      `/calendar?view=month&month=${encodeURIComponent(value)}`,
    )
    expect(response.status).toBe(400)
    const body = (await response.json()) as { message: string }
    expect(body.message).toContain(words)
    expect(body.message).toContain('month')
  })

  test('an unknown view is refused with 400; no view is the list', async () => {
    const bad = await callRoute(calendarLoader, '/calendar?view=year')
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { message: string }).message).toBe('view must be one of: list, month')
    const list = await callRoute(calendarLoader, '/calendar?month=garbage')
    expect(list.status).toBe(200)
    expect(((await list.json()) as { view: string }).view).toBe('list')
  })

  test('the first and last months have no link past them', async () => {
    expect(shiftMonth('2000-01', -1)).toBeNull()
    expect(shiftMonth('2100-12', 1)).toBeNull()
    expect(shiftMonth('2026-12', 1)).toBe('2027-01')
    expect(shiftMonth('2027-01', -1)).toBe('2026-12')
  })
})
