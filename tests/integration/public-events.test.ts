import { sql } from 'drizzle-orm'
import { beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { OPEN_ENDED_DATE_LIMIT } from '#app/constants.ts'
import { normalizeCalendarFilters, type CalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import { invalidateLiveEvents } from '#app/models/calendar/live-events-cache.server.ts'
import { loadCalendarListing } from '#app/models/calendar/cached-listing.server.ts'
import { countLiveEvents, listLiveEvents } from '#app/models/calendar/calendar-listing.server.ts'
import { loader as apiEventsLoader } from '#app/routes/api.events._index.ts'
import { loader as apiActiveLoader } from '#app/routes/api.events.active.ts'
import { loader as apiPublicLoader } from '#app/routes/api.public-events.ts'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { CalendarResults, foundEventsText, NO_EVENTS_FOUND_TEXT } from '#app/components/calendar-results.tsx'
import { calendarHref } from '#app/models/calendar/calendar-links.ts'
import type { EventTileData } from '#app/models/ads/event-tile.ts'
import { loader as calendarLoader } from '#app/routes/calendar.tsx'
import { loader as publicLoader } from '#app/routes/public.tsx'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { categoryList, events, type Business } from '#db/schema.ts'
import { insertUser } from '#db/factories.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { expectConsoleError } from '#tests/support/fail-on-console-error.ts'
import { callRoute } from '#tests/support/routes.ts'

const today = platformToday()
const day = (n: number) => addDaysIso(today, n)

const filtersOf = (query: string): CalendarFilters =>
  normalizeCalendarFilters(new URLSearchParams(query)).filters

async function titles(query: string, { limit = 100, offset = 0 } = {}) {
  const rows = await listLiveEvents(filtersOf(query), { today, limit, offset })
  return rows.map((r) => r.eventTitle)
}

async function count(query: string) {
  return countLiveEvents(filtersOf(query), { today })
}

/** The list and the count agree for every filter combination checked. */
async function expectMatches(query: string, expected: string[]) {
  expect(new Set(await titles(query))).toEqual(new Set(expected))
  expect(await count(query)).toBe(expected.length)
}

let springfield: Business
let shelbyville: Business

beforeAll(async () => {
  springfield = await insertBusiness(db, { businessName: 'Springfield Hall', businessZip: '62704' })
  shelbyville = await insertBusiness(db, { businessName: 'Shelbyville Barn', businessZip: '90210-1234' })
  await db
    .insert(categoryList)
    .values([{ categoryName: 'Concert' }, { categoryName: 'Family' }])
    .onConflictDoNothing()
})

beforeEach(async () => {
  await db.delete(events)
  invalidateLiveEvents()
})

describe('what is live', () => {
  test('approved + paid + a date today or later; past, unpaid, unapproved and rejected are not', async () => {
    await insertTestEvent(springfield, { eventTitle: 'Live', showAdOnDates: [day(3)] })
    await insertTestEvent(springfield, { eventTitle: 'Ends today', showAdOnDates: [day(-2), today] })
    await insertTestEvent(springfield, { eventTitle: 'Ended yesterday', showAdOnDates: [day(-3), day(-1)] })
    await insertTestEvent(springfield, {
      eventTitle: 'Unpaid',
      showAdOnDates: [day(3)],
      paymentStatus: 'pending',
    })
    await insertTestEvent(springfield, {
      eventTitle: 'Unapproved',
      showAdOnDates: [day(3)],
      eventStatus: 'pending',
    })
    await insertTestEvent(springfield, {
      eventTitle: 'Rejected',
      showAdOnDates: [day(3)],
      eventStatus: 'rejected',
    })
    await insertTestEvent(springfield, {
      eventTitle: 'Refunded',
      showAdOnDates: [day(3)],
      paymentStatus: 'refunded',
    })
    await insertTestEvent(springfield, { eventTitle: 'No dates', showAdOnDates: [] })
    await insertTestEvent(springfield, { eventTitle: 'Event date only', eventDate: day(1) })
    await expectMatches('', ['Live', 'Ends today', 'Event date only'])
  })

  test('soonest upcoming date first, then id; dates already past do not count', async () => {
    const started = await insertTestEvent(springfield, {
      eventTitle: 'Started, next in 5',
      showAdOnDates: [day(-3), day(5)],
    })
    const b = await insertTestEvent(springfield, {
      eventTitle: 'In 2 (first)',
      showAdOnDates: [day(9), day(2)],
    })
    const c = await insertTestEvent(springfield, {
      eventTitle: 'Event date tomorrow',
      eventDate: day(1),
      showAdOnDates: [day(8)],
    })
    const d = await insertTestEvent(springfield, { eventTitle: 'In 2 (second)', showAdOnDates: [day(2)] })
    const rows = await listLiveEvents(filtersOf(''), { today, limit: 10 })
    expect(rows.map((r) => r.eventID)).toEqual([c.eventID, b.eventID, d.eventID, started.eventID])
    expect(rows.map((r) => r.nextShowDate)).toEqual([day(1), day(2), day(2), day(5)])
  })

  test('limit and offset page through the same order', async () => {
    for (let i = 0; i < 7; i++)
      await insertTestEvent(springfield, { eventTitle: `E${i}`, showAdOnDates: [day(i + 1)] })
    expect(await titles('', { limit: 3 })).toEqual(['E0', 'E1', 'E2'])
    expect(await titles('', { limit: 3, offset: 3 })).toEqual(['E3', 'E4', 'E5'])
    expect(await titles('', { limit: 3, offset: 6 })).toEqual(['E6'])
  })

  test('rows carry the business details the cards show, and no provider or staff fields', async () => {
    await insertTestEvent(springfield, { showAdOnDates: [day(1)], payment_intent_id: 'pi_secret' })
    const [row] = await listLiveEvents(filtersOf(''), { today, limit: 1 })
    expect(row).toMatchObject({ businessZip: '62704', businessCity: 'Springfield', stillPhotoPath: '' })
    expect(row).not.toHaveProperty('payment_intent_id')
    expect(row).not.toHaveProperty('reviewedByUserId')
  })
})

describe('category', () => {
  beforeEach(async () => {
    await insertTestEvent(springfield, {
      eventTitle: 'Jazz',
      category: ['Concert', 'Nightlife'],
      showAdOnDates: [day(1)],
    })
    await insertTestEvent(springfield, {
      eventTitle: 'Picnic',
      category: ['Family'],
      showAdOnDates: [day(1)],
    })
    await insertTestEvent(springfield, {
      eventTitle: 'Food',
      category: ['Food & Drink', 'Family'],
      showAdOnDates: [day(1)],
    })
  })

  test('an event with several categories matches if any does', async () => {
    await expectMatches('category=Nightlife', ['Jazz'])
    await expectMatches('category=Family', ['Picnic', 'Food'])
    await expectMatches('category=Food+%26+Drink', ['Food'])
  })

  test('All (or nothing) is no filter; an unknown category matches nothing', async () => {
    await expectMatches('category=All', ['Jazz', 'Picnic', 'Food'])
    await expectMatches('category=', ['Jazz', 'Picnic', 'Food'])
    await expectMatches('category=Sports', [])
  })

  test('category names match exactly (not as a substring or case-insensitively)', async () => {
    await expectMatches('category=Fam', [])
    await expectMatches('category=family', [])
  })
})

describe('ZIP', () => {
  beforeEach(async () => {
    await insertTestEvent(springfield, { eventTitle: 'Springfield', showAdOnDates: [day(1)] })
    await insertTestEvent(shelbyville, { eventTitle: 'Shelbyville', showAdOnDates: [day(1)] })
  })

  test('matches when the business ZIP contains the typed text', async () => {
    await expectMatches('zip=62704', ['Springfield'])
    await expectMatches('zip=627', ['Springfield'])
    await expectMatches('zip=704', ['Springfield'])
    await expectMatches('zip=0-12', ['Shelbyville'])
    await expectMatches('zip=2', ['Springfield', 'Shelbyville'])
    await expectMatches('zip=11111', [])
  })

  test('% and _ are literal characters, not wildcards', async () => {
    await expectMatches('zip=%25', [])
    await expectMatches('zip=_', [])
    await expectMatches('zip=6_7', [])
  })
})

describe('keyword', () => {
  beforeEach(async () => {
    await insertTestEvent(springfield, {
      eventTitle: 'Jazz',
      eventDescription: 'Live JAZZ standards all night.',
      showAdOnDates: [day(1)],
    })
    await insertTestEvent(springfield, {
      eventTitle: 'Sale',
      eventDescription: 'Everything 50% off, save_more.',
      showAdOnDates: [day(1)],
    })
    await insertTestEvent(springfield, {
      eventTitle: 'Jazzercise in the title only',
      eventDescription: 'Morning workout.',
      showAdOnDates: [day(1)],
    })
  })

  test('a case-insensitive substring of the description', async () => {
    await expectMatches('keyword=jazz', ['Jazz'])
    await expectMatches('keyword=Jazz+Standards', ['Jazz'])
    await expectMatches('keyword=AZZ', ['Jazz'])
    await expectMatches('keyword=+standards+', ['Jazz'])
    await expectMatches('keyword=polka', [])
  })

  test('% and _ match only themselves', async () => {
    await expectMatches('keyword=50%25', ['Sale'])
    await expectMatches('keyword=%25', ['Sale'])
    await expectMatches('keyword=_', ['Sale'])
    await expectMatches('keyword=l_ve', [])
  })
})

describe('dates', () => {
  test('any date inside the window matches, both ends inclusive; a gap between dates does not', async () => {
    await insertTestEvent(springfield, { eventTitle: 'Gap', showAdOnDates: [day(1), day(10)] })
    await expectMatches(`from=${day(2)}&to=${day(9)}`, [])
    await expectMatches(`from=${day(10)}&to=${day(10)}`, ['Gap'])
    await expectMatches(`from=${day(1)}&to=${day(1)}`, ['Gap'])
    await expectMatches(`from=${day(-5)}&to=${day(1)}`, ['Gap'])
    await expectMatches(`from=${day(11)}&to=${day(20)}`, [])
  })

  test('a window from a later day lists each event at its first date inside it, and its card shows that date', async () => {
    const returning = await insertTestEvent(springfield, {
      eventTitle: 'Tomorrow and in 10',
      showAdOnDates: [day(1), day(10)],
    })
    const inSix = await insertTestEvent(springfield, { eventTitle: 'In 6', showAdOnDates: [day(6)] })
    const fromFive = await insertTestEvent(springfield, {
      eventTitle: 'In 5 and 20',
      showAdOnDates: [day(5), day(20)],
    })
    // Its ad runs on day 7; the event itself is on day 9, which its card shows.
    const ownDate = await insertTestEvent(springfield, {
      eventTitle: 'On 9, ad on 7',
      showAdOnDates: [day(7)],
      eventDate: day(9),
    })
    const query = `from=${day(5)}&to=${day(12)}`
    for (const strategy of ['walk', 'candidates'] as const) {
      const rows = await listLiveEvents(filtersOf(query), { today, limit: 10 }, strategy)
      expect(
        rows.map((r) => r.eventID),
        strategy,
      ).toEqual([fromFive.eventID, inSix.eventID, ownDate.eventID, returning.eventID])
      expect(
        rows.map((r) => r.nextShowDate),
        strategy,
      ).toEqual([day(5), day(6), day(7), day(10)])
    }
    invalidateLiveEvents()
    const response = await callRoute(calendarLoader, `/calendar?${query}`)
    const page = (await response.json()) as { events: EventTileData[] }
    expect(page.events.map((tile) => [tile.eventTitle, tile.date])).toEqual([
      ['In 5 and 20', day(5)],
      ['In 6', day(6)],
      ['On 9, ad on 7', day(9)],
      ['Tomorrow and in 10', day(10)],
    ])
    // Without a window, or with one from before today, the order is by the next date from today.
    expect(await titles('')).toEqual(['Tomorrow and in 10', 'In 5 and 20', 'In 6', 'On 9, ad on 7'])
    expect(await titles(`from=${day(-1)}&to=${day(12)}`)).toEqual([
      'Tomorrow and in 10',
      'In 5 and 20',
      'In 6',
      'On 9, ad on 7',
    ])
  })

  test('From after To is swapped', async () => {
    await insertTestEvent(springfield, { eventTitle: 'Day 5', showAdOnDates: [day(5)] })
    await expectMatches(`from=${day(6)}&to=${day(4)}`, ['Day 5'])
  })

  test('a missing From is open-ended (past dates of a live event count)', async () => {
    await insertTestEvent(springfield, { eventTitle: 'Started', showAdOnDates: [day(-5), day(30)] })
    await insertTestEvent(springfield, { eventTitle: 'Later', showAdOnDates: [day(20)] })
    await expectMatches(`to=${day(-5)}`, ['Started'])
    await expectMatches(`to=${day(19)}`, ['Started'])
    await expectMatches(`to=${day(20)}`, ['Started', 'Later'])
  })

  test(`a missing To is open-ended up to ${OPEN_ENDED_DATE_LIMIT}`, async () => {
    await insertTestEvent(springfield, { eventTitle: 'Last day', showAdOnDates: [OPEN_ENDED_DATE_LIMIT] })
    await insertTestEvent(springfield, { eventTitle: 'After the limit', showAdOnDates: ['2101-01-01'] })
    await insertTestEvent(springfield, { eventTitle: 'Soon', showAdOnDates: [day(1)] })
    await expectMatches(`from=${day(2)}`, ['Last day'])
    await expectMatches('from=2100-12-31', ['Last day'])
    await expectMatches('', ['Last day', 'After the limit', 'Soon'])
  })

  test('an open-ended From matches by the dates up to the limit, not by the last date alone', async () => {
    await insertTestEvent(springfield, {
      eventTitle: 'Now and far later',
      showAdOnDates: [day(1), '2101-01-01'],
    })
    await insertTestEvent(springfield, { eventTitle: 'Now and next month', showAdOnDates: [day(1), day(30)] })
    await expectMatches(`from=${day(2)}`, ['Now and next month'])
    await expectMatches(`from=${day(2)}&category=Concert`, [])
    await expectMatches(`to=${day(1)}`, ['Now and far later', 'Now and next month'])
  })

  test('an event with several dates in a window is counted once, with or without other filters', async () => {
    await insertTestEvent(springfield, {
      eventTitle: 'Every day',
      category: ['Concert'],
      showAdOnDates: [day(3), day(4), day(5), day(6)],
    })
    await insertTestEvent(springfield, { eventTitle: 'Before and after', showAdOnDates: [day(1), day(9)] })
    await expectMatches(`from=${day(4)}&to=${day(6)}`, ['Every day'])
    await expectMatches(`from=${day(2)}&to=${day(9)}`, ['Every day', 'Before and after'])
    await expectMatches(`from=${day(2)}&to=${day(8)}&category=Concert`, ['Every day'])
  })

  test('the event date counts as one of the dates; the 1989-01-01 marker does not', async () => {
    await insertTestEvent(springfield, {
      eventTitle: 'Event date',
      eventDate: day(3),
      showAdOnDates: [day(10)],
    })
    await insertTestEvent(springfield, {
      eventTitle: 'Unset',
      eventDate: '1989-01-01',
      showAdOnDates: [day(10)],
    })
    await expectMatches(`from=${day(3)}&to=${day(3)}`, ['Event date'])
    await expectMatches('from=1989-01-01&to=1989-01-01', [])
    await expectMatches('to=1989-12-31', [])
  })

  test('an event with no dates never matches a date filter', async () => {
    await insertTestEvent(springfield, { eventTitle: 'Dated', showAdOnDates: [day(1)] })
    await insertTestEvent(springfield, { eventTitle: 'No dates' })
    await expectMatches(`from=${day(-400)}`, ['Dated'])
    await expectMatches(`to=${OPEN_ENDED_DATE_LIMIT}`, ['Dated'])
  })

  test('all filters combine with AND', async () => {
    await insertTestEvent(springfield, {
      eventTitle: 'All match',
      category: ['Concert'],
      eventDescription: 'Brass band',
      showAdOnDates: [day(4)],
    })
    await insertTestEvent(springfield, {
      eventTitle: 'Wrong day',
      category: ['Concert'],
      eventDescription: 'Brass band',
      showAdOnDates: [day(9)],
    })
    await insertTestEvent(shelbyville, {
      eventTitle: 'Wrong zip',
      category: ['Concert'],
      eventDescription: 'Brass band',
      showAdOnDates: [day(4)],
    })
    await insertTestEvent(springfield, {
      eventTitle: 'Wrong words',
      category: ['Concert'],
      eventDescription: 'Strings',
      showAdOnDates: [day(4)],
    })
    await insertTestEvent(springfield, {
      eventTitle: 'Wrong category',
      category: ['Family'],
      eventDescription: 'Brass band',
      showAdOnDates: [day(4)],
    })
    await expectMatches(`category=Concert&zip=627&keyword=brass&from=${day(3)}&to=${day(5)}`, ['All match'])
  })
})

describe('the calendar listing', () => {
  test('featured = the first 10 matches; the total counts every match; pages follow the same order', async () => {
    for (let i = 0; i < 13; i++) {
      await insertTestEvent(springfield, {
        eventTitle: `Match ${String(i).padStart(2, '0')}`,
        showAdOnDates: [day(i)],
      })
    }
    await insertTestEvent(springfield, { eventTitle: 'Other', category: ['Family'], showAdOnDates: [day(0)] })
    const filters = filtersOf('category=Community')
    const first = await loadCalendarListing(filters, { today, page: 1, pageSize: 5 })
    expect(first.total).toBe(13)
    expect(first.pageCount).toBe(3)
    expect(first.featured.map((e) => e.eventTitle)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Match ${String(i).padStart(2, '0')}`),
    )
    expect(first.events.map((e) => e.eventTitle)).toEqual([
      'Match 00',
      'Match 01',
      'Match 02',
      'Match 03',
      'Match 04',
    ])
    const third = await loadCalendarListing(filters, { today, page: 3, pageSize: 5 })
    expect(third.events.map((e) => e.eventTitle)).toEqual(['Match 10', 'Match 11', 'Match 12'])
    expect(third.featured).toEqual(first.featured)
    const beyond = await loadCalendarListing(filters, { today, page: 9, pageSize: 5 })
    expect(beyond.events).toEqual([])
    expect(beyond.total).toBe(13)
  })

  test('fewer than 10 matches: all of them are featured', async () => {
    await insertTestEvent(springfield, { eventTitle: 'Only', showAdOnDates: [day(1)] })
    const listing = await loadCalendarListing(filtersOf(''), { today, page: 1 })
    expect(listing.featured.map((e) => e.eventTitle)).toEqual(['Only'])
  })
})

describe('GET /calendar', () => {
  async function getCalendar(query = '') {
    const response = await callRoute(calendarLoader, `/calendar${query}`)
    expect(response.status).toBe(200)
    return (await response.json()) as {
      total: number
      featured: EventTileData[]
      events: EventTileData[]
      page: number
      pageCount: number
      notices: string[]
      categories: string[]
      filters: CalendarFilters
    }
  }

  /** The results section as the page renders it from the loader's data. */
  function resultsHtml(page: Awaited<ReturnType<typeof getCalendar>>) {
    return renderToStaticMarkup(
      createElement(CalendarResults, {
        featured: page.featured,
        events: page.events,
        page: page.page,
        pageCount: page.pageCount,
        pageHref: (p: number) => calendarHref(page.filters, p),
      }),
    )
  }
  const ids = (tiles: EventTileData[]) => tiles.map((e) => e.eventID)

  test('count, featured strip and grid for the filters in the query string', async () => {
    const jazz = await insertTestEvent(springfield, {
      eventTitle: 'Jazz <Night>',
      category: ['Concert'],
      showAdOnDates: [day(2)],
    })
    await insertTestEvent(springfield, {
      eventTitle: 'Picnic',
      category: ['Family'],
      showAdOnDates: [day(1)],
    })
    const page = await getCalendar('?category=Concert')
    expect(page.total).toBe(1)
    expect(foundEventsText(page.total)).toBe('We found 1 event(s) for you!')
    expect(ids(page.featured)).toEqual([jazz.eventID])
    expect(ids(page.events)).toEqual([jazz.eventID])
    const html = resultsHtml(page)
    expect(html).toContain('Featured Events')
    expect(html).toContain('Jazz &lt;Night&gt;')
    expect(html).not.toContain('Picnic')
    // Title, photo and 'View details' are links to the event's page, each pinging the click counter as it is followed.
    const links = [...html.matchAll(/<a href="([^"]+)" ping="([^"]+)"/g)].map((m) => [m[1], m[2]])
    expect(links.length).toBeGreaterThanOrEqual(3)
    expect(new Set(links.map(String))).toEqual(
      new Set([[`/event/${jazz.eventID}-jazz-night`, `/event/${jazz.eventID}/view`].join()]),
    )
    expect(html).toContain('View details')
    expect(page.categories).toEqual(expect.arrayContaining(['Concert', 'Family']))
  })

  test('no matches: the empty text and no featured strip', async () => {
    const page = await getCalendar('?keyword=nothing-like-this')
    expect(page.total).toBe(0)
    expect(resultsHtml(page)).toContain(NO_EVENTS_FOUND_TEXT)
    expect(resultsHtml(page)).not.toContain('Featured Events')
  })

  test('an invalid date is ignored with a notice', async () => {
    await insertTestEvent(springfield, { showAdOnDates: [day(1)] })
    const page = await getCalendar('?from=2026-02-31')
    expect(page.total).toBe(1)
    expect(page.filters.from).toBeNull()
    expect(page.notices).toEqual([expect.stringContaining('2026-02-31')])
  })

  test('a large result is paginated: 24 tiles per page, with a link to the next page', async () => {
    await db.insert(events).values(
      Array.from({ length: 30 }, (_, i) => ({
        businessID: springfield.businessID,
        eventTitle: `Bulk ${i}`,
        eventDescription: 'Bulk',
        showAdOnDates: [day(1)],
        firstShowDate: day(1),
        lastShowDate: day(1),
        paymentStatus: 'paid',
        eventStatus: 'approved',
      })),
    )
    const first = await getCalendar('?keyword=bulk')
    expect(first.total).toBe(30)
    expect(first.events).toHaveLength(24)
    expect(resultsHtml(first)).toContain('href="/calendar?keyword=bulk&amp;page=2"')
    const second = await getCalendar('?keyword=bulk&page=2')
    expect(second.events).toHaveLength(6)
    expect(ids(second.featured)).toEqual(ids(first.featured))
  })
})

describe('GET /public', () => {
  test('the live events', async () => {
    await insertTestEvent(springfield, { eventTitle: 'Public one', showAdOnDates: [day(1)] })
    await insertTestEvent(springfield, {
      eventTitle: 'Not paid',
      showAdOnDates: [day(1)],
      paymentStatus: 'pending',
    })
    const response = await callRoute(publicLoader, '/public')
    const body = (await response.json()) as { events: Array<{ eventTitle: string }>; error: string | null }
    expect(body.error).toBeNull()
    expect(body.events.map((e) => e.eventTitle)).toEqual(['Public one'])
  })

  test('none: an empty list (the page shows "No events available at this time")', async () => {
    const body = (await (await callRoute(publicLoader, '/public')).json()) as {
      events: unknown[]
      error: null
    }
    expect(body).toMatchObject({ events: [], error: null })
  })

  test('a failing query shows "Failed to load events" with a message', async () => {
    expectConsoleError()
    // A real failure of the queries: the tables they read (the count its own) are briefly not there.
    await db.execute(sql`ALTER TABLE events RENAME TO events_away`)
    await db.execute(sql`ALTER TABLE show_date_counts RENAME TO show_date_counts_away`)
    try {
      const response = await callRoute(publicLoader, '/public')
      expect(response.status).toBe(503)
      expect(await response.json()).toMatchObject({
        events: [],
        error: 'The events could not be loaded right now. Please try again in a moment.',
      })
      // Logged once, as the logger's JSON line.
      const lines = vi
        .mocked(console.error)
        .mock.calls.map((call) => JSON.parse(String(call[0])) as { msg: string })
      expect(lines.map((line) => line.msg)).toEqual(['Loading the public events failed'])
    } finally {
      await db.execute(sql`ALTER TABLE show_date_counts_away RENAME TO show_date_counts`)
      await db.execute(sql`ALTER TABLE events_away RENAME TO events`)
    }
  })
})

describe('public JSON calls', () => {
  beforeEach(async () => {
    await insertTestEvent(springfield, {
      eventTitle: 'Concert',
      category: ['Concert'],
      showAdOnDates: [day(1)],
    })
    await insertTestEvent(springfield, {
      eventTitle: 'Picnic',
      category: ['Family'],
      showAdOnDates: [day(2)],
    })
    await insertTestEvent(springfield, { eventTitle: 'Past', showAdOnDates: [day(-2)] })
  })

  test.each([
    ['GET /api/events', apiEventsLoader, '/api/events'],
    ['GET /api/events/active', apiActiveLoader, '/api/events/active'],
    ['GET /api/public-events', apiPublicLoader, '/api/public-events'],
  ])('%s lists the live events, soonest first', async (_name, loader, path) => {
    const response = await callRoute(loader, path)
    expect(response.status).toBe(200)
    expect(response.headers.get('X-Total-Count')).toBe('2')
    const body = (await response.json()) as Array<{ eventTitle: string; category: string[] }>
    expect(body.map((e) => e.eventTitle)).toEqual(['Concert', 'Picnic'])
  })

  test.each([
    ['GET /api/events', apiEventsLoader, '/api/events'],
    ['GET /api/events/active', apiActiveLoader, '/api/events/active'],
    ['GET /api/public-events', apiPublicLoader, '/api/public-events'],
  ])(
    '%s: visitors get the public fields; the owner (of its own ads) and administrators the rest',
    async (_name, loader, path) => {
      const admin = await insertUser(db, { roles: ['admin'] })
      await insertTestEvent(shelbyville, { eventTitle: 'Barn Dance', showAdOnDates: [day(3)] })
      const fields = async (cookie?: string) => {
        const response = await callRoute(loader, path, { headers: cookie ? { Cookie: cookie } : {} })
        expect(response.headers.get('Vary')).toMatch(/Cookie/)
        const rows = (await response.json()) as Array<Record<string, unknown>>
        return new Map(rows.map((row) => [row.eventTitle, row]))
      }
      const internals = [
        'totalCost',
        'daysOrdered',
        'paymentStatus',
        'approvedDateByBusiness',
        'approvedDateByAdmin',
      ]

      const anonymous = await fields()
      expect(anonymous.get('Concert')).toMatchObject({
        eventTitle: 'Concert',
        businessName: 'Springfield Hall',
        businessZip: '62704',
        category: ['Concert'],
        showAdOnDates: [day(1)],
      })
      for (const row of anonymous.values()) {
        for (const field of [...internals, 'businessID', 'eventStatus', 'createdDate']) {
          expect(row).not.toHaveProperty(field)
        }
      }

      const asShelbyville = await fields(await sessionCookieFor({ business: shelbyville }))
      expect(asShelbyville.get('Barn Dance')).toMatchObject({ totalCost: 29, paymentStatus: 'paid' })
      expect(asShelbyville.get('Concert')).not.toHaveProperty('totalCost')

      const asAdmin = await fields(await sessionCookieFor({ user: admin }))
      for (const row of asAdmin.values()) {
        for (const field of internals) expect(row).toHaveProperty(field)
      }
    },
  )

  test('the calendar filters apply through the query string', async () => {
    const response = await callRoute(apiActiveLoader, '/api/events/active?category=Family')
    expect(((await response.json()) as Array<{ eventTitle: string }>).map((e) => e.eventTitle)).toEqual([
      'Picnic',
    ])
  })

  test('paging and bad input', async () => {
    const paged = await callRoute(apiEventsLoader, '/api/events?limit=1&page=2')
    expect(((await paged.json()) as Array<{ eventTitle: string }>).map((e) => e.eventTitle)).toEqual([
      'Picnic',
    ])
    expect((await callRoute(apiEventsLoader, '/api/events?from=not-a-date')).status).toBe(400)
    expect((await callRoute(apiEventsLoader, '/api/events?limit=0')).status).toBe(400)
    expect((await callRoute(apiEventsLoader, '/api/events?limit=1000')).status).toBe(400)
  })
})
