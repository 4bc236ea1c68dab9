import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { normalizeCalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import {
  countLiveEvents,
  listLiveEvents,
  type ListingStrategy,
} from '#app/models/calendar/calendar-listing.server.ts'
import { listEventsByDay } from '#app/models/calendar/calendar-month-grid.server.ts'
import type { EventTileData } from '#app/models/ads/event-tile.ts'
import { invalidateLiveEvents } from '#app/models/calendar/live-events-cache.server.ts'
import { loader as apiActiveLoader } from '#app/routes/api.events.active.ts'
import { loader as calendarLoader } from '#app/routes/calendar.tsx'
import { loader as icsLoader } from '#app/routes/calendar[.]ics.ts'
import { loader as rssLoader } from '#app/routes/calendar[.]rss.ts'
import { loader as embedLoader } from '#app/routes/embed.calendar.tsx'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { zipCentroids, type Business } from '#db/schema.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'
import { calendarEntries } from '#tests/support/icalendar.ts'

const today = platformToday()
const day = (n: number) => addDaysIso(today, n)

// Made-up ZIPs: the business's, about 30 miles from the other address's, which is next to the origin.
const HOME_ZIP = '00101'
const PIER_ZIP = '00102'
const ORIGIN_ZIP = '00103'
let owner: Business

beforeAll(async () => {
  await db.insert(zipCentroids).values([
    { zip: HOME_ZIP, latitude: 40, longitude: -90 },
    { zip: PIER_ZIP, latitude: 40.44, longitude: -90 },
    { zip: ORIGIN_ZIP, latitude: 40.45, longitude: -90 },
  ])
  owner = await insertBusiness(db, { businessName: 'Facts Hall', businessZip: HOME_ZIP })
  const live = (eventTitle: string, runsOn: number, facts: Parameters<typeof insertTestEvent>[1]) =>
    insertTestEvent(owner, { eventTitle, showAdOnDates: [day(runsOn)], ...facts })
  await live('Free jazz', 1, { priceCents: 0, category: ['Music'], eventDescription: 'Jazz trio.' })
  await live('Paid jazz', 2, { priceCents: 1500, category: ['Music'], eventDescription: 'Jazz quartet.' })
  await live('Online talk', 3, { priceCents: 0, attendanceMode: 'online', onlineUrl: 'https://s.example/t' })
  await live('Hybrid market', 4, {
    attendanceMode: 'mixed',
    onlineUrl: 'https://s.example/m',
    accessibilityFeatures: ['step_free', 'captions'],
  })
  await live('Pier dance', 5, {
    priceCents: 0,
    accessibilityFeatures: ['step_free'],
    venueAddress: '1 Pier Rd',
    venueZip: PIER_ZIP,
    category: ['Music'],
  })
  // Not live: never listed, whatever its facts.
  await insertTestEvent(owner, {
    eventTitle: 'Unpaid free',
    showAdOnDates: [day(1)],
    priceCents: 0,
    paymentStatus: 'pending',
  })
})

beforeEach(() => invalidateLiveEvents())

const filtersOf = (query: string) => normalizeCalendarFilters(new URLSearchParams(query)).filters

async function titles(query: string, strategy?: ListingStrategy) {
  const rows = await listLiveEvents(filtersOf(query), { today, limit: 100 }, strategy)
  return rows.map((r) => r.eventTitle)
}

describe('the practical facts filter the listing', () => {
  test.each([
    ['free=1', ['Free jazz', 'Online talk', 'Pier dance']],
    ['online=1', ['Online talk', 'Hybrid market']],
    ['access=step_free', ['Hybrid market', 'Pier dance']],
    ['access=step_free&access=captions', ['Hybrid market']],
    ['access=step_free,captions', ['Hybrid market']],
    ['free=1&access=step_free', ['Pier dance']],
    ['free=1&online=1', ['Online talk']],
    ['free=1&keyword=jazz', ['Free jazz']],
    ['free=1&category=Music', ['Free jazz', 'Pier dance']],
    [`free=1&zip=${HOME_ZIP}`, ['Free jazz', 'Online talk', 'Pier dance']],
    [`free=1&from=${day(2)}&to=${day(4)}`, ['Online talk']],
    ['free=0&online=0', ['Free jazz', 'Paid jazz', 'Online talk', 'Hybrid market', 'Pier dance']],
  ])('%s, both ways of finding the page and the count', async (query, expected) => {
    expect(await titles(query, 'walk')).toEqual(expected)
    expect(await titles(query, 'candidates')).toEqual(expected)
    expect(await countLiveEvents(filtersOf(query), { today })).toBe(expected.length)
  })

  test('an ad at another address is near that address, not its business', async () => {
    expect(await titles(`near=${ORIGIN_ZIP}&radius=5`)).toEqual(['Pier dance'])
    expect(await titles(`near=${ORIGIN_ZIP}&radius=5&free=1&access=step_free`)).toEqual(['Pier dance'])
    expect(await titles(`near=${HOME_ZIP}&radius=5&free=1`)).toEqual(['Free jazz', 'Online talk'])
  })

  test('the month view lists only the matches', async () => {
    const days = await listEventsByDay(filtersOf('access=step_free'), {
      today,
      from: today,
      to: day(30),
      perDay: 3,
    })
    expect(days.flatMap((d) => d.events.map((e) => e.eventTitle))).toEqual(['Hybrid market', 'Pier dance'])
  })
})

describe('the filters in every public listing', () => {
  test('the calendar page (list and month), in the query string, with its active filters', async () => {
    const response = await callRoute(calendarLoader, '/calendar?free=1&access=step_free')
    const page = (await response.json()) as {
      total: number
      events: EventTileData[]
      activeFilters: Array<{ label: string }>
    }
    expect(page.total).toBe(1)
    expect(page.events.map((e) => e.eventTitle)).toEqual(['Pier dance'])
    expect(page.events[0]!.facts).toEqual({
      priceCents: 0,
      attendanceMode: 'in_person',
      accessibilityFeatures: ['step_free'],
    })
    const month = await callRoute(calendarLoader, `/calendar?view=month&month=${day(4).slice(0, 7)}&online=1`)
    expect(month.status).toBe(200)
    expect(JSON.stringify(await month.json())).not.toContain('Free jazz')
  })

  test('the feeds, the API and the embed', async () => {
    const ics = await callRoute(icsLoader, '/calendar.ics?online=1')
    const entries = calendarEntries(await ics.text())
    expect(entries.map((e) => e.summary).sort()).toEqual(['Hybrid market', 'Online talk'])
    const rss = await (await callRoute(rssLoader, '/calendar.rss?free=1&category=Music')).text()
    expect(rss).toContain('<title>Free jazz')
    expect(rss).not.toContain('Paid jazz')
    const api = await callRoute(apiActiveLoader, '/api/events/active?access=step_free')
    expect(api.headers.get('X-Total-Count')).toBe('2')
    const listed = (await api.json()) as Array<{ eventTitle: string; accessibilityFeatures: string[] }>
    expect(listed.map((e) => e.eventTitle)).toEqual(['Hybrid market', 'Pier dance'])
    const embed = await callRoute(embedLoader, '/embed/calendar?free=1&online=1')
    expect(JSON.stringify(await embed.json())).toContain('Online talk')
  })

  test.each([
    ['access=teleporter', 'access: "teleporter" is not one of'],
    ['free=maybe', 'free must be 1 or 0'],
    ['online=2', 'online must be 1 or 0'],
  ])('a bad fact filter %s is a 400 naming it', async (query, reason) => {
    for (const [loader, path] of [
      [icsLoader, '/calendar.ics'],
      [rssLoader, '/calendar.rss'],
      [apiActiveLoader, '/api/events/active'],
      [embedLoader, '/embed/calendar'],
    ] as const) {
      const response = await callRoute(loader, `${path}?${query}`)
      expect(response.status, path).toBe(400)
      expect(((await response.json()) as { message: string }).message, path).toContain(reason)
    }
  })

  test('the calendar page ignores an unknown accessibility fact with a notice', async () => {
    const response = await callRoute(calendarLoader, '/calendar?access=teleporter&free=1')
    const page = (await response.json()) as { total: number; notices: string[] }
    expect(page.total).toBe(3)
    expect(page.notices.join(' ')).toContain('Accessibility')
  })
})
