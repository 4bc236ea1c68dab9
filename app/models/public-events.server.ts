import {
  and,
  asc,
  count,
  eq,
  gte,
  inArray,
  isNull,
  lte,
  or,
  sql,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm'
import { alias, type PgSelect } from 'drizzle-orm/pg-core'
import { FEATURED_EVENTS_LIMIT } from '#app/constants.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { business, eventShowDates, events, showDateCounts, zipCentroids } from '#db/schema.ts'
import {
  dateWindow,
  EMPTY_CALENDAR_FILTERS,
  escapeLikePattern,
  listingStart,
  type CalendarFilters,
} from './calendar-filters.ts'
import type { DayEvents } from './calendar-month.ts'
import { businessPublicColumns } from './event.server.ts'
import { LIVE_STATUSES } from './event-status.ts'
import { cachedLiveEvents } from './live-events-cache.server.ts'

/** What public pages, feeds and the public API show of a live event: no provider or staff bookkeeping. */
const liveEventColumns = {
  eventID: events.eventID,
  createdDate: events.createdDate,
  businessID: events.businessID,
  businessName: events.businessName,
  eventTitle: events.eventTitle,
  category: events.category,
  showAdOnDates: events.showAdOnDates,
  eventDate: events.eventDate,
  firstShowDate: events.firstShowDate,
  lastShowDate: events.lastShowDate,
  daysOrdered: events.daysOrdered,
  eventDescription: events.eventDescription,
  stillPhotoURL: events.stillPhotoURL,
  videoURL: events.videoURL,
  totalCost: events.totalCost,
  contactPerson: events.contactPerson,
  contactEmail: events.contactEmail,
  contactPhone: events.contactPhone,
  approvedDateByBusiness: events.approvedDateByBusiness,
  approvedDateByAdmin: events.approvedDateByAdmin,
  paymentStatus: events.paymentStatus,
  eventStatus: events.eventStatus,
  ...businessPublicColumns,
}

export interface ListWindow {
  /** Today in the platform time zone (yyyy-mm-dd): events whose last date is before it are over. */
  today: string
  limit: number
  offset?: number
}

/** Live = approved, paid, and a show date today or later (docs/architecture.md, "An ad's lifecycle"): `isLive` in SQL. */
export function liveEventConditions(today: string): SQL[] {
  return [
    eq(events.eventStatus, LIVE_STATUSES.eventStatus),
    eq(events.paymentStatus, LIVE_STATUSES.paymentStatus),
    gte(events.lastShowDate, today),
  ]
}

const showDates = eventShowDates

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
function windowFromToday(filters: CalendarFilters, today: string) {
  const window = dateWindow(filters)
  return Boolean(window?.from && window.from >= today)
}

/**
 * The row each event is listed at: its first date from the listing's start (`listingStart`), and inside the window
 * when the window starts today or later. Other windows (one starting before today, or with no start) keep the next
 * date from today and are checked for a date in the window separately.
 */
function listingRow(row: typeof eventShowDates, filters: CalendarFilters, today: string) {
  const first = isFirstShowDateFrom(row, listingStart(filters, today))
  return windowFromToday(filters, today) ? and(first, lte(row.showDate, dateWindow(filters)!.to))! : first
}

/** The centre of the ZIP the distance filter measures from (joined on `filters.near`). */
const origin = alias(zipCentroids, 'origin')
const EARTH_RADIUS_MILES = 3958.8

/** Great-circle (haversine) miles from the origin to the business. */
const distanceMiles = sql<number>`${2 * EARTH_RADIUS_MILES} * asin(sqrt(least(1,
  power(sin(radians(${business.latitude} - ${origin.latitude}) / 2), 2)
  + cos(radians(${origin.latitude})) * cos(radians(${business.latitude}))
  * power(sin(radians(${business.longitude} - ${origin.longitude}) / 2), 2))))`

/**
 * Businesses within `radius` miles of the origin: a box around the circle the location index can answer, then the
 * exact distance. The box's half-width in longitude is the circle's widest, asin(sin(r/R) / cos(latitude)).
 */
function withinRadius(radius: number): SQL[] {
  const angle = radius / EARTH_RADIUS_MILES
  const halfHeight = (angle * 180) / Math.PI
  const halfWidth = sql`degrees(asin(least(1, ${Math.sin(angle)} / cos(radians(${origin.latitude})))))`
  return [
    sql`${business.latitude} BETWEEN ${origin.latitude} - ${halfHeight} AND ${origin.latitude} + ${halfHeight}`,
    sql`${business.longitude} BETWEEN ${origin.longitude} - ${halfWidth} AND ${origin.longitude} + ${halfWidth}`,
    sql`${distanceMiles} <= ${radius}`,
  ]
}

const needsBusiness = (filters: CalendarFilters) => Boolean(filters.zip || filters.near)

/** The business (for the ZIP and distance filters) and the distance filter's origin, joined when needed. */
function joinBusiness<T extends PgSelect>(query: T, filters: CalendarFilters): T {
  // A dynamic query joins in place; the selected columns do not change.
  if (needsBusiness(filters)) query.innerJoin(business, eq(business.businessID, events.businessID))
  if (filters.near) query.innerJoin(origin, eq(origin.zip, filters.near))
  return query
}

/**
 * Filters on the event's own columns and its business's ZIP and place (spec §5), combined with AND. `categories` is
 * the column the category is read from: the event's, or the copy on its show-date rows.
 */
function eventFilterConditions(filters: CalendarFilters, categories: SQLWrapper = events.category): SQL[] {
  const conditions: SQL[] = filters.near ? withinRadius(filters.radius) : []
  if (filters.category) {
    // Containment instead of `= ANY(...)`: the same meaning, and the GIN index on category can answer it.
    conditions.push(sql`${categories} @> ARRAY[${filters.category}]::text[]`)
  }
  if (filters.zip) {
    conditions.push(sql`${business.businessZip} ILIKE '%' || ${escapeLikePattern(filters.zip)} || '%'`)
  }
  if (filters.keyword) {
    // A plain ILIKE on the column, so the trigram index on the description can answer it.
    conditions.push(sql`${events.eventDescription} ILIKE '%' || ${escapeLikePattern(filters.keyword)} || '%'`)
  }
  return conditions
}

/** The date filter: one of the event's show dates lies in the window (a probe of the show-date table's key). */
function showsInWindow(eventID: SQLWrapper, filters: CalendarFilters): SQL | undefined {
  const window = dateWindow(filters)
  if (!window) return undefined
  const inWindow =
    window.from === null
      ? sql`w.show_date <= ${window.to}::date`
      : sql`w.show_date BETWEEN ${window.from}::date AND ${window.to}::date`
  return sql`EXISTS (SELECT 1 FROM event_show_dates AS w WHERE w.event_id = ${eventID} AND ${inWindow})`
}

/** Every filter on an event row, for the queries that start from the events. */
function filterConditions(filters: CalendarFilters): SQL[] {
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

const hasEventFilters = (filters: CalendarFilters) =>
  Boolean(filters.category || filters.zip || filters.keyword || filters.near)

/** Filters a show-date row cannot answer alone (it carries the categories, not the text or the place). */
const needsEventRow = (filters: CalendarFilters) => Boolean(filters.zip || filters.keyword || filters.near)

/**
 * How to find a page of matches, soonest first (each at its first date from the listing's start). `walk` reads the
 * show-date index in date order from that start and keeps the rows that are an event's first date and match: its
 * cost is the page (more when few events match). `candidates` finds the matching events first (through their own
 * indexes) and looks up each one's row: its cost is the number of matches. The cheaper one is chosen from the
 * counts, which are cached.
 */
export type ListingStrategy = 'walk' | 'candidates'

export function listingStrategy({
  matches,
  live,
  rows,
}: {
  matches: number
  live: number
  rows: number
}): ListingStrategy {
  if (matches === 0) return 'candidates'
  // A walk reads about `rows × live / matches` rows (`live`: the events it walks through); the candidates are the
  // matches themselves.
  return rows * live < matches * matches ? 'walk' : 'candidates'
}

/**
 * The ids and next show dates of one page of matches (not run), so the benchmark can EXPLAIN what the pages run.
 */
export function rankedLiveEventsQuery(
  filters: CalendarFilters,
  { today, limit, offset = 0 }: ListWindow,
  strategy: ListingStrategy,
) {
  // The walk reads in date order; nearest first needs every match's distance, so it starts from the candidates.
  if (strategy === 'walk' && filters.sort !== 'nearest') {
    const base = db.select({ id: showDates.eventId, next: showDates.showDate }).from(showDates).$dynamic()
    const withEvents = needsEventRow(filters)
      ? joinBusiness(base.innerJoin(events, eq(events.eventID, showDates.eventId)), filters)
      : base
    return withEvents
      .where(
        and(
          listingRow(showDates, filters, today),
          ...eventFilterConditions(filters, showDates.category),
          windowFromToday(filters, today) ? undefined : showsInWindow(showDates.eventId, filters),
        ),
      )
      .orderBy(asc(showDates.showDate), asc(showDates.eventId))
      .limit(limit)
      .offset(offset)
  }
  const candidates = db
    .select({ id: events.eventID, next: showDates.showDate })
    .from(events)
    .innerJoin(showDates, and(eq(showDates.eventId, events.eventID), listingRow(showDates, filters, today)))
    .$dynamic()
  const order = [asc(showDates.showDate), asc(events.eventID)]
  return joinBusiness(candidates, filters)
    .where(and(...liveEventConditions(today), ...filterConditions(filters)))
    .orderBy(...(filters.sort === 'nearest' ? [asc(distanceMiles), ...order] : order))
    .limit(limit)
    .offset(offset)
}

/** The category filter's key in `show_date_counts`: '' counts every event once. */
const EVERY_CATEGORY = ''

/**
 * The count (not run). Without a keyword, ZIP or distance, and with no date window or one from today on, it sums the
 * counts table over the window's days: each event is counted at its first date in the window (the row whose date is
 * in the window and whose previous date is before the window's start), and every such date is today or later, so the
 * event is live. Otherwise it counts the matching events.
 */
export function countLiveEventsQuery(filters: CalendarFilters, { today }: { today: string }) {
  const window = dateWindow(filters)
  if ((!window || windowFromToday(filters, today)) && !needsEventRow(filters)) {
    const from = listingStart(filters, today)
    return db
      .select({ n: sql<number>`coalesce(sum(${showDateCounts.events}), 0)::integer` })
      .from(showDateCounts)
      .where(
        and(
          eq(showDateCounts.category, filters.category || EVERY_CATEGORY),
          gte(showDateCounts.showDate, from),
          window ? lte(showDateCounts.showDate, window.to) : undefined,
          sql`${showDateCounts.previousDate} < ${from}::date`,
        ),
      )
  }
  // The join is only needed for the ZIP and distance filters; without it the events indexes answer the count.
  return joinBusiness(db.select({ n: count() }).from(events).$dynamic(), filters).where(
    and(...liveEventConditions(today), ...filterConditions(filters)),
  )
}

interface DayRange {
  today: string
  from: string
  to: string
  perDay: number
}

/**
 * A show-date row the month grid lists for these filters (no keyword, ZIP or distance): a grid day of an event still
 * live (its last date from today on), in the category. Named by its table, so inside the counts' lateral read it
 * cannot be taken for the counts' own `grid_day`.
 */
function gridRow(
  row: { gridDay: SQLWrapper; lastDate: SQLWrapper; category: SQLWrapper },
  filters: CalendarFilters,
  today: string,
) {
  return and(
    sql`${row.gridDay}`,
    sql`${row.lastDate} >= ${today}::date`,
    ...eventFilterConditions(filters, row.category),
  )
}

/** A show-date row's place among its day's rows (by event id), and how many rows its day has. */
function rankInDay() {
  return {
    rank: sql<number>`row_number() OVER (PARTITION BY ${showDates.showDate} ORDER BY ${showDates.eventId})`.as(
      'rank',
    ),
    dayTotal: sql<number>`count(*) OVER (PARTITION BY ${showDates.showDate})`.as('day_total'),
  }
}

/** What a day of the grid shows of each event it lists, with the day and its total from `day`. */
function listedEvent<D, T>(day: { date: D; dayTotal: T }) {
  return {
    date: day.date,
    eventID: events.eventID,
    eventTitle: events.eventTitle,
    category: events.category,
    dayTotal: day.dayTotal,
  }
}

const daysBetween = (from: string, to: string) =>
  sql`${showDates.showDate} BETWEEN ${from}::date AND ${to}::date`

/** The grid's days from today on: each day's total summed from the counts, and its first events from the rows. */
function daysFromCounts(filters: CalendarFilters, { today, from, to, perDay }: DayRange) {
  const days = db
    .select({
      date: showDateCounts.showDate,
      dayTotal: sql<number>`sum(${showDateCounts.events})::integer`.as('day_total'),
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
    .as('days')
  const row = alias(eventShowDates, 'listed_row')
  const listed = db
    .select({ eventID: row.eventId })
    .from(row)
    .where(and(eq(row.showDate, days.date), gridRow(row, filters, today)))
    .orderBy(asc(row.eventId))
    .limit(perDay)
    .as('listed')
  return db
    .select(listedEvent(days))
    .from(days)
    .crossJoinLateral(listed)
    .innerJoin(events, eq(events.eventID, listed.eventID))
    .orderBy(asc(days.date), asc(events.eventID))
}

/**
 * The grid's days before today (the current month's): the counts include events that are over there, so the rows
 * of events still running are counted from the grid index itself.
 */
function daysFromRows(filters: CalendarFilters, { today, from, to, perDay }: DayRange) {
  const ranked = db
    .select({
      date: showDates.showDate,
      eventID: showDates.eventId,
      ...rankInDay(),
    })
    .from(showDates)
    .where(and(daysBetween(from, to), gridRow(showDates, filters, today)))
    .as('ranked')
  return db
    .select(listedEvent(ranked))
    .from(ranked)
    .innerJoin(events, eq(events.eventID, ranked.eventID))
    .where(lte(ranked.rank, perDay))
    .orderBy(asc(ranked.date), asc(ranked.eventID))
}

/** With a keyword, ZIP or distance: the matching events joined to their rows. */
function daysFromMatches(filters: CalendarFilters, { today, from, to, perDay }: DayRange) {
  const query = db
    .select({
      date: showDates.showDate,
      eventID: events.eventID,
      eventTitle: events.eventTitle,
      category: events.category,
      ...rankInDay(),
    })
    .from(showDates)
    .innerJoin(events, eq(events.eventID, showDates.eventId))
    .$dynamic()
  const ranked = joinBusiness(query, filters)
    .where(
      and(
        daysBetween(from, to),
        sql`${showDates.gridDay}`,
        ...liveEventConditions(today),
        ...eventFilterConditions(filters),
      ),
    )
    .as('ranked')
  return db
    .select({
      date: ranked.date,
      eventID: ranked.eventID,
      eventTitle: ranked.eventTitle,
      category: ranked.category,
      dayTotal: ranked.dayTotal,
    })
    .from(ranked)
    .where(lte(ranked.rank, perDay))
    .orderBy(asc(ranked.date), asc(ranked.rank))
}

/**
 * The queries (not run) for the live events matching `filters` on each day from `from` to `to`: the first `perDay`
 * of each day by id, and the day's count. A day lists an event on its own date when it has one, else on each of its
 * display dates (`eventDates`): the show-date rows are both, and `grid_day` says which of them the grid lists.
 * Without a keyword, ZIP or distance, the days from today on cost the month's days (counts), and the days before
 * today their rows; otherwise the matching events are read. Named, so the benchmark can EXPLAIN them.
 */
export function eventsByDayQueries(filters: CalendarFilters, range: DayRange) {
  if (needsEventRow(filters)) return [['month', daysFromMatches(filters, range)]] as const
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
    day.events.push({ eventID: row.eventID, eventTitle: row.eventTitle, category: row.category })
  }
  return [...days.values()]
}

export type LiveEvent = Awaited<ReturnType<typeof listLiveEvents>>[number]

/** The page's events with their business, in the order of `ranked`. */
async function eventsInOrder(ranked: Array<{ id: number; next: string }>) {
  if (ranked.length === 0) return []
  const rows = await db
    .select(liveEventColumns)
    .from(events)
    .innerJoin(business, eq(business.businessID, events.businessID))
    .where(
      inArray(
        events.eventID,
        ranked.map((r) => r.id),
      ),
    )
  const byID = new Map(rows.map((row) => [row.eventID, row]))
  return ranked.flatMap(({ id, next }) => {
    const row = byID.get(id)
    return row
      ? [{ ...row, nextShowDate: next, stillPhotoPath: row.stillPhotoURL, videoPath: row.videoURL }]
      : []
  })
}

/**
 * One page of live events matching `filters`, soonest upcoming date first (then id). Every filter runs in SQL, so
 * only the requested page leaves the database. Without counts, a walk is used when no filter but dates is set.
 */
export async function listLiveEvents(
  filters: CalendarFilters,
  window: ListWindow,
  strategy: ListingStrategy = hasEventFilters(filters) ? 'candidates' : 'walk',
) {
  return eventsInOrder(await rankedLiveEventsQuery(filters, window, strategy))
}

/** How many live events match `filters`. */
export async function countLiveEvents(
  filters: CalendarFilters,
  { today }: { today: string },
): Promise<number> {
  const [row] = await countLiveEventsQuery(filters, { today })
  return row?.n ?? 0
}

/** Ids and last change of every live event, for the sitemap. */
export async function listLiveEventIds({ today, limit }: { today: string; limit: number }) {
  return db
    .select({ eventID: events.eventID, approvedDateByAdmin: events.approvedDateByAdmin })
    .from(events)
    .where(and(...liveEventConditions(today)))
    .orderBy(asc(events.eventID))
    .limit(limit)
}

export const CALENDAR_PAGE_SIZE = 24

export interface CalendarListing {
  total: number
  /** The first FEATURED_EVENTS_LIMIT matches. */
  featured: LiveEvent[]
  /** The requested page of matches. */
  events: LiveEvent[]
  page: number
  pageCount: number
}

/** A cached count of live events matching `filters` (one per filter set, whatever the page). */
export function getLiveEventsCount(filters: CalendarFilters, { today }: { today: string }) {
  const key = JSON.stringify(['count', today, filters])
  return cachedLiveEvents(key, () => countLiveEvents(filters, { today }))
}

/** The events a walk reads through for these filters: every live event, or for a window from today on, its own. */
function walkedEvents(filters: CalendarFilters, today: string): CalendarFilters {
  return windowFromToday(filters, today)
    ? { ...EMPTY_CALENDAR_FILTERS, from: filters.from, to: filters.to }
    : EMPTY_CALENDAR_FILTERS
}

/**
 * A cached page of live events for the public pages, the feeds and the public API. The counts (cached too) choose
 * the query, and a page past the end costs no listing query.
 */
export function getLiveEventsPage(filters: CalendarFilters, { today, limit, offset = 0 }: ListWindow) {
  const key = JSON.stringify(['list', today, limit, offset, filters])
  return cachedLiveEvents(key, async () => {
    const [matches, live] = await Promise.all([
      getLiveEventsCount(filters, { today }),
      getLiveEventsCount(walkedEvents(filters, today), { today }),
    ])
    if (offset >= matches) return []
    const strategy = listingStrategy({ matches, live, rows: offset + limit })
    return listLiveEvents(filters, { today, limit, offset }, strategy)
  })
}

/**
 * What the calendar page shows for these filters: the number of matches, the featured strip and one page of the
 * grid. On page 1 the featured strip is the grid's own first rows; later pages share page 1's cached strip and count.
 */
export async function loadCalendarListing(
  filters: CalendarFilters,
  { today, page, pageSize = CALENDAR_PAGE_SIZE }: { today: string; page: number; pageSize?: number },
): Promise<CalendarListing> {
  const offset = (page - 1) * pageSize
  const [total, pageEvents, featured] = await Promise.all([
    getLiveEventsCount(filters, { today }),
    getLiveEventsPage(filters, { today, limit: pageSize, offset }),
    page === 1 && pageSize >= FEATURED_EVENTS_LIMIT
      ? null
      : getLiveEventsPage(filters, { today, limit: FEATURED_EVENTS_LIMIT }),
  ])
  return {
    total,
    featured: featured ?? pageEvents.slice(0, FEATURED_EVENTS_LIMIT),
    events: pageEvents,
    page,
    pageCount: Math.max(1, Math.ceil(total / pageSize)),
  }
}

/** The queries the calendar runs for these filters and page, named, for the benchmark's EXPLAIN. */
export async function explainCalendarQueries(
  filters: CalendarFilters,
  { today, page }: { today: string; page: number },
): Promise<Array<[string, SQLWrapper]>> {
  const offset = (page - 1) * CALENDAR_PAGE_SIZE
  const [matches, live] = await Promise.all([
    countLiveEvents(filters, { today }),
    countLiveEvents(walkedEvents(filters, today), { today }),
  ])
  const strategy = listingStrategy({ matches, live, rows: offset + CALENDAR_PAGE_SIZE })
  const queries: Array<[string, SQLWrapper]> = [
    ['count', countLiveEventsQuery(filters, { today })],
    [
      `listing (${strategy})`,
      rankedLiveEventsQuery(filters, { today, limit: CALENDAR_PAGE_SIZE, offset }, strategy),
    ],
  ]
  if (page > 1) {
    const featured = listingStrategy({ matches, live, rows: FEATURED_EVENTS_LIMIT })
    queries.push([
      `featured (${featured})`,
      rankedLiveEventsQuery(filters, { today, limit: FEATURED_EVENTS_LIMIT }, featured),
    ])
  }
  return queries
}
