import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { CalendarFilterFields } from '#app/components/calendar-filter-fields.tsx'
import { eq } from 'drizzle-orm'
import {
  activeFilters,
  calendarFilterErrors,
  calendarSearchParams,
  EMPTY_CALENDAR_FILTERS,
  normalizeCalendarFilters,
  type CalendarFilters,
} from '#app/models/calendar/calendar-filters.ts'
import {
  countLiveEvents,
  listLiveEventCards,
  listLiveEvents,
  type ListingStrategy,
} from '#app/models/calendar/calendar-listing.server.ts'
import { loadCalendarListing } from '#app/models/calendar/cached-listing.server.ts'
import { listEventsByDay } from '#app/models/calendar/calendar-month-grid.server.ts'
import { invalidateLiveEvents } from '#app/models/calendar/live-events-cache.server.ts'
import { announcePublicPagesChanged } from '#app/models/calendar/public-pages-changes.server.ts'
import { parseEmbedFilters } from '#app/models/calendar/embed.ts'
import { searchMatches } from '#app/models/subscriptions/subscription-matches.server.ts'
import {
  describeSearch,
  searchFilterKey,
  storedSearchFilters,
} from '#app/models/subscriptions/subscription-rules.ts'
import { getCalendarMonth, getCalendarResults } from '#app/services/calendar/calendar-page.server.ts'
import { getEmbedEvents } from '#app/services/calendar/embed.server.ts'
import { loader as rssLoader } from '#app/routes/calendar[.]rss.ts'
import { loader as icsLoader } from '#app/routes/calendar[.]ics.ts'
import { loader as calendarLoader } from '#app/routes/calendar.tsx'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { events, type Business } from '#db/schema.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'

const today = platformToday()
/** A day well after today, in a month whose every day is after today. */
const month = addDaysIso(today, 40).slice(0, 7)
const day = `${month}-12`
const filters = (change: Partial<CalendarFilters> = {}): CalendarFilters => ({
  ...EMPTY_CALENDAR_FILTERS,
  ...change,
})
const window = { today, limit: 20 }

let hall: Business

beforeAll(async () => {
  hall = await insertBusiness(db, { businessName: 'Springfield Hall', businessZip: '62704' })
})

beforeEach(async () => {
  await db.delete(events)
  invalidateLiveEvents()
})

/** Three ads on `day`, inserted so that their ids run against their times: the evening one first. */
async function threeOnADay(extra: Parameters<typeof insertTestEvent>[1] = {}) {
  const evening = await insertTestEvent(hall, {
    eventTitle: 'Evening jazz',
    eventDescription: 'Jazz in the evening',
    showAdOnDates: [day],
    startTime: '19:30',
    endTime: '22:00',
    ...extra,
  })
  const morning = await insertTestEvent(hall, {
    eventTitle: 'Morning jazz',
    eventDescription: 'Jazz in the morning',
    showAdOnDates: [day],
    startTime: '09:00',
    ...extra,
  })
  const allDay = await insertTestEvent(hall, {
    eventTitle: 'All-day jazz',
    eventDescription: 'Jazz all day',
    showAdOnDates: [day],
    ...extra,
  })
  return { evening, morning, allDay }
}

const IN_TIME_ORDER = ['All-day jazz', 'Morning jazz', 'Evening jazz']
const titles = (rows: Array<{ eventTitle: string }>) => rows.map((row) => row.eventTitle)

describe('"Soonest first": by date, then start time (all-day first), then id', () => {
  const cases: Array<[string, CalendarFilters, ListingStrategy]> = [
    ['walk', filters(), 'walk'],
    ['candidates', filters(), 'candidates'],
    ['walk with a keyword', filters({ keyword: 'jazz' }), 'walk'],
    ['the keyword table', filters({ keyword: 'jazz' }), 'candidates'],
    ['walk with a window', filters({ from: day, to: day }), 'walk'],
    ['candidates with a fact', filters({ free: true }), 'candidates'],
  ]
  test.each(cases)('%s', async (_name, asked, strategy) => {
    await threeOnADay({ priceCents: 0 })
    // An earlier day comes first whatever its time.
    await insertTestEvent(hall, {
      eventTitle: 'Late jazz the day before',
      eventDescription: 'Jazz late',
      showAdOnDates: [addDaysIso(day, -1)],
      startTime: '23:00',
      priceCents: 0,
    })
    const expected = ['Late jazz the day before', ...IN_TIME_ORDER].filter((title) =>
      asked.from ? title !== 'Late jazz the day before' : true,
    )
    expect(titles(await listLiveEvents(asked, window, strategy))).toEqual(expected)
    expect(titles(await listLiveEventCards(asked, window, strategy))).toEqual(expected)
  })

  test('a page boundary falls in time order', async () => {
    await threeOnADay()
    expect(titles(await listLiveEvents(filters(), { today, limit: 2 }, 'walk'))).toEqual(
      IN_TIME_ORDER.slice(0, 2),
    )
    expect(titles(await listLiveEvents(filters(), { today, limit: 2, offset: 2 }, 'candidates'))).toEqual([
      'Evening jazz',
    ])
  })
})

describe('the month grid lists a day in start-time order, all-day first', () => {
  test.each([
    ['counts', filters()],
    ['keyword', filters({ keyword: 'jazz' })],
    ['fact', filters({ free: true })],
  ])('%s', async (_name, asked) => {
    const { evening, morning } = await threeOnADay({ priceCents: 0 })
    await db.update(events).set({ scheduleStatus: 'postponed' }).where(eq(events.eventID, morning.eventID))
    const days = await listEventsByDay(asked, { today, from: `${month}-01`, to: `${month}-28`, perDay: 3 })
    expect(days).toHaveLength(1)
    expect(days[0]!.events.map((e) => [e.eventTitle, e.startTime, e.scheduleStatus])).toEqual([
      ['All-day jazz', null, null],
      ['Morning jazz', '09:00', 'postponed'],
      ['Evening jazz', '19:30', null],
    ])
    // Cut to the first two by time: the evening one (the lowest id) is the one left out.
    const cut = await listEventsByDay(asked, { today, from: day, to: day, perDay: 2 })
    expect(cut[0]!.events.map((e) => e.eventID)).not.toContain(evening.eventID)
    expect(cut[0]!.total).toBe(3)
  })
})

describe('"Hide cancelled"', () => {
  async function withOneCancelled() {
    const ads = await threeOnADay({ priceCents: 0 })
    await db
      .update(events)
      .set({ scheduleStatus: 'cancelled' })
      .where(eq(events.eventID, ads.morning.eventID))
    await db
      .update(events)
      .set({ scheduleStatus: 'postponed' })
      .where(eq(events.eventID, ads.evening.eventID))
    return ads
  }
  const shown = ['All-day jazz', 'Evening jazz']

  test.each([
    ['walk', filters(), 'walk'],
    ['candidates', filters(), 'candidates'],
    ['keyword walk', filters({ keyword: 'jazz' }), 'walk'],
    ['keyword table', filters({ keyword: 'jazz' }), 'candidates'],
    ['category', filters({ category: 'Community' }), 'walk'],
    ['fact', filters({ free: true }), 'candidates'],
    ['window', filters({ from: today, to: day }), 'walk'],
    ['window before today', filters({ from: addDaysIso(today, -3), to: day }), 'candidates'],
  ] as Array<[string, CalendarFilters, ListingStrategy]>)(
    'list and count: %s',
    async (_name, asked, strategy) => {
      await withOneCancelled()
      const hiding = { ...asked, hideCancelled: true }
      expect(titles(await listLiveEvents(asked, window, strategy))).toEqual(IN_TIME_ORDER)
      expect(titles(await listLiveEvents(hiding, window, strategy))).toEqual(shown)
      expect(titles(await listLiveEventCards(hiding, window, strategy))).toEqual(shown)
      expect(await countLiveEvents(asked, { today })).toBe(3)
      expect(await countLiveEvents(hiding, { today })).toBe(2)
    },
  )

  test('a cancelled ad that is over is not subtracted twice', async () => {
    await withOneCancelled()
    await insertTestEvent(hall, {
      eventTitle: 'Old',
      showAdOnDates: [addDaysIso(today, -5)],
      scheduleStatus: 'cancelled',
    })
    expect(await countLiveEvents(filters({ hideCancelled: true }), { today })).toBe(2)
  })

  test.each([
    ['counts', filters()],
    ['keyword', filters({ keyword: 'jazz' })],
    ['fact', filters({ free: true })],
  ])('month grid: %s', async (_name, asked) => {
    await withOneCancelled()
    const range = { today, from: `${month}-01`, to: `${month}-28`, perDay: 3 }
    const [all] = await listEventsByDay(asked, range)
    expect(all!.total).toBe(3)
    const [hidden] = await listEventsByDay({ ...asked, hideCancelled: true }, range)
    expect(hidden!.total).toBe(2)
    expect(titles(hidden!.events)).toEqual(shown)
  })

  test('month grid: a day whose only ad is cancelled is not listed', async () => {
    const only = await insertTestEvent(hall, { eventTitle: 'Alone', showAdOnDates: [day] })
    await db.update(events).set({ scheduleStatus: 'cancelled' }).where(eq(events.eventID, only.eventID))
    const month_ = await getCalendarMonth(filters({ hideCancelled: true }), { today, month })
    expect(month_.days).toEqual([])
  })

  test('the page: kept in the URL, and the chip removes it', async () => {
    await withOneCancelled()
    const response = await callRoute(calendarLoader, '/calendar?hideCancelled=1')
    expect(response.status).toBe(200)
    const page = (await response.json()) as {
      filters: CalendarFilters
      total: number
      events: Array<{ eventTitle: string }>
    }
    expect(page.filters.hideCancelled).toBe(true)
    expect(page.total).toBe(2)
    expect(titles(page.events)).toEqual(shown)
    const chip = activeFilters(page.filters).find((filter) => filter.label === 'Hiding cancelled')
    expect(chip).toBeDefined()
    expect(calendarSearchParams(chip!.without).get('hideCancelled')).toBeNull()
    expect(calendarSearchParams(page.filters).toString()).toBe('hideCancelled=1')
  })

  test('the feeds', async () => {
    await withOneCancelled()
    for (const loader of [rssLoader, icsLoader]) {
      const path = loader === rssLoader ? '/calendar.rss' : '/calendar.ics'
      const all = await (await callRoute(loader, path)).text()
      expect(all).toContain('Morning jazz')
      const hiding = await callRoute(loader, `${path}?hideCancelled=1`)
      expect(hiding.status).toBe(200)
      const text = await hiding.text()
      expect(text).not.toContain('Morning jazz')
      expect(text).toContain('All-day jazz')
      expect(text).toContain('Evening jazz')
      // A value that is not a yes or a no is refused, as Free and Online are.
      expect((await callRoute(loader, `${path}?hideCancelled=yes&hideCancelled=1`)).status).toBe(400)
    }
  })

  test('the embed', async () => {
    await withOneCancelled()
    const asked = parseEmbedFilters(new URLSearchParams('hideCancelled=1'))
    expect(asked.hideCancelled).toBe(true)
    expect(titles(await getEmbedEvents(asked, { today }))).toEqual(shown)
    expect(() => parseEmbedFilters(new URLSearchParams('hideCancelled=garbage'))).toThrow(
      'hideCancelled must be 1 or 0',
    )
  })

  test('a saved search keeps it, and its digest matches accordingly', async () => {
    await withOneCancelled()
    const saved = storedSearchFilters(
      JSON.parse(JSON.stringify(filters({ hideCancelled: true, keyword: 'jazz' }))),
    )
    expect(saved.hideCancelled).toBe(true)
    expect(searchFilterKey(saved)).toContain('hideCancelled=1')
    expect(searchFilterKey(saved)).not.toBe(searchFilterKey({ ...saved, hideCancelled: false }))
    expect(describeSearch(saved)).toBe('Upcoming events: Keyword “jazz”, Hiding cancelled')
    // A search saved before the filter existed hides nothing.
    expect(storedSearchFilters({ keyword: 'jazz' }).hideCancelled).toBe(false)
    const searchWindow = { today, since: new Date(0), until: new Date(0), comingWeekTo: addDaysIso(day, 1) }
    expect(titles(await searchMatches(saved, searchWindow)).sort()).toEqual([...shown].sort())
    expect(titles(await searchMatches({ ...saved, hideCancelled: false }, searchWindow))).toHaveLength(3)
  })

  test('the form: a plain checkbox "Hide cancelled" (sent without JavaScript as hideCancelled=1)', () => {
    const render = (hideCancelled: boolean) =>
      renderToStaticMarkup(
        createElement(CalendarFilterFields, {
          idPrefix: 'calendar',
          categories: [],
          values: {
            ...EMPTY_CALENDAR_FILTERS,
            radius: '10',
            from: '',
            to: '',
            hideCancelled,
          },
        }),
      )
    const box =
      /<input type="checkbox" name="hideCancelled"( checked="")? value="1"\/>Hide cancelled<\/label>/
    expect(render(false)).toMatch(box)
    expect(render(false).match(box)?.[1]).toBeUndefined()
    expect(render(true).match(box)?.[1]).toBe(' checked=""')
  })

  test('hostile values: the page ignores them, the API refuses them', () => {
    for (const query of ['hideCancelled=yes&hideCancelled=1', 'hideCancelled=%00', 'hideCancelled=2']) {
      const params = new URLSearchParams(query)
      expect(normalizeCalendarFilters(params).filters.hideCancelled).toBe(false)
      expect(calendarFilterErrors(params)).toEqual(['hideCancelled must be 1 or 0'])
    }
    for (const yes of ['1', 'true', 'on', ' ON ']) {
      expect(
        normalizeCalendarFilters(new URLSearchParams({ hideCancelled: yes })).filters.hideCancelled,
      ).toBe(true)
    }
  })
})

describe('a card under a date filter', () => {
  test('"Today" lists an ad shown today for a Saturday event: "Advertised today", dated Saturday', async () => {
    const saturday = addDaysIso(today, 3)
    await insertTestEvent(hall, {
      eventTitle: 'Saturday concert',
      eventDate: saturday,
      showAdOnDates: [today],
      startTime: '19:30:00',
      endTime: '22:00:00',
      scheduleStatus: 'sold_out',
    })
    const results = await getCalendarResults(filters({ from: today, to: today }), { today, page: 1 })
    expect(results.events).toHaveLength(1)
    expect(results.events[0]).toMatchObject({
      eventTitle: 'Saturday concert',
      date: saturday,
      startTime: '19:30',
      endTime: '22:00',
      scheduleStatus: 'sold_out',
      advertisedText: 'Advertised today',
    })
    // A window holding the event's own date: the card needs no other date.
    const ownDay = await getCalendarResults(filters({ from: saturday, to: saturday }), { today, page: 1 })
    expect(ownDay.events[0]).toMatchObject({ date: saturday, advertisedText: null })
    // No date filter: no other date either.
    const anyDay = await getCalendarResults(filters(), { today, page: 1 })
    expect(anyDay.events[0]).toMatchObject({ date: saturday, advertisedText: null })
  })

  test('a display date later in the window is named', async () => {
    const shownOn = addDaysIso(today, 2)
    await insertTestEvent(hall, {
      eventTitle: 'Later concert',
      eventDate: addDaysIso(today, 30),
      showAdOnDates: [shownOn],
    })
    const results = await getCalendarResults(filters({ from: today, to: addDaysIso(today, 6) }), {
      today,
      page: 1,
    })
    expect(results.events[0]!.advertisedText).toMatch(/^Advertised \w{3}, \w{3} \d{1,2}$/)
    expect(results.events[0]!.startTime).toBeNull()
  })

  test('listings that show the same event share its card, each dated by the date it lists the event at', async () => {
    const [first, second] = [addDaysIso(today, 2), addDaysIso(today, 5)]
    await insertTestEvent(hall, { eventTitle: 'Twice shown', showAdOnDates: [first, second] })
    const early = await getCalendarResults(filters({ from: today, to: addDaysIso(today, 3) }), {
      today,
      page: 1,
    })
    const late = await getCalendarResults(filters({ from: addDaysIso(today, 4), to: addDaysIso(today, 6) }), {
      today,
      page: 1,
    })
    const wider = await getCalendarResults(filters({ from: today, to: addDaysIso(today, 4) }), {
      today,
      page: 1,
    })
    expect(early.events[0]).toMatchObject({ eventTitle: 'Twice shown', date: first })
    expect(late.events[0]).toMatchObject({ eventTitle: 'Twice shown', date: second })
    // Another listing at the same date hands out the very same tile: its markup is found, not built again.
    expect(wider.events[0]).toBe(early.events[0])
  })
})

describe('cards cached by event', () => {
  test('a first page read as its order alone and a later page read with its cards list the same as the database', async () => {
    for (let i = 0; i < 30; i++)
      await insertTestEvent(hall, {
        eventTitle: `Gig ${i}`,
        showAdOnDates: [addDaysIso(today, 1 + (i % 5)), addDaysIso(today, 8)],
        startTime: i % 2 ? '20:00' : null,
      })
    const expected = await listLiveEventCards(filters(), { today, limit: 48 })
    const first = await getCalendarResults(filters(), { today, page: 1 })
    const second = await getCalendarResults(filters(), { today, page: 2 })
    const shown = (tiles: Array<{ eventTitle: string; date: string | null; startTime?: string | null }>) =>
      tiles.map(({ eventTitle, date, startTime }) => [eventTitle, date, startTime])
    const asTiles = expected.map((card) => [card.eventTitle, card.date, card.startTime?.slice(0, 5) ?? null])
    expect([...shown(first.events), ...shown(second.events)]).toEqual(asTiles)
    // Another window from today: the same first page, the very same tiles.
    const wider = await getCalendarResults(filters({ to: addDaysIso(today, 20) }), { today, page: 1 })
    expect(wider.events).toHaveLength(24)
    wider.events.forEach((tile, i) => expect(tile).toBe(first.events[i]))
  })
})

describe('the featured strip', () => {
  test('a cancelled or postponed ad leaves it; sold out stays; all stay in the list', async () => {
    const { evening, morning, allDay } = await threeOnADay()
    await db.update(events).set({ scheduleStatus: 'cancelled' }).where(eq(events.eventID, morning.eventID))
    await db.update(events).set({ scheduleStatus: 'postponed' }).where(eq(events.eventID, allDay.eventID))
    const soldOut = await insertTestEvent(hall, { eventTitle: 'Sold out', showAdOnDates: [day] })
    await db.update(events).set({ scheduleStatus: 'sold_out' }).where(eq(events.eventID, soldOut.eventID))
    for (const pageSize of [24, 2]) {
      const listing = await loadCalendarListing(filters(), { today, page: 1, pageSize })
      expect(listing.featured.map((e) => e.eventID)).toEqual([soldOut.eventID, evening.eventID])
    }
    const listing = await loadCalendarListing(filters(), { today, page: 1 })
    expect(listing.events).toHaveLength(4)
  })
})

describe('the cached listing sees a change of status or time', () => {
  test('after the change is announced', async () => {
    const { morning } = await threeOnADay()
    const before = await getCalendarResults(filters(), { today, page: 1 })
    expect(before.featured.map((e) => e.eventTitle)).toContain('Morning jazz')
    const monthBefore = await getCalendarMonth(filters(), { today, month })

    await db
      .update(events)
      .set({ scheduleStatus: 'cancelled', startTime: '23:00' })
      .where(eq(events.eventID, morning.eventID))
    await announcePublicPagesChanged()

    const after = await getCalendarResults(filters(), { today, page: 1 })
    expect(after.featured.map((e) => e.eventTitle)).not.toContain('Morning jazz')
    expect(titles(after.events)).toEqual(['All-day jazz', 'Evening jazz', 'Morning jazz'])
    expect(after.events[2]).toMatchObject({ scheduleStatus: 'cancelled', startTime: '23:00' })
    const monthAfter = await getCalendarMonth(filters(), { today, month })
    expect(monthAfter.days[0]!.events.map((e) => e.eventTitle)).toEqual([
      'All-day jazz',
      'Evening jazz',
      'Morning jazz',
    ])
    expect(monthBefore.days[0]!.events[1]!.eventTitle).toBe('Morning jazz')
    const hidden = await getCalendarResults(filters({ hideCancelled: true }), { today, page: 1 })
    expect(hidden.total).toBe(2)
  })
})
