/**
 * The calendar's filters in SQL, shared by the listing, the count and the month grid: what "live" means in SQL, the
 * show-date row an event is listed at, the distance from a ZIP, and the category, ZIP, keyword and date filters.
 */
import { and, eq, gte, isNull, lte, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import { alias, type PgSelect } from 'drizzle-orm/pg-core'
import { PLANNED_WITH_VALUES } from '#db/pglite-prepared.js'
import { business, eventShowDates, events, liveEventTexts, zipCentroids } from '#db/schema.ts'
import {
  dateWindow,
  escapeLikePattern,
  hasFactFilters,
  listingStart,
  type CalendarFilters,
} from '#app/models/calendar/calendar-filters.ts'
import { LIVE_STATUSES } from '#app/models/ads/event-status.ts'

/**
 * A number of rows (a LIMIT or an OFFSET) written into the statement's text instead of passed as a parameter. With a
 * parameter the planner cannot tell a page of 24 rows from a million, so a prepared statement never settles on its
 * generic plan and every run is planned anew (about a millisecond on the embedded database); with the number written
 * in, it plans once. Only a whole number is accepted, so nothing else can reach the text.
 */
export function rowCountInText(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`Not a number of rows: ${n}`)
  // drizzle writes an SQL object given as a limit or offset into the statement as it is.
  return sql.raw(String(n)) as unknown as number
}

/** Live = approved, paid, and a show date today or later (docs/architecture.md, "An ad's lifecycle"): `isLive` in SQL. */
/**
 * An approved, paid ad, with the statuses written into the statement's text: the predicate of the partial indexes of
 * live ads (`events_live_sponsored_idx`, `events_live_business_idx`), which a plan made once for every value (the
 * embedded database's generic plans) can only use when it sees the statuses themselves.
 */
export const isApprovedAndPaid = sql`${events.eventStatus} = ${sql.raw(`'${LIVE_STATUSES.eventStatus}'`)} AND ${events.paymentStatus} = ${sql.raw(`'${LIVE_STATUSES.paymentStatus}'`)}`

export function liveEventConditions(today: string): SQL[] {
  return [
    eq(events.eventStatus, LIVE_STATUSES.eventStatus),
    eq(events.paymentStatus, LIVE_STATUSES.paymentStatus),
    gte(events.lastShowDate, today),
  ]
}

/**
 * The show-date row that is its event's first date from `start`: the date is `start` or later and the one before it
 * (if any) is before `start`. The table holds only approved, paid events, so from today on such a row also means the
 * event is live.
 */
function isFirstShowDateFrom(row: typeof eventShowDates, start: string) {
  return and(
    gte(row.showDate, start),
    or(isNull(row.previousDate), sql`${row.previousDate} < ${start}::date`),
  )!
}

/** Whether the date filter is a window from today or later: then the row an event is listed at is inside it. */
export function windowFromToday(filters: CalendarFilters, today: string) {
  const window = dateWindow(filters)
  return Boolean(window?.from && window.from >= today)
}

/**
 * The row each event is listed at: its first date from the listing's start (`listingStart`), and inside the window
 * when the window starts today or later. Other windows (one starting before today, or with no start) keep the next
 * date from today and are checked for a date in the window separately.
 */
export function listingRow(row: typeof eventShowDates, filters: CalendarFilters, today: string) {
  const first = isFirstShowDateFrom(row, listingStart(filters, today))
  return windowFromToday(filters, today) ? and(first, lte(row.showDate, dateWindow(filters)!.to))! : first
}

/** The centre of the ZIP the distance filter measures from (joined on `filters.near`). */
const origin = alias(zipCentroids, 'origin')
const EARTH_RADIUS_MILES = 3958.8

/** Great-circle (haversine) miles from the origin to where the event is (its venue's ZIP centre, else its business's). */
export const distanceMiles = sql<number>`${2 * EARTH_RADIUS_MILES} * asin(sqrt(least(1,
  power(sin(radians(${events.placeLatitude} - ${origin.latitude}) / 2), 2)
  + cos(radians(${origin.latitude})) * cos(radians(${events.placeLatitude}))
  * power(sin(radians(${events.placeLongitude} - ${origin.longitude}) / 2), 2))))`

/**
 * Events within `radius` miles of the origin: a box around the circle the place index answers (`events_live_place_idx`:
 * a band of latitude, its longitude and last date read from the index), then the exact distance.
 * The box's half-width in longitude is the circle's widest, asin(sin(r/R) / cos(latitude)).
 */
function withinRadius(radius: number): SQL[] {
  const angle = radius / EARTH_RADIUS_MILES
  const halfHeight = (angle * 180) / Math.PI
  const halfWidth = sql`degrees(asin(least(1, ${Math.sin(angle)} / cos(radians(${origin.latitude})))))`
  return [
    sql`${events.placeLatitude} BETWEEN ${origin.latitude} - ${halfHeight} AND ${origin.latitude} + ${halfHeight}`,
    sql`${events.placeLongitude} BETWEEN ${origin.longitude} - ${halfWidth} AND ${origin.longitude} + ${halfWidth}`,
    sql`${distanceMiles} <= ${radius}`,
  ]
}

/**
 * How many businesses a ZIP or a place matches varies a thousandfold with its value ('8' or '80211', 5 miles or 50),
 * and the best plan with it: a statement with either filter is planned with its values at every run, never with a
 * generic plan made for none (db/pglite-prepared.js; postgres.js plans every statement so).
 */
const plannedWithValues = sql`TRUE ${sql.raw(PLANNED_WITH_VALUES)}`

/** The business (for the ZIP filter) and the distance filter's origin, joined when needed. */
export function joinBusiness<T extends PgSelect>(query: T, filters: CalendarFilters): T {
  // A dynamic query joins in place; the selected columns do not change.
  if (filters.zip) query.innerJoin(business, eq(business.businessID, events.businessID))
  if (filters.near) query.innerJoin(origin, eq(origin.zip, filters.near))
  return query
}

/**
 * The keyword filter on a row of `live_event_texts`: its lower-cased description holds the lower-cased keyword, which
 * is ILIKE's meaning, as a plain LIKE the table's trigram index answers.
 */
export function textMatches(keyword: string) {
  return sql`${liveEventTexts.description} LIKE '%' || lower(${escapeLikePattern(keyword)}) || '%'`
}

/** The columns the filters read an event's id and categories from: the event's, or the copies on other rows. */
interface EventKeys {
  eventID: SQLWrapper
  category: SQLWrapper
}
const eventKeys: EventKeys = { eventID: events.eventID, category: events.category }
/** The keys of a show-date row. */
export const showDateKeys: EventKeys = { eventID: eventShowDates.eventID, category: eventShowDates.category }
/** The keys of a row of `live_event_texts`, which answers the keyword itself. */
const textRowKeys: EventKeys = { eventID: liveEventTexts.eventID, category: liveEventTexts.category }

/** The status "Hide cancelled" leaves out (schedule-status.ts). */
export const CANCELLED = 'cancelled'

/** An event marked cancelled, on the event row. */
export const isCancelledEvent = sql`${events.scheduleStatus} = ${sql.raw(`'${CANCELLED}'`)}`

const cancelledEvent = alias(events, 'cancelled_event')

/**
 * The ids of the cancelled events still running from `today` (all of them without `today`): few, read from
 * `events_schedule_status_idx`, so a row that carries only the event's id is checked against them without the event.
 */
export function cancelledEventIds(today?: string) {
  return sql`SELECT ${cancelledEvent.eventID} FROM ${events} AS ${sql.identifier('cancelled_event')}
    WHERE ${cancelledEvent.scheduleStatus} = ${sql.raw(`'${CANCELLED}'`)}${
      today === undefined ? sql`` : sql` AND ${cancelledEvent.lastShowDate} >= ${today}::date`
    }`
}

/**
 * Filters on the event's own columns and its business's ZIP and place, combined with AND. `keys` are the
 * columns the event's id and categories are read from: the event's, or the copies on its show-date rows (which then
 * answer the category and keyword filters without the event). `today` bounds the cancelled events a row without its
 * event is checked against ("Hide cancelled") to those still running.
 */
export function eventFilterConditions(
  filters: CalendarFilters,
  keys: EventKeys = eventKeys,
  today?: string,
): SQL[] {
  const conditions: SQL[] = filters.zip || filters.near ? [plannedWithValues] : []
  if (filters.near) conditions.push(...withinRadius(filters.radius))
  if (filters.category) {
    // Containment instead of `= ANY(...)`: the same meaning, and the GIN index on category can answer it.
    conditions.push(sql`${keys.category} @> ARRAY[${filters.category}]::text[]`)
  }
  if (filters.zip) {
    conditions.push(sql`${business.businessZip} ILIKE '%' || ${escapeLikePattern(filters.zip)} || '%'`)
  }
  if (filters.keyword) {
    conditions.push(
      keys === eventKeys
        ? // On the ads themselves a plain ILIKE, so their trigram index can answer it together with the other
          // filters' indexes (the digests' approval times).
          sql`${events.eventDescription} ILIKE '%' || ${escapeLikePattern(filters.keyword)} || '%'`
        : keys === textRowKeys
          ? textMatches(filters.keyword)
          : sql`${keys.eventID} IN (SELECT ${liveEventTexts.eventID} FROM ${liveEventTexts} WHERE ${textMatches(filters.keyword)})`,
    )
  }
  if (filters.hideCancelled) {
    conditions.push(
      keys === eventKeys
        ? sql`${events.scheduleStatus} IS DISTINCT FROM ${sql.raw(`'${CANCELLED}'`)}`
        : sql`${keys.eventID} NOT IN (${cancelledEventIds(today)})`,
    )
  }
  // The practical facts: each written as its partial index's condition, so the index can answer it.
  if (filters.free) conditions.push(sql`${events.priceCents} = 0`)
  if (filters.online) conditions.push(sql`${events.attendanceMode} <> 'in_person'`)
  if (filters.access.length > 0) {
    conditions.push(
      sql`${events.accessibilityFeatures} @> ARRAY[${sql.join(
        filters.access.map((feature) => sql`${feature}`),
        sql`, `,
      )}]::text[]`,
    )
  }
  return conditions
}

/**
 * Live events matching filters that need no event row (`needsEventRow`), on `live_event_texts` alone: the table holds
 * approved, paid events, so a last date from today on means live. The date filter is `showsInWindow`'s.
 */
export function liveTextConditions(filters: CalendarFilters, today: string): SQL[] {
  return [gte(liveEventTexts.lastDate, today), ...eventFilterConditions(filters, textRowKeys, today)]
}

/** The date filter: one of the event's show dates lies in the window (a probe of the show-date table's key). */
export function showsInWindow(eventID: SQLWrapper, filters: CalendarFilters): SQL | undefined {
  const window = dateWindow(filters)
  if (!window) return undefined
  const inWindow =
    window.from === null
      ? sql`w.show_date <= ${window.to}::date`
      : sql`w.show_date BETWEEN ${window.from}::date AND ${window.to}::date`
  return sql`EXISTS (SELECT 1 FROM event_show_dates AS w WHERE w.event_id = ${eventID} AND ${inWindow})`
}

/** Every filter on an event row, for the queries that start from the events. */
export function filterConditions(filters: CalendarFilters): SQL[] {
  const conditions = eventFilterConditions(filters)
  const window = dateWindow(filters)
  if (!window) return conditions
  // The stored bounds are the first and last of the event's show dates: a window open at one end needs only them.
  if (window.from === null) return [...conditions, sql`${events.firstShowDate} <= ${window.to}::date`]
  if (!filters.to) {
    // Open-ended up to the limit: the last date decides, unless it lies beyond the limit.
    return [
      ...conditions,
      sql`${events.lastShowDate} >= ${window.from}::date`,
      or(sql`${events.lastShowDate} <= ${window.to}::date`, showsInWindow(events.eventID, filters))!,
    ]
  }
  // The bounds narrow the candidates with an index; the show-date table then answers exactly.
  conditions.push(
    sql`${events.firstShowDate} <= ${window.to}::date`,
    sql`${events.lastShowDate} >= ${window.from}::date`,
    showsInWindow(events.eventID, filters)!,
  )
  return conditions
}

export const hasEventFilters = (filters: CalendarFilters) =>
  Boolean(filters.category || filters.zip || filters.keyword || filters.near || hasFactFilters(filters))

/**
 * Filters a show-date row or a row of `live_event_texts` cannot answer alone: they carry the event's id and
 * categories (and the text table the keyword), not its place or its facts.
 */
export const needsEventRow = (filters: CalendarFilters) =>
  Boolean(filters.zip || filters.near || hasFactFilters(filters))

/** The category filter's key in `show_date_counts`: '' counts every event once. */
export const EVERY_CATEGORY = ''
