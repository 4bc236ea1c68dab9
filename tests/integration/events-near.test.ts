import { eq } from 'drizzle-orm'
import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { normalizeCalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import type { EventTileData } from '#app/models/ads/event-tile.ts'
import { invalidateLiveEvents } from '#app/models/calendar/live-events-cache.server.ts'
import {
  countLiveEvents,
  countLiveEventsQuery,
  listLiveEvents,
  listedEventsPageQuery,
  type ListingStrategy,
} from '#app/models/calendar/calendar-listing.server.ts'
import { eventsByDayQueries, listEventsByDay } from '#app/models/calendar/calendar-month-grid.server.ts'
import { loader as apiActiveLoader } from '#app/routes/api.events.active.ts'
import { loader as calendarLoader } from '#app/routes/calendar.tsx'
import { loader as icsLoader } from '#app/routes/calendar[.]ics.ts'
import { loader as rssLoader } from '#app/routes/calendar[.]rss.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { PLANNED_WITH_VALUES } from '#db/pglite-prepared.js'
import { business, zipCentroids, type Business } from '#db/schema.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'
import { calendarEntries } from '#tests/support/icalendar.ts'

const today = platformToday()
const day = (n: number) => addDaysIso(today, n)

/**
 * Made-up ZIPs (none is a real ZIP area) at known distances from a centre, so the edge of the radius can be tested
 * to a few hundredths of a mile: the point `miles` away from (40, -90) in the direction `bearing` (degrees).
 */
const CENTRE = { latitude: 40, longitude: -90 }
const R = 3958.8
function pointAt(miles: number, bearing: number) {
  const d = miles / R
  const t = (bearing * Math.PI) / 180
  const la1 = (CENTRE.latitude * Math.PI) / 180
  const lo1 = (CENTRE.longitude * Math.PI) / 180
  const la2 = Math.asin(Math.sin(la1) * Math.cos(d) + Math.cos(la1) * Math.sin(d) * Math.cos(t))
  const lo2 =
    lo1 + Math.atan2(Math.sin(t) * Math.sin(d) * Math.cos(la1), Math.cos(d) - Math.sin(la1) * Math.sin(la2))
  return { latitude: (la2 * 180) / Math.PI, longitude: (lo2 * 180) / Math.PI }
}

// name: [ZIP, miles, bearing, category, the day its ad runs]
const PLACES = {
  'Next Door': ['00002', 2, 200, 'Concert', 9],
  'East Inside': ['00003', 9.97, 90, 'Family', 3],
  'North Inside': ['00004', 9.98, 0, 'Concert', 4],
  'North Outside': ['00005', 10.02, 0, 'Concert', 1],
  'East Outside': ['00006', 10.03, 90, 'Family', 2],
  'Far Away': ['00007', 40, 300, 'Concert', 5],
  // Inside the bounding box, outside the circle: only the exact distance leaves it out.
  'Corner Outside': ['00008', 10.5, 45, 'Family', 6],
} as const
const ORIGIN_ZIP = '00001'
const owners: Record<string, Business> = {}

beforeAll(async () => {
  await db
    .insert(zipCentroids)
    .values([
      { zip: ORIGIN_ZIP, ...CENTRE },
      ...Object.values(PLACES).map(([zip, miles, bearing]) => ({ zip, ...pointAt(miles, bearing) })),
    ])
  for (const [name, [zip, , , category, runsOn]] of Object.entries(PLACES)) {
    owners[name] = await insertBusiness(db, { businessName: name, businessZip: zip })
    await insertTestEvent(owners[name], {
      eventTitle: name,
      category: [category],
      showAdOnDates: [day(runsOn)],
    })
  }
})

beforeEach(() => invalidateLiveEvents())

const filtersOf = (query: string) => normalizeCalendarFilters(new URLSearchParams(query)).filters

async function titles(query: string, strategy?: ListingStrategy) {
  const rows = await listLiveEvents(filtersOf(query), { today, limit: 100 }, strategy)
  return rows.map((r) => r.eventTitle)
}

describe('the distance filter in the listing query', () => {
  test.each(['walk', 'candidates'] as const)(
    'within 10 miles: just inside the edge is in, just outside is out (%s)',
    async (strategy) => {
      expect(await titles(`near=${ORIGIN_ZIP}&radius=10`, strategy)).toEqual([
        'East Inside',
        'North Inside',
        'Next Door',
      ])
      expect(await countLiveEvents(filtersOf(`near=${ORIGIN_ZIP}&radius=10`), { today })).toBe(3)
    },
  )

  test('each radius', async () => {
    expect(await titles(`near=${ORIGIN_ZIP}&radius=5`)).toEqual(['Next Door'])
    expect(await titles(`near=${ORIGIN_ZIP}&radius=25`)).toHaveLength(6)
    expect(await titles(`near=${ORIGIN_ZIP}&radius=50`)).toHaveLength(7)
    // Without a radius, 10 miles.
    expect(await titles(`near=${ORIGIN_ZIP}`)).toHaveLength(3)
  })

  test.each(['walk', 'candidates'] as const)('nearest first, then soonest (%s)', async (strategy) => {
    expect(await titles(`near=${ORIGIN_ZIP}&radius=50&sort=nearest`, strategy)).toEqual([
      'Next Door',
      'East Inside',
      'North Inside',
      'North Outside',
      'East Outside',
      'Corner Outside',
      'Far Away',
    ])
  })

  test('combined with a category and a date window', async () => {
    expect(await titles(`near=${ORIGIN_ZIP}&radius=10&category=Concert`)).toEqual([
      'North Inside',
      'Next Door',
    ])
    expect(
      await titles(`near=${ORIGIN_ZIP}&radius=50&category=Concert&sort=nearest&from=${day(1)}&to=${day(5)}`),
    ).toEqual(['North Inside', 'North Outside', 'Far Away'])
  })

  test('every statement with a ZIP or a place is planned with its values, and only those', () => {
    const statements = (query: string) => {
      const filters = filtersOf(query)
      const window = { today, limit: 24 }
      return [
        countLiveEventsQuery(filters, { today }),
        listedEventsPageQuery(filters, window, 'walk'),
        listedEventsPageQuery(filters, window, 'candidates'),
        ...eventsByDayQueries(filters, { today, from: today, to: day(30), perDay: 3 }).map(([, q]) => q),
      ].map((statement) => statement.toSQL().sql)
    }
    for (const query of [`near=${ORIGIN_ZIP}&radius=50`, 'zip=8', 'zip=80&keyword=jazz&category=Concert'])
      for (const text of statements(query)) expect(text, query).toContain(PLANNED_WITH_VALUES)
    for (const query of ['category=Concert', 'keyword=jazz', `from=${day(1)}&to=${day(5)}`, 'free=1'])
      for (const text of statements(query)) expect(text, query).not.toContain(PLANNED_WITH_VALUES)
  })

  test('the month view lists only the events near the ZIP', async () => {
    const days = await listEventsByDay(filtersOf(`near=${ORIGIN_ZIP}&radius=10`), {
      today,
      from: today,
      to: day(30),
      perDay: 3,
    })
    expect(days.flatMap((d) => d.events.map((e) => e.eventTitle))).toEqual([
      'East Inside',
      'North Inside',
      'Next Door',
    ])
  })

  test('a business whose ZIP changes moves with it', async () => {
    const far = owners['Far Away']!
    try {
      await db.update(business).set({ businessZip: '00002' }).where(eq(business.businessID, far.businessID))
      expect(await titles(`near=${ORIGIN_ZIP}&radius=5`)).toEqual(['Far Away', 'Next Door'])
    } finally {
      await db.update(business).set({ businessZip: '00007' }).where(eq(business.businessID, far.businessID))
    }
    expect(await titles(`near=${ORIGIN_ZIP}&radius=5`)).toEqual(['Next Door'])
  })
})

describe('GET /calendar', () => {
  async function calendar(query: string) {
    const response = await callRoute(calendarLoader, `/calendar?${query}`)
    expect(response.status).toBe(200)
    return (await response.json()) as { total: number; events: EventTileData[]; notices: string[] }
  }

  test('near a ZIP, nearest first, with a category', async () => {
    const page = await calendar(`near=${ORIGIN_ZIP}&radius=25&sort=nearest&category=Family`)
    expect(page.events.map((e) => e.eventTitle)).toEqual(['East Inside', 'East Outside', 'Corner Outside'])
    expect(page.total).toBe(3)
    expect(page.notices).toEqual([])
  })

  test('an unknown ZIP and a bad radius are said on the page', async () => {
    const unknown = await calendar('near=99999')
    expect(unknown.notices).toEqual([
      'Near: "99999" is not a US ZIP code we know, so no events can be found near it. Check the ZIP code.',
    ])
    expect(unknown.total).toBe(0)
    const badRadius = await calendar(`near=${ORIGIN_ZIP}&radius=7`)
    expect(badRadius.notices).toEqual(['Within: 5, 10, 25 or 50 miles can be chosen, so 10 miles was used.'])
    expect(badRadius.total).toBe(3)
  })
})

describe('the feeds and the API', () => {
  const summaries = (text: string) => calendarEntries(text).map((entry) => entry.summary)

  test('/calendar.ics and /calendar.rss filter by distance with the other filters', async () => {
    const ics = await callRoute(icsLoader, `/calendar.ics?near=${ORIGIN_ZIP}&radius=10&category=Concert`)
    expect(ics.status).toBe(200)
    expect(summaries(await ics.text()).sort()).toEqual(['Next Door', 'North Inside'])
    const rss = await callRoute(
      rssLoader,
      `/calendar.rss?near=${ORIGIN_ZIP}&radius=50&sort=nearest&category=Family`,
    )
    const items = [...(await rss.text()).matchAll(/<item><title>([^<(]+) \(/g)].map((m) => m[1])
    expect(items).toEqual(['East Inside', 'East Outside', 'Corner Outside'])
  })

  test('/api/events/active filters by distance, nearest first', async () => {
    const response = await callRoute(
      apiActiveLoader,
      `/api/events/active?near=${ORIGIN_ZIP}&radius=10&sort=nearest`,
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('X-Total-Count')).toBe('3')
    expect(((await response.json()) as Array<{ eventTitle: string }>).map((e) => e.eventTitle)).toEqual([
      'Next Door',
      'East Inside',
      'North Inside',
    ])
  })

  test.each([
    ['near=99999', 'Near: "99999" is not a US ZIP code we know'],
    [`near=${ORIGIN_ZIP}&radius=7`, 'radius must be 5, 10, 25 or 50 (miles)'],
    ['near=not-a-zip', 'near: "not-a-zip" is not a ZIP code (5 digits)'],
  ])('%s is a 400 with the reason from the feeds and the API', async (query, reason) => {
    for (const [loader, path] of [
      [icsLoader, '/calendar.ics'],
      [rssLoader, '/calendar.rss'],
      [apiActiveLoader, '/api/events/active'],
    ] as const) {
      const response = await callRoute(loader, `${path}?${query}`)
      expect(response.status, path).toBe(400)
      expect(((await response.json()) as { message: string }).message, path).toContain(reason)
    }
  })
})
