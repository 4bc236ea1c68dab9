/**
 * The keyword filter's table of live ads (`live_event_texts`): it follows the ads through every change, the filter
 * keeps ILIKE's meaning on it (any case, the keyword's own % and _ taken literally), and the hourly job takes out the
 * ads that are over.
 */
import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { UNSET_DATE } from '#app/constants.ts'
import { EMPTY_CALENDAR_FILTERS, type CalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import { countLiveEvents, listLiveEvents } from '#app/models/calendar/calendar-listing.server.ts'
import { listEventsByDay } from '#app/models/calendar/calendar-month-grid.server.ts'
import { deleteEndedAdTexts } from '#app/models/platform/database-maintenance.server.ts'
import { eventShowDates } from '#app/models/ads/event-dates.ts'
import { getJobRun } from '#app/models/platform/job-runs.server.ts'
import { ENDED_AD_TEXTS_JOB, runScheduledJobs } from '#app/services/operations/cleanup.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db, rowsOf } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { events, liveEventTexts, type Business } from '#db/schema.ts'
import { insertTestEvent } from '#tests/support/events.ts'

const today = platformToday()
const day = (n: number) => addDaysIso(today, n)

let owner: Business
beforeAll(async () => {
  owner = await insertBusiness(db, { businessZip: '62702' })
})

/** The database's own date, which the table's two-day margin is counted from. */
async function databaseDate() {
  const [row] = rowsOf<{ d: string }>(await db.execute(sql`SELECT current_date::text AS d`))
  return row!.d
}

/** What the table should hold, worked out from the ads themselves. */
async function expectedTexts() {
  const cutoff = addDaysIso(await databaseDate(), -2)
  const rows = await db.select().from(events)
  return rows
    .filter(
      (e) =>
        e.eventStatus === 'approved' &&
        e.paymentStatus === 'paid' &&
        e.lastShowDate !== null &&
        e.lastShowDate >= cutoff,
    )
    .map((e) => {
      const gridDates = eventShowDates(e.eventDate, e.showAdOnDates).filter(
        (d) => e.eventDate === UNSET_DATE || d === e.eventDate,
      )
      return [
        e.eventID,
        e.eventDescription.toLowerCase(),
        e.category.join(','),
        e.lastShowDate,
        gridDates.join(','),
        e.startTime,
      ]
    })
    .sort((a, b) => Number(a[0]) - Number(b[0]))
}

async function textsTable() {
  const rows = await db.select().from(liveEventTexts)
  return rows
    .map((r) => [r.eventID, r.description, r.category.join(','), r.lastDate, r.gridDates.join(','), r.startTime])
    .sort((a, b) => Number(a[0]) - Number(b[0]))
}

describe('the table follows the ads', () => {
  test('inserts, approvals, edits of the text, categories and dates, refunds and deletions keep it equal to the ads', async () => {
    const draft = await insertTestEvent(owner, {
      eventStatus: 'pending',
      paymentStatus: 'pending',
      showAdOnDates: [day(2)],
      eventDescription: 'Draft Text',
    })
    const live = await insertTestEvent(owner, {
      showAdOnDates: [day(1), day(3)],
      eventDescription: 'Live JAZZ',
    })
    const own = await insertTestEvent(owner, {
      showAdOnDates: [day(1), day(3)],
      eventDate: day(3),
      category: ['Arts', 'Music'],
    })
    const refunded = await insertTestEvent(owner, { showAdOnDates: [day(4)] })
    // Over for a day: still kept (it may be live somewhere behind the database's clock); over for five: never added.
    await insertTestEvent(owner, { showAdOnDates: [day(-1)] })
    const longOver = await insertTestEvent(owner, { showAdOnDates: [day(-5)] })
    expect(await textsTable()).toEqual(await expectedTexts())
    expect((await textsTable()).map((r) => r[0])).not.toContain(longOver.eventID)
    expect((await textsTable()).map((r) => r[0])).not.toContain(draft.eventID)

    await db
      .update(events)
      .set({ paymentStatus: 'paid', eventStatus: 'approved' })
      .where(eq(events.eventID, draft.eventID))
    await db
      .update(events)
      .set({ eventDescription: 'Live BLUES', category: ['Music'] })
      .where(eq(events.eventID, live.eventID))
    await db
      .update(events)
      .set({ showAdOnDates: [day(5)], eventDate: day(6), firstShowDate: day(5), lastShowDate: day(6) })
      .where(eq(events.eventID, own.eventID))
    await db.update(events).set({ paymentStatus: 'refunded' }).where(eq(events.eventID, refunded.eventID))
    // The month grid orders a day's keyword matches by the start time the row carries.
    await db.update(events).set({ startTime: '19:30:00' }).where(eq(events.eventID, own.eventID))
    expect(await textsTable()).toEqual(await expectedTexts())
    expect((await textsTable()).find((r) => r[0] === own.eventID)?.[5]).toBe('19:30:00')
    expect((await textsTable()).find((r) => r[0] === live.eventID)?.[1]).toBe('live blues')
    expect((await textsTable()).map((r) => r[0])).not.toContain(refunded.eventID)

    await db.delete(events).where(eq(events.eventID, live.eventID))
    await db.update(events).set({ eventTitle: 'Renamed' }).where(eq(events.eventID, own.eventID))
    expect(await textsTable()).toEqual(await expectedTexts())
    expect((await textsTable()).map((r) => r[0])).not.toContain(live.eventID)
  })

  test('the hourly job takes out the ads that ended more than two days ago, once per period', async () => {
    const ending = await insertTestEvent(owner, { showAdOnDates: [day(1)] })
    const running = await insertTestEvent(owner, { showAdOnDates: [day(1)] })
    const ended = await insertTestEvent(owner, { showAdOnDates: [day(1)] })
    // Time passes: the ads' last dates are now behind the database's date.
    const date = await databaseDate()
    await db
      .update(liveEventTexts)
      .set({ lastDate: addDaysIso(date, -3) })
      .where(eq(liveEventTexts.eventID, ended.eventID))
    await db
      .update(liveEventTexts)
      .set({ lastDate: addDaysIso(date, -2) })
      .where(eq(liveEventTexts.eventID, ending.eventID))
    const runsBefore = (await getJobRun(ENDED_AD_TEXTS_JOB))?.runs ?? 0
    const now = new Date(Date.now() + 5 * 60 * 60 * 1000)
    await runScheduledJobs(now)
    await runScheduledJobs(new Date(now.getTime() + 1000))
    expect((await getJobRun(ENDED_AD_TEXTS_JOB))?.runs).toBe(runsBefore + 1)
    const ids = (await textsTable()).map((r) => r[0])
    expect(ids).not.toContain(ended.eventID)
    expect(ids).toContain(ending.eventID)
    expect(ids).toContain(running.eventID)
    expect(await deleteEndedAdTexts()).toBe(0)
  })
})

describe('the keyword keeps its meaning', () => {
  const find = async (keyword: string, more: Partial<CalendarFilters> = {}) => {
    const filters = { ...EMPTY_CALENDAR_FILTERS, ...more, keyword }
    const listed = await listLiveEvents(filters, { today, limit: 50 })
    const count = await countLiveEvents(filters, { today })
    expect(count, `count of ${keyword}`).toBe(listed.length)
    return listed.map((e) => e.eventTitle).sort()
  }

  test('any case, accents included; % and _ are the characters themselves; an edit is found at once', async () => {
    await db.delete(events)
    await insertTestEvent(owner, {
      eventTitle: 'Cafe',
      eventDescription: 'Live music at the CAFÉ, 50% off.',
      showAdOnDates: [day(1)],
      category: ['Music'],
    })
    await insertTestEvent(owner, {
      eventTitle: 'Plain',
      eventDescription: 'Fifty off at the cafe_bar.',
      showAdOnDates: [day(2)],
    })
    const hidden = await insertTestEvent(owner, {
      eventTitle: 'Refused',
      eventDescription: 'Live music, refused.',
      eventStatus: 'rejected',
      showAdOnDates: [day(1)],
    })
    expect(await find('live MUSIC')).toEqual(['Cafe'])
    expect(await find('café')).toEqual(['Cafe'])
    expect(await find('cafe')).toEqual(['Plain'])
    expect(await find('50%')).toEqual(['Cafe'])
    expect(await find('50% off')).toEqual(['Cafe'])
    expect(await find('0%o')).toEqual([])
    expect(await find('cafe_')).toEqual(['Plain'])
    expect(await find('caf_')).toEqual([])
    expect(await find('music', { category: 'Music' })).toEqual(['Cafe'])
    expect(await find('music', { category: 'Arts' })).toEqual([])
    expect(await find('music', { from: day(2), to: day(3) })).toEqual([])
    expect(await find('music', { from: day(0), to: day(1) })).toEqual(['Cafe'])

    await db
      .update(events)
      .set({ eventDescription: 'Jazz at the bar.' })
      .where(eq(events.eventTitle, 'Plain'))
    expect(await find('cafe')).toEqual([])
    expect(await find('JAZZ')).toEqual(['Plain'])
    await db.update(events).set({ eventStatus: 'approved' }).where(eq(events.eventID, hidden.eventID))
    expect(await find('music')).toEqual(['Cafe', 'Refused'])

    const range = { today, from: day(0), to: day(3), perDay: 3 }
    const grid = await listEventsByDay({ ...EMPTY_CALENDAR_FILTERS, keyword: 'MUSIC' }, range)
    expect(grid.map((d) => [d.date, d.total, d.events.map((e) => e.eventTitle).sort()])).toEqual([
      [day(1), 2, ['Cafe', 'Refused']],
    ])
  })
})
