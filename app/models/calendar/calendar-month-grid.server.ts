/** The calendar's month grid: for each day, its first live events matching the filters and how many there are. */
import { and, asc, eq, gte, lte, sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import { alias, type SubqueryWithSelection } from 'drizzle-orm/pg-core'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { eventShowDates, events, liveEventTexts, showDateCounts } from '#db/schema.ts'
import { eventTimesOf } from '#app/models/ads/event-times.ts'
import { scheduleStatusOf } from '#app/models/ads/schedule-status.ts'
import { dateWindow, type CalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import type { DayEvents } from '#app/models/calendar/calendar-month.ts'
import {
  cancelledEventIds,
  eventFilterConditions,
  EVERY_CATEGORY,
  joinBusiness,
  liveEventConditions,
  liveTextConditions,
  needsEventRow,
  rowCountInText,
} from '#app/models/calendar/calendar-filter-sql.server.ts'

const showDates = eventShowDates

interface DayRange {
  today: string
  from: string
  to: string
  perDay: number
}

/**
 * A show-date row the month grid lists for these filters (no keyword, ZIP, distance or practical fact): a grid day of
 * an event still live (its last date from today on), in the category. Named by its table, so inside the counts'
 * lateral read it cannot be taken for the counts' own `grid_day`.
 */
function gridRow(
  row: { gridDay: SQLWrapper; lastDate: SQLWrapper; category: SQLWrapper; eventID: SQLWrapper },
  filters: CalendarFilters,
  today: string,
) {
  return and(
    sql`${row.gridDay}`,
    sql`${row.lastDate} >= ${today}::date`,
    ...eventFilterConditions(filters, row, today),
  )
}

/** The columns of a subquery of day pairs: a day of the grid, an event it lists and the event's start time. */
function dayPair(day: SQLWrapper, eventID: SQLWrapper, startTime: SQLWrapper) {
  return {
    date: sql<string>`${day}`.as('date'),
    eventID: sql<number>`${eventID}`.as('event_id'),
    startTime: sql<string | null>`${startTime}`.as('start_time'),
  }
}

/** A day's events in start-time order, all-day first, then by id. */
const byTime = (startTime: SQLWrapper, eventID: SQLWrapper) =>
  sql`${startTime} ASC NULLS FIRST, ${eventID} ASC`

type DayPairs = SubqueryWithSelection<ReturnType<typeof dayPair>, 'pairs'>

/** What a day of the grid shows of each event it lists, with the day and its total from `day`. */
function listedEvent<D, T>(day: { date: D; dayTotal: T }) {
  return {
    date: day.date,
    eventID: events.eventID,
    eventTitle: events.eventTitle,
    category: events.category,
    startTime: events.startTime,
    scheduleStatus: events.scheduleStatus,
    dayTotal: day.dayTotal,
  }
}

/** The order of a day's listed events: the grid's days, each in time order. */
const dayOrder = (date: SQLWrapper) => [asc(date), byTime(events.startTime, events.eventID)]

/**
 * Each day of `pairs`: how many events it lists, and the first `perDay` of them by time with what the grid shows of
 * them. One aggregate per day, its ids in order, cut to the first ones: no window over the pairs, and only the
 * listed events are read (a month with a broad keyword: 5 ms where two windows took 14).
 */
function firstOfEachDay(pairs: DayPairs, perDay: number) {
  const days = db
    .select({
      date: pairs.date,
      dayTotal: sql<number>`count(*)::integer`.as('day_total'),
      firstIds: sql<
        number[]
      >`(array_agg(${pairs.eventID} ORDER BY ${byTime(pairs.startTime, pairs.eventID)}))[1:${rowCountInText(perDay)}]`.as(
        'first_ids',
      ),
    })
    .from(pairs)
    .groupBy(pairs.date)
    .as('days')
  return db
    .select(listedEvent(days))
    .from(days)
    .innerJoin(events, sql`${events.eventID} = ANY(${days.firstIds})`)
    .orderBy(...dayOrder(days.date))
}

const daysBetween = (from: string, to: string) =>
  sql`${showDates.showDate} BETWEEN ${from}::date AND ${to}::date`

/**
 * "Hide cancelled" on the counts: how many of each day's grid rows are cancelled events', found from those few
 * events (`cancelledEventIds`) rather than from the day's rows.
 */
function cancelledPerDay(filters: CalendarFilters, { today, from, to }: DayRange) {
  return db
    .select({
      date: sql<string>`${showDates.showDate}`.as('cancelled_date'),
      events: sql<number>`count(*)::integer`.as('cancelled'),
    })
    .from(showDates)
    .where(
      and(
        daysBetween(from, to),
        gridRow(showDates, { ...filters, hideCancelled: false }, today),
        sql`${showDates.eventID} IN (${cancelledEventIds(today)})`,
      ),
    )
    .groupBy(showDates.showDate)
    .as('cancelled_days')
}

/**
 * The grid's days from today on: each day's total summed from the counts (less its cancelled events' rows when
 * they are hidden), and its first events from the rows.
 */
function daysFromCounts(filters: CalendarFilters, range: DayRange) {
  const { today, from, to, perDay } = range
  const counted = db
    .select({
      date: sql<string>`${showDateCounts.showDate}`.as('date'),
      dayTotal: sql<number>`sum(${showDateCounts.events})::integer`.as('counted_total'),
    })
    .from(showDateCounts)
    .where(
      and(
        eq(showDateCounts.category, filters.category || EVERY_CATEGORY),
        gte(showDateCounts.showDate, from),
        lte(showDateCounts.showDate, to),
        eq(showDateCounts.gridDay, true),
      ),
    )
    .groupBy(showDateCounts.showDate)
    .as('counted')
  const cancelled = filters.hideCancelled ? cancelledPerDay(filters, range) : null
  const withCancelled = db
    .select({
      date: counted.date,
      dayTotal: (cancelled
        ? sql<number>`${counted.dayTotal} - coalesce(${cancelled.events}, 0)`
        : sql<number>`${counted.dayTotal}`
      ).as('day_total'),
    })
    .from(counted)
    .$dynamic()
  if (cancelled) withCancelled.leftJoin(cancelled, eq(cancelled.date, counted.date))
  return firstByTime(withCancelled.as('days'), filters, { today, perDay })
}

/**
 * Each of `days` (a date and its total) with its first `perDay` events in time order: the day's grid rows read from
 * `event_show_dates_grid_time_idx` in that order, the first that match kept.
 */
function firstByTime(
  days: SubqueryWithSelection<{ date: SQL.Aliased<string>; dayTotal: SQL.Aliased<number> }, 'days'>,
  filters: CalendarFilters,
  { today, perDay }: { today: string; perDay: number },
) {
  const row = alias(eventShowDates, 'listed_row')
  const listed = db
    .select({ eventID: row.eventID })
    .from(row)
    .where(and(eq(row.showDate, days.date), gridRow(row, filters, today)))
    .orderBy(byTime(row.startTime, row.eventID))
    .limit(rowCountInText(perDay))
    .as('listed')
  return db
    .select(listedEvent(days))
    .from(days)
    .crossJoinLateral(listed)
    .innerJoin(events, eq(events.eventID, listed.eventID))
    .orderBy(...dayOrder(days.date))
}

/**
 * The grid's days before today (the current month's): the counts include events that are over there, so the rows
 * of events still running are counted from the grid index itself.
 */
function dayRows(filters: CalendarFilters, { today, from, to }: DayRange): DayPairs {
  return db
    .select(dayPair(showDates.showDate, showDates.eventID, showDates.startTime))
    .from(showDates)
    .where(and(daysBetween(from, to), gridRow(showDates, filters, today)))
    .as('pairs')
}

function daysFromRows(filters: CalendarFilters, range: DayRange) {
  return firstOfEachDay(dayRows(filters, range), range.perDay)
}

/**
 * With a keyword and no filter that needs the event row: the matching rows of `live_event_texts`, each on the days
 * the grid lists it (`grid_dates`) with its start time, so no show-date row or event is read but the listed ones.
 */
function textDays(filters: CalendarFilters, { today, from, to }: DayRange): DayPairs {
  const day = sql`grid_day.d`
  return db
    .select(dayPair(day, liveEventTexts.eventID, liveEventTexts.startTime))
    .from(sql`${liveEventTexts} CROSS JOIN LATERAL unnest(${liveEventTexts.gridDates}) AS grid_day(d)`)
    .where(and(sql`${day} BETWEEN ${from}::date AND ${to}::date`, ...liveTextConditions(filters, today)))
    .as('pairs')
}

function daysFromTexts(filters: CalendarFilters, range: DayRange) {
  return firstOfEachDay(textDays(filters, range), range.perDay)
}

/** With a ZIP, distance or practical fact: the matching events joined to their rows. */
function matchingDays(filters: CalendarFilters, { today, from, to }: DayRange): DayPairs {
  const query = db
    .select(dayPair(showDates.showDate, showDates.eventID, showDates.startTime))
    .from(showDates)
    .innerJoin(events, eq(events.eventID, showDates.eventID))
    .$dynamic()
  return joinBusiness(query, filters)
    .where(
      and(
        daysBetween(from, to),
        sql`${showDates.gridDay}`,
        ...liveEventConditions(today),
        ...eventFilterConditions(filters),
      ),
    )
    .as('pairs')
}

function daysFromMatches(filters: CalendarFilters, range: DayRange) {
  return firstOfEachDay(matchingDays(filters, range), range.perDay)
}

/**
 * The queries (not run) for the live events matching `filters` on each day from `from` to `to`: the first `perDay`
 * of each day by start time (all-day first, then id), and the day's count. A day lists an event on its own date when it has one, else on each of its
 * display dates (`eventDates`): the show-date rows are both, and `grid_day` says which of them the grid lists.
 * Without a keyword, ZIP, distance or practical fact, the days from today on cost the month's days (counts), and
 * the days before today their rows; with a keyword alone (or with a category), the matching rows of the keyword's
 * table; otherwise the matching events. Named, so the benchmark can EXPLAIN them.
 */
export function eventsByDayQueries(filters: CalendarFilters, range: DayRange) {
  if (needsEventRow(filters)) return [['month', daysFromMatches(filters, range)]] as const
  if (filters.keyword) return [['month', daysFromTexts(filters, range)]] as const
  const { today, from, to } = range
  const queries: Array<
    readonly [string, ReturnType<typeof daysFromRows> | ReturnType<typeof daysFromCounts>]
  > = []
  if (from < today) {
    const yesterday = addDaysIso(today, -1)
    queries.push([
      'month (days before today)',
      daysFromRows(filters, { ...range, to: to < today ? to : yesterday }),
    ])
  }
  if (to >= today)
    queries.push(['month', daysFromCounts(filters, { ...range, from: from < today ? today : from })])
  return queries
}

/**
 * The month grid's days from `from` to `to` (only days with a match), within the filters' own date window: a day
 * outside it shows nothing, as the list would.
 */
export async function listEventsByDay(
  filters: CalendarFilters,
  range: { today: string; from: string; to: string; perDay: number },
): Promise<DayEvents[]> {
  const window = dateWindow(filters)
  const from = window?.from && window.from > range.from ? window.from : range.from
  const to = window && window.to < range.to ? window.to : range.to
  if (from > to) return []
  const parts = await Promise.all(
    eventsByDayQueries(filters, { ...range, from, to }).map(([, query]) => query),
  )
  const days = new Map<string, DayEvents>()
  for (const row of parts.flat()) {
    let day = days.get(row.date)
    if (!day) days.set(row.date, (day = { date: row.date, events: [], total: Number(row.dayTotal) }))
    day.events.push({
      eventID: row.eventID,
      eventTitle: row.eventTitle,
      category: row.category,
      startTime: eventTimesOf(row).startTime,
      scheduleStatus: scheduleStatusOf(row.scheduleStatus),
    })
  }
  return [...days.values()]
}
