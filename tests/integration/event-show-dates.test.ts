import { asc, eq } from 'drizzle-orm'
import { EMPTY_PRACTICAL_FACTS } from '#app/models/ads/practical-facts.ts'
import { beforeAll, describe, expect, test } from 'vitest'
import { EMPTY_CALENDAR_FILTERS } from '#app/models/calendar/calendar-filters.ts'
import { insertEvent, updateSubmittedEvent, type NewEventData } from '#app/models/ads/event.server.ts'
import { reviewEvent } from '#app/services/moderation/moderation.server.ts'
import {
  countLiveEvents,
  listingStrategy,
  listLiveEvents,
} from '#app/models/calendar/calendar-listing.server.ts'
import { listEventsByDay } from '#app/models/calendar/calendar-month-grid.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { eventShowDates as showDatesOfEvent } from '#app/models/ads/event-dates.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { UNSET_DATE } from '#app/constants.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness, insertUser } from '#db/factories.ts'
import { events, eventShowDates, showDateCounts, type Business } from '#db/schema.ts'
import { insertPaidPayment, insertTestEvent } from '#tests/support/events.ts'
import { normalizeCalendarFilters } from '#app/models/calendar/calendar-filters.ts'

const today = platformToday()
const day = (n: number) => addDaysIso(today, n)

let owner: Business
let reviewerId: string
beforeAll(async () => {
  owner = await insertBusiness(db, { businessZip: '62701' })
  reviewerId = (await insertUser(db, { email: 'show-dates-admin@example.com', roles: ['admin'] })).id
})

/** The event's rows in the show-date table: date and the date before it. */
async function showDatesOf(eventID: number) {
  const rows = await db
    .select({ showDate: eventShowDates.showDate, previousDate: eventShowDates.previousDate })
    .from(eventShowDates)
    .where(eq(eventShowDates.eventID, eventID))
    .orderBy(asc(eventShowDates.showDate))
  return rows.map((r) => [r.showDate, r.previousDate])
}

function submission(overrides: Partial<NewEventData> = {}): NewEventData {
  return {
    businessID: owner.businessID,
    businessName: owner.businessName,
    eventTitle: 'Quiz night',
    eventDescription: 'Teams of six.',
    eventCategory: ['Community'],
    showAdDates: [day(3), day(1)],
    eventDate: day(5),
    contactPerson: '',
    contactPhone: '',
    contactEmail: '',
    ...EMPTY_PRACTICAL_FACTS,
    totalCents: 2900,
    approvedDateByBusiness: today,
    ...overrides,
  }
}

/** A paid ad awaiting review, with the payment the test provider can refund. */
async function awaitingReview(showAdOnDates: string[]) {
  const event = await insertTestEvent(owner, { eventStatus: 'pending', paymentStatus: 'paid', showAdOnDates })
  const payment = await insertPaidPayment(event.eventID)
  await db
    .update(events)
    .set({ payment_intent_id: payment.payment_intent_id })
    .where(eq(events.eventID, event.eventID))
  return event
}

describe('the show-date table follows the events', () => {
  test('an unpaid ad has no rows; once approved and paid its display dates and event date appear, in order', async () => {
    const { eventID } = await insertEvent(db, submission())
    expect(await showDatesOf(eventID)).toEqual([])
    await db
      .update(events)
      .set({ paymentStatus: 'paid', eventStatus: 'approved' })
      .where(eq(events.eventID, eventID))
    expect(await showDatesOf(eventID)).toEqual([
      [day(1), null],
      [day(3), day(1)],
      [day(5), day(3)],
    ])
  })

  test('a live event created as such has its rows; the unset event date is not one', async () => {
    const event = await insertTestEvent(owner, { showAdOnDates: [day(2), day(2), day(4)] })
    expect(await showDatesOf(event.eventID)).toEqual([
      [day(2), null],
      [day(4), day(2)],
    ])
  })

  test('editing the dates rewrites the rows in the same transaction', async () => {
    const event = await insertTestEvent(owner, { showAdOnDates: [day(2), day(4)] })
    await db.transaction(async (tx) => {
      await updateSubmittedEvent(
        tx,
        event.eventID,
        submission({ showAdDates: [day(7)], eventDate: '1989-01-01' }),
      )
      // Inside the transaction the table already matches.
      const [row] = await tx.select().from(eventShowDates).where(eq(eventShowDates.eventID, event.eventID))
      expect(row).toMatchObject({ showDate: day(7), previousDate: null })
    })
    expect(await showDatesOf(event.eventID)).toEqual([[day(7), null]])
  })

  test("the rows carry the event's categories; a category edit rewrites them", async () => {
    const event = await insertTestEvent(owner, { showAdOnDates: [day(2), day(3)], category: ['Music'] })
    const categoriesOf = async () =>
      (
        await db
          .select({ category: eventShowDates.category })
          .from(eventShowDates)
          .where(eq(eventShowDates.eventID, event.eventID))
      ).map((r) => r.category)
    expect(await categoriesOf()).toEqual([['Music'], ['Music']])
    await db
      .update(events)
      .set({ category: ['Arts', 'Food'] })
      .where(eq(events.eventID, event.eventID))
    expect(await categoriesOf()).toEqual([
      ['Arts', 'Food'],
      ['Arts', 'Food'],
    ])
    expect(await showDatesOf(event.eventID)).toEqual([
      [day(2), null],
      [day(3), day(2)],
    ])
  })

  test('other changes leave the rows alone; deleting the event deletes them', async () => {
    const event = await insertTestEvent(owner, { showAdOnDates: [day(2)] })
    await db.update(events).set({ eventTitle: 'Renamed' }).where(eq(events.eventID, event.eventID))
    expect(await showDatesOf(event.eventID)).toEqual([[day(2), null]])
    await db.delete(events).where(eq(events.eventID, event.eventID))
    expect(await showDatesOf(event.eventID)).toEqual([])
  })

  test('approval adds the rows, rejection keeps an ad out', async () => {
    const approved = await awaitingReview([day(1), day(2)])
    const rejected = await awaitingReview([day(3)])
    expect(await showDatesOf(approved.eventID)).toEqual([])
    const approval = await reviewEvent(
      { eventID: approved.eventID, action: 'approve', reason: '' },
      { reviewerId, today },
    )
    expect(approval.eventStatus).toBe('approved')
    expect(await showDatesOf(approved.eventID)).toEqual([
      [day(1), null],
      [day(2), day(1)],
    ])
    const rejection = await reviewEvent(
      { eventID: rejected.eventID, action: 'reject', reason: 'Off topic' },
      { reviewerId, today },
    )
    expect(rejection.eventStatus).toBe('rejected')
    expect(await showDatesOf(rejected.eventID)).toEqual([])
    // A refund after approval takes the ad down again.
    await db.update(events).set({ paymentStatus: 'refunded' }).where(eq(events.eventID, approved.eventID))
    expect(await showDatesOf(approved.eventID)).toEqual([])
  })
})

const isGridDay = (event: { eventDate: string }, date: string) =>
  event.eventDate === UNSET_DATE || date === event.eventDate

/**
 * The counts table as it should be: every approved, paid event's show dates, per category and under '', and
 * whether the month grid lists the event on that day.
 */
async function expectedShowDateCounts() {
  const rows = await db.select().from(events)
  const counts = new Map<string, number>()
  for (const event of rows) {
    if (event.eventStatus !== 'approved' || event.paymentStatus !== 'paid') continue
    const dates = showDatesOfEvent(event.eventDate, event.showAdOnDates)
    for (const category of new Set([...event.category, ''])) {
      dates.forEach((date, i) => {
        const key = [category, date, dates[i - 1] ?? '-infinity', isGridDay(event, date)].join(' | ')
        counts.set(key, (counts.get(key) ?? 0) + 1)
      })
    }
  }
  return [...counts].sort(([a], [b]) => a.localeCompare(b))
}

async function showDateCountsTable() {
  const rows = await db.select().from(showDateCounts)
  return rows
    .map(
      (r) => [[r.category, r.showDate, r.previousDate, r.gridDay].join(' | '), r.events] as [string, number],
    )
    .sort(([a], [b]) => a.localeCompare(b))
}

/** The show-date rows as they should be, with the month grid's facts: grid day, and the event's last row. */
async function expectedShowDateRows() {
  const rows = await db.select().from(events)
  return rows
    .filter((event) => event.eventStatus === 'approved' && event.paymentStatus === 'paid')
    .flatMap((event) => {
      const dates = showDatesOfEvent(event.eventDate, event.showAdOnDates)
      return dates.map((date) => [event.eventID, date, isGridDay(event, date), dates.at(-1)].join(' | '))
    })
    .sort()
}

async function showDateRowsTable() {
  const rows = await db.select().from(eventShowDates)
  return rows.map((r) => [r.eventID, r.showDate, r.gridDay, r.lastDate].join(' | ')).sort()
}

describe('the counts table follows the events', () => {
  test('inserts, approvals, date and category edits, refunds and deletions keep it equal to the events', async () => {
    const draft = await insertEvent(db, submission({ eventCategory: ['Music', 'Community'] }))
    const live = await insertTestEvent(owner, { showAdOnDates: [day(2), day(4)], category: ['Sports'] })
    const twin = await insertTestEvent(owner, {
      showAdOnDates: [day(2), day(4)],
      category: ['Sports', 'Sports'],
    })
    const gone = await insertTestEvent(owner, { showAdOnDates: [day(9)], category: ['Arts'] })
    // Same dates, one with a date of its own among them: the grid lists it on that day only.
    await insertTestEvent(owner, { showAdOnDates: [day(2), day(4)], eventDate: day(4), category: ['Arts'] })
    expect(await showDateCountsTable()).toEqual(await expectedShowDateCounts())
    expect(await showDateRowsTable()).toEqual(await expectedShowDateRows())

    await db
      .update(events)
      .set({ paymentStatus: 'paid', eventStatus: 'approved' })
      .where(eq(events.eventID, draft.eventID))
    await db
      .update(events)
      .set({ showAdOnDates: [day(3)], eventDate: day(6) })
      .where(eq(events.eventID, live.eventID))
    await db
      .update(events)
      .set({ category: ['Arts', 'Sports'] })
      .where(eq(events.eventID, twin.eventID))
    await db.update(events).set({ paymentStatus: 'refunded' }).where(eq(events.eventID, gone.eventID))
    expect(await showDateCountsTable()).toEqual(await expectedShowDateCounts())
    expect(await showDateRowsTable()).toEqual(await expectedShowDateRows())

    await db.delete(events).where(eq(events.eventID, twin.eventID))
    await db.update(events).set({ eventTitle: 'Renamed' }).where(eq(events.eventID, live.eventID))
    const table = await showDateCountsTable()
    expect(table).toEqual(await expectedShowDateCounts())
    expect(await showDateRowsTable()).toEqual(await expectedShowDateRows())
    // Keys nobody is counted under any more are gone, not kept at zero.
    expect(table.every(([, n]) => n > 0)).toBe(true)
    expect(table.some(([key]) => key.startsWith(`Sports | ${day(2)}`))).toBe(false)
  })

  test('counts from the table equal counting the events, for every window from today and every category', async () => {
    for (const [i, dates] of [
      [day(0)],
      [day(1), day(8)],
      [day(3), day(4), day(5)],
      [day(10)],
      [day(-3), day(2)],
    ].entries()) {
      await insertTestEvent(owner, { showAdOnDates: dates, category: i % 2 ? ['Music'] : ['Music', 'Food'] })
    }
    const rows = await db.select().from(events)
    const live = rows.filter((e) => e.eventStatus === 'approved' && e.paymentStatus === 'paid')
    for (const category of ['', 'Music', 'Food', 'Sports', 'Nothing']) {
      for (const [from, to] of [
        [null, null],
        [day(0), day(0)],
        [day(1), day(4)],
        [day(2), null],
        [day(5), day(9)],
        [day(11), day(30)],
      ] as const) {
        const filters = { ...EMPTY_CALENDAR_FILTERS, category, from, to }
        const expected = live.filter((e) => {
          const dates = showDatesOfEvent(e.eventDate, e.showAdOnDates)
          const inWindow = dates.some((d) => d >= (from ?? today) && (!to || d <= to))
          return inWindow && (!category || e.category.includes(category))
        }).length
        expect(await countLiveEvents(filters, { today }), `${category} ${from}–${to}`).toBe(expected)
      }
    }
  })

  test('counts from the table equal counting the events for windows that start before today or have no start', async () => {
    for (const [i, dates] of [
      [day(0)],
      [day(-5), day(-1), day(6)],
      [day(-3), day(2)],
      [day(-8), day(12)],
      [day(-9), day(-4)],
      [day(4), day(9)],
      [day(-1)],
    ].entries()) {
      await insertTestEvent(owner, { showAdOnDates: dates, category: i % 2 ? ['Music'] : ['Music', 'Food'] })
    }
    const rows = await db.select().from(events)
    const live = rows.filter(
      (e) => e.eventStatus === 'approved' && e.paymentStatus === 'paid' && (e.lastShowDate ?? '') >= today,
    )
    for (const category of ['', 'Music', 'Food']) {
      for (const [from, to] of [
        [null, day(0)],
        [null, day(1)],
        [null, day(5)],
        [null, day(30)],
        [day(-6), day(1)],
        [day(-4), day(3)],
        [day(-2), day(0)],
        [day(-3), null],
        [day(-1), day(7)],
        [day(-9), day(-5)],
        [null, day(-2)],
      ] as const) {
        const filters = { ...EMPTY_CALENDAR_FILTERS, category, from, to }
        const expected = live.filter((e) => {
          const dates = showDatesOfEvent(e.eventDate, e.showAdOnDates)
          const inWindow = dates.some((d) => (!from || d >= from) && (!to || d <= to))
          return inWindow && (!category || e.category.includes(category))
        }).length
        expect(await countLiveEvents(filters, { today }), `${category} ${from}–${to}`).toBe(expected)
      }
    }
  })
})

describe('both ways of finding a page agree', () => {
  test('walking the dates and starting from the matches give the same pages', async () => {
    const categories = ['Concert', 'Family', 'Community']
    for (let i = 0; i < 18; i++) {
      await insertTestEvent(owner, {
        eventTitle: `Event ${i}`,
        category: [categories[i % 3]!],
        eventDescription: i % 4 === 0 ? 'Brass band night' : 'Quiet evening',
        // Some started before today; the next date is what orders them.
        showAdOnDates: [day(-2 + (i % 5)), day(1 + ((i * 7) % 11)), day(12 + (i % 3))],
        eventDate: i % 6 === 0 ? day(i % 9) : '1989-01-01',
      })
    }
    await insertTestEvent(owner, { eventTitle: 'Over', showAdOnDates: [day(-3)] })
    await insertTestEvent(owner, { eventTitle: 'Unpaid', paymentStatus: 'pending', showAdOnDates: [day(1)] })
    for (const query of [
      '',
      'category=Concert',
      'keyword=brass',
      `from=${day(3)}&to=${day(6)}`,
      `to=${day(0)}`,
      'zip=627',
    ]) {
      const filters = query
        ? normalizeCalendarFilters(new URLSearchParams(query)).filters
        : EMPTY_CALENDAR_FILTERS
      for (const [limit, offset] of [
        [5, 0],
        [4, 3],
        [100, 0],
      ] as const) {
        const walk = await listLiveEvents(filters, { today, limit, offset }, 'walk')
        const candidates = await listLiveEvents(filters, { today, limit, offset }, 'candidates')
        expect(
          walk.map((e) => [e.eventID, e.nextShowDate]),
          query,
        ).toEqual(candidates.map((e) => [e.eventID, e.nextShowDate]))
      }
      const all = await listLiveEvents(filters, { today, limit: 100 }, 'walk')
      expect(all.length, query).toBe(await countLiveEvents(filters, { today }))
      expect(all.map((e) => e.eventTitle)).not.toContain('Over')
      expect(all.map((e) => e.eventTitle)).not.toContain('Unpaid')
    }
  })

  test('the cheaper way is chosen from the counts', () => {
    expect(listingStrategy({ matches: 10_000, live: 10_000, rows: 24 })).toBe('walk')
    expect(listingStrategy({ matches: 3_000, live: 10_000, rows: 48 })).toBe('walk')
    expect(listingStrategy({ matches: 100, live: 10_000, rows: 24 })).toBe('candidates')
    expect(listingStrategy({ matches: 0, live: 10_000, rows: 24 })).toBe('candidates')
  })
})

describe('the month grid agrees with the events', () => {
  test('its days (from the counts, the rows, or the matching events) list and count what the date rule says', async () => {
    await db.delete(events)
    const categories = [['Music'], ['Music', 'Food'], ['Food']]
    const plans: Array<{ dates: string[]; own?: string }> = [
      { dates: [day(-12), day(-9)] }, // over: on no day
      { dates: [day(-6), day(2)] }, // running: on its past day too
      { dates: [day(-3), day(1), day(5)], own: day(1) }, // its own date only
      { dates: [day(0)] },
      { dates: [day(1), day(2), day(9)] },
      { dates: [day(2), day(3)], own: day(12) }, // its own date after its display dates
      { dates: [day(-2), day(0), day(2)] },
      { dates: [day(2)] },
      { dates: [day(2), day(20)] },
      { dates: [day(-1), day(2)], own: day(-1) }, // its own date is past, a later display date keeps it live
    ]
    const inserted = []
    for (const [i, plan] of plans.entries()) {
      inserted.push(
        await insertTestEvent(owner, {
          showAdOnDates: plan.dates,
          ...(plan.own && { eventDate: plan.own }),
          category: categories[i % 3]!,
          eventDescription: 'Bring a friend.',
        }),
      )
    }
    // Edits after the fact: new dates and a date of its own, and a new category.
    await db
      .update(events)
      .set({ showAdOnDates: [day(4), day(6)], eventDate: day(6), lastShowDate: day(6) })
      .where(eq(events.eventID, inserted[3]!.eventID))
    await db
      .update(events)
      .set({ category: ['Food'] })
      .where(eq(events.eventID, inserted[4]!.eventID))

    const rows = await db.select().from(events)
    const perDay = 2
    for (const category of ['', 'Music', 'Food', 'Nothing']) {
      for (const [from, to] of [
        [day(-14), day(21)],
        [day(-8), day(-1)],
        [day(0), day(0)],
        [day(1), day(13)],
      ] as const) {
        const expected = []
        for (let d = from; d <= to; d = addDaysIso(d, 1)) {
          const listed = rows
            .filter((e) => {
              const dates = showDatesOfEvent(e.eventDate, e.showAdOnDates)
              const live = dates.at(-1)! >= today
              return (
                live && dates.includes(d) && isGridDay(e, d) && (!category || e.category.includes(category))
              )
            })
            .map((e) => e.eventID)
            .sort((a, b) => a - b)
          if (listed.length > 0)
            expected.push({ date: d, ids: listed.slice(0, perDay), total: listed.length })
        }
        const range = { today, from, to, perDay }
        const summary = (days: Awaited<ReturnType<typeof listEventsByDay>>) =>
          days.map((x) => ({ date: x.date, ids: x.events.map((e) => e.eventID), total: x.total }))
        const label = `${category || 'every category'} ${from}–${to}`
        const filters = { ...EMPTY_CALENDAR_FILTERS, category }
        expect(summary(await listEventsByDay(filters, range)), label).toEqual(expected)
        // A keyword every event has takes the way through the keyword's table, and with a ZIP through the matching
        // events: the same days.
        expect(summary(await listEventsByDay({ ...filters, keyword: 'friend' }, range)), label).toEqual(
          expected,
        )
        expect(
          summary(await listEventsByDay({ ...filters, keyword: 'FRIEND', zip: '627' }, range)),
          label,
        ).toEqual(expected)
      }
    }
  })
})
