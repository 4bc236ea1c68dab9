import { and, asc, count, eq, gte, sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import { FEATURED_EVENTS_LIMIT, UNSET_DATE } from '#app/constants.ts'
import { db } from '#db/client.server.ts'
import { business, events } from '#db/schema.ts'
import { dateWindow, escapeLikePattern, type CalendarFilters } from './calendar-filters.ts'
import { businessPublicColumns } from './event.server.ts'
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

/** Live = approved, paid, and a show date today or later (ARCHITECTURE.md, lifecycle); matches `isLive`. */
function liveConditions(today: string): SQL[] {
  return [
    eq(events.eventStatus, 'approved'),
    eq(events.paymentStatus, 'paid'),
    gte(events.lastShowDate, today),
  ]
}

/** Every filter in SQL (spec §5), combined with AND. */
function filterConditions(filters: CalendarFilters): SQL[] {
  const conditions: SQL[] = []
  if (filters.category) {
    // Containment instead of `= ANY(...)`: the same meaning, and the GIN index on category can answer it.
    conditions.push(sql`${events.category} @> ARRAY[${filters.category}]::text[]`)
  }
  if (filters.zip) {
    conditions.push(sql`${business.businessZip} ILIKE '%' || ${escapeLikePattern(filters.zip)} || '%'`)
  }
  if (filters.keyword) {
    // A plain ILIKE on the column, so the trigram index on the description can answer it.
    conditions.push(sql`${events.eventDescription} ILIKE '%' || ${escapeLikePattern(filters.keyword)} || '%'`)
  }
  const window = dateWindow(filters)
  if (window) {
    const to = sql`${window.to}::date`
    const from = window.from === null ? null : sql`${window.from}::date`
    const inWindow = (value: SQL) => (from ? sql`${value} BETWEEN ${from} AND ${to}` : sql`${value} <= ${to}`)
    // The stored bounds narrow the candidates with an index; the exact test then looks at each date. An event
    // with no dates has null bounds and never matches.
    conditions.push(sql`${events.firstShowDate} <= ${to}`)
    if (from) conditions.push(sql`${events.lastShowDate} >= ${from}`)
    conditions.push(
      sql`((${events.eventDate} <> ${UNSET_DATE}::date AND ${inWindow(sql`${events.eventDate}`)})
        OR EXISTS (SELECT 1 FROM unnest(${events.showAdOnDates}) AS d WHERE ${inWindow(sql`d`)}))`,
    )
  }
  return conditions
}

/**
 * The first of the event's dates (event date and display dates) that is today or later. An event that has not
 * started yet begins on its stored first date, so only events already running need their dates looked at.
 */
function nextShowDate(today: string) {
  return sql<string>`CASE WHEN ${events.firstShowDate} >= ${today}::date THEN ${events.firstShowDate}
    ELSE (SELECT min(d) FROM unnest(array_append(${events.showAdOnDates},
      CASE WHEN ${events.eventDate} <> ${UNSET_DATE}::date THEN ${events.eventDate} END)) AS d
      WHERE d >= ${today}::date) END`
}

/**
 * The listing query itself (not run), so the benchmark can EXPLAIN exactly what the pages run. The page of ids is
 * chosen first from the events alone; the business columns are joined for those rows only.
 */
export function liveEventsQuery(filters: CalendarFilters, { today, limit, offset = 0 }: ListWindow) {
  const next = nextShowDate(today)
  const candidates = db
    .select({ id: sql<number>`${events.eventID}`.as('id'), next: next.as('next') })
    .from(events)
  const ranked = (
    filters.zip ? candidates.innerJoin(business, eq(business.businessID, events.businessID)) : candidates
  )
    .where(and(...liveConditions(today), ...filterConditions(filters)))
    .orderBy(asc(next), asc(events.eventID))
    .limit(limit)
    .offset(offset)
    .as('ranked')
  return db
    .select({ ...liveEventColumns, nextShowDate: sql<string>`${ranked.next}::text` })
    .from(ranked)
    .innerJoin(events, eq(events.eventID, ranked.id))
    .innerJoin(business, eq(business.businessID, events.businessID))
    .orderBy(asc(ranked.next), asc(ranked.id))
}

export function countLiveEventsQuery(filters: CalendarFilters, { today }: { today: string }) {
  const query = db.select({ n: count() }).from(events)
  // The join is only needed for the ZIP filter; without it the count can be answered from the events indexes.
  return (filters.zip ? query.innerJoin(business, eq(business.businessID, events.businessID)) : query).where(
    and(...liveConditions(today), ...filterConditions(filters)),
  )
}

export type LiveEvent = Awaited<ReturnType<typeof listLiveEvents>>[number]

/**
 * One page of live events matching `filters`, soonest upcoming date first (then id). Every filter runs in SQL, so
 * only the requested page leaves the database.
 */
export async function listLiveEvents(filters: CalendarFilters, window: ListWindow) {
  const rows = await liveEventsQuery(filters, window)
  return rows.map((row) => ({ ...row, stillPhotoPath: row.stillPhotoURL, videoPath: row.videoURL }))
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
    .where(and(...liveConditions(today)))
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

/**
 * What the calendar page shows for these filters: the number of matches, the featured strip and one page of the
 * grid. On page 1 the featured strip is the grid's own first rows.
 */
export async function loadCalendarListing(
  filters: CalendarFilters,
  { today, page, pageSize = CALENDAR_PAGE_SIZE }: { today: string; page: number; pageSize?: number },
): Promise<CalendarListing> {
  const total = await countLiveEvents(filters, { today })
  const pageCount = Math.max(1, Math.ceil(total / pageSize))
  const offset = (page - 1) * pageSize
  const pageEvents = total > offset ? await listLiveEvents(filters, { today, limit: pageSize, offset }) : []
  const featured =
    page === 1 && pageSize >= FEATURED_EVENTS_LIMIT
      ? pageEvents.slice(0, FEATURED_EVENTS_LIMIT)
      : total > 0
        ? await listLiveEvents(filters, { today, limit: FEATURED_EVENTS_LIMIT })
        : []
  return { total, featured, events: pageEvents, page, pageCount }
}

/** A cached page of live events for the public page, the feeds and the public API. */
export function getLiveEventsPage(filters: CalendarFilters, { today, limit, offset = 0 }: ListWindow) {
  const key = JSON.stringify(['list', today, limit, offset, filters])
  return cachedLiveEvents(key, () => listLiveEvents(filters, { today, limit, offset }))
}

/** A cached count of live events matching `filters`. */
export function getLiveEventsCount(filters: CalendarFilters, { today }: { today: string }) {
  const key = JSON.stringify(['count', today, filters])
  return cachedLiveEvents(key, () => countLiveEvents(filters, { today }))
}

/** The queries the calendar runs for these filters and page, named, for the benchmark's EXPLAIN. */
export async function explainCalendarQueries(
  filters: CalendarFilters,
  { today, page }: { today: string; page: number },
): Promise<Array<[string, SQLWrapper]>> {
  const offset = (page - 1) * CALENDAR_PAGE_SIZE
  return [
    ['count', countLiveEventsQuery(filters, { today })],
    ['listing', liveEventsQuery(filters, { today, limit: CALENDAR_PAGE_SIZE, offset })],
    ...(page > 1
      ? ([['featured', liveEventsQuery(filters, { today, limit: FEATURED_EVENTS_LIMIT })]] as Array<
          [string, SQLWrapper]
        >)
      : []),
  ]
}
