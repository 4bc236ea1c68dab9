/**
 * The calendar's list of live events: one page of matches, soonest first, by the cheaper of two ways to find them,
 * and their count. The caches in front of it are in cached-listing.server.ts.
 */
import { and, asc, count, eq, gte, lte, or, sql, type SQLWrapper } from 'drizzle-orm'
import { UNSET_DATE } from '#app/constants.ts'
import { keptWith } from '#app/utils/kept-with.ts'
import { db } from '#db/client.server.ts'
import { business, eventShowDates, events, liveEventTexts, showDateCounts } from '#db/schema.ts'
import {
  dateWindow,
  EMPTY_CALENDAR_FILTERS,
  listingStart,
  type CalendarFilters,
} from '#app/models/calendar/calendar-filters.ts'
import {
  distanceMiles,
  eventFilterConditions,
  EVERY_CATEGORY,
  filterConditions,
  hasEventFilters,
  isCancelledEvent,
  joinBusiness,
  listingRow,
  liveEventConditions,
  liveTextConditions,
  needsEventRow,
  rowCountInText,
  showDateKeys,
  showsInWindow,
  windowFromToday,
} from '#app/models/calendar/calendar-filter-sql.server.ts'
import { businessPublicColumns } from '#app/models/ads/event.server.ts'
import { practicalFactColumns } from '#app/models/ads/practical-facts.ts'

function pickColumns<T, K extends keyof T>(table: T, keys: readonly K[]) {
  return Object.fromEntries(keys.map((key) => [key, table[key]])) as Pick<T, K>
}

/** What public pages, feeds and the public API show of a live event: no provider or staff bookkeeping. */
export const liveEventColumns = {
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
  startTime: events.startTime,
  endTime: events.endTime,
  scheduleStatus: events.scheduleStatus,
  scheduleNote: events.scheduleNote,
  scheduleChangedAt: events.scheduleChangedAt,
  calendarSequence: events.calendarSequence,
  previousStartDate: events.previousStartDate,
  ...pickColumns(events, practicalFactColumns),
  ...businessPublicColumns,
}

export interface ListWindow {
  /** Today in the platform time zone (yyyy-mm-dd): events whose last date is before it are over. */
  today: string
  limit: number
  offset?: number
}

const showDates = eventShowDates

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

/** A listed row's start time, carried out of the ranked subquery so the page keeps its order. */
const startOf = (row: typeof showDates) => sql<string | null>`${row.startTime}`.as('start')

/**
 * "Soonest first": by date, then start time (all-day first), then id — the order of `event_show_dates_time_idx`, so
 * a walk reads that index in order.
 */
function soonestFirst(eventID: SQLWrapper) {
  return [asc(showDates.showDate), sql`${showDates.startTime} ASC NULLS FIRST`, sql`${eventID} ASC`]
}

/** The same order on the ranked subquery's columns, for the page around it. */
function rankedOrder(ranked: { distance: SQLWrapper; next: SQLWrapper; start: SQLWrapper; id: SQLWrapper }) {
  return [
    sql`${ranked.distance} ASC`,
    sql`${ranked.next} ASC`,
    sql`${ranked.start} ASC NULLS FIRST`,
    sql`${ranked.id} ASC`,
  ]
}

/**
 * The ids and next show dates of one page of matches (not run), so the benchmark can EXPLAIN what the pages run.
 */
export function rankedLiveEventsQuery(
  filters: CalendarFilters,
  { today, limit, offset = 0 }: ListWindow,
  strategy: ListingStrategy,
) {
  // A listed row lies inside a window from today on; other windows are checked on the event's dates.
  const inWindow = windowFromToday(filters, today) ? undefined : showsInWindow
  // The walk reads in date order; nearest first needs every match's distance, so it starts from the candidates.
  if (strategy === 'walk' && filters.sort !== 'nearest') {
    const base = db
      .select({
        id: sql<number>`${showDates.eventID}`.as('id'),
        next: sql<string>`${showDates.showDate}`.as('next'),
        start: startOf(showDates),
        distance: sql<number>`0`.as('distance'),
      })
      .from(showDates)
      .$dynamic()
    const withEvents = needsEventRow(filters)
      ? joinBusiness(base.innerJoin(events, eq(events.eventID, showDates.eventID)), filters)
      : base
    return withEvents
      .where(
        and(
          listingRow(showDates, filters, today),
          ...eventFilterConditions(filters, showDateKeys, today),
          inWindow?.(showDates.eventID, filters),
        ),
      )
      .orderBy(...soonestFirst(showDates.eventID))
      .limit(rowCountInText(limit))
      .offset(rowCountInText(offset))
  }
  if (filters.keyword && !needsEventRow(filters)) {
    // The keyword's table answers these filters itself: its matches, each joined to its listed row.
    return db
      .select({
        id: sql<number>`${liveEventTexts.eventID}`.as('id'),
        next: sql<string>`${showDates.showDate}`.as('next'),
        start: startOf(showDates),
        distance: sql<number>`0`.as('distance'),
      })
      .from(liveEventTexts)
      .innerJoin(
        showDates,
        and(eq(showDates.eventID, liveEventTexts.eventID), listingRow(showDates, filters, today)),
      )
      .where(and(...liveTextConditions(filters, today), inWindow?.(liveEventTexts.eventID, filters)))
      .orderBy(...soonestFirst(liveEventTexts.eventID))
      .limit(rowCountInText(limit))
      .offset(rowCountInText(offset))
  }
  const candidates = db
    .select({
      id: sql<number>`${events.eventID}`.as('id'),
      next: sql<string>`${showDates.showDate}`.as('next'),
      start: startOf(showDates),
      distance: (filters.sort === 'nearest' ? sql<number>`${distanceMiles}` : sql<number>`0`).as('distance'),
    })
    .from(events)
    .innerJoin(showDates, and(eq(showDates.eventID, events.eventID), listingRow(showDates, filters, today)))
    .$dynamic()
  const order = soonestFirst(events.eventID)
  return joinBusiness(candidates, filters)
    .where(and(...liveEventConditions(today), ...filterConditions(filters)))
    .orderBy(...(filters.sort === 'nearest' ? [asc(distanceMiles), ...order] : order))
    .limit(rowCountInText(limit))
    .offset(rowCountInText(offset))
}

/**
 * The count (not run). Without a keyword, ZIP, distance or practical fact, and with no date window or one that ends
 * today or later, it sums the counts table: each event is counted at its first date from the listing's start (the row whose date is
 * that start or later and whose previous date is before it), and every such date is today or later, so the event is
 * live. A window from today on counts the rows inside it. A window that starts before today (or has no start) counts
 * an event when its first date from today is inside the window or its last date before today (the row's previous
 * date) is on or after the window's start: that is exactly when one of its dates lies in the window. With a keyword
 * and no filter that needs the event row, it counts the matching rows of `live_event_texts`. Otherwise it counts the
 * matching events.
 */
export function countLiveEventsQuery(filters: CalendarFilters, { today }: { today: string }) {
  const window = dateWindow(filters)
  if (filters.keyword && !needsEventRow(filters)) {
    return db
      .select({ n: count() })
      .from(liveEventTexts)
      .where(and(...liveTextConditions(filters, today), showsInWindow(liveEventTexts.eventID, filters)))
  }
  if ((!window || window.to >= today) && !needsEventRow(filters)) {
    const from = listingStart(filters, today)
    const fromToday = !window || windowFromToday(filters, today)
    const earlierStart = window?.from ?? null
    // The counts hold every live event: "Hide cancelled" takes away the cancelled matches, which the status index
    // finds among few.
    const cancelled = filters.hideCancelled
      ? sql` - (${db
          .select({ n: count() })
          .from(events)
          .where(
            and(
              isCancelledEvent,
              ...liveEventConditions(today),
              ...filterConditions({ ...filters, hideCancelled: false }),
            ),
          )})`
      : sql``
    return db
      .select({ n: sql<number>`(coalesce(sum(${showDateCounts.events}), 0)${cancelled})::integer` })
      .from(showDateCounts)
      .where(
        and(
          eq(showDateCounts.category, filters.category || EVERY_CATEGORY),
          gte(showDateCounts.showDate, from),
          sql`${showDateCounts.previousDate} < ${from}::date`,
          !window
            ? undefined
            : fromToday
              ? lte(showDateCounts.showDate, window.to)
              : or(
                  lte(showDateCounts.showDate, window.to),
                  // '-infinity' stands for "no date before": a window with no start takes any earlier date.
                  earlierStart === null
                    ? sql`${showDateCounts.previousDate} > '-infinity'::date`
                    : gte(showDateCounts.previousDate, earlierStart),
                ),
        ),
      )
  }
  // The join is only needed for the ZIP and distance filters; without it the events indexes answer the count.
  return joinBusiness(db.select({ n: count() }).from(events).$dynamic(), filters).where(
    and(...liveEventConditions(today), ...filterConditions(filters)),
  )
}

export type LiveEvent = Awaited<ReturnType<typeof listLiveEvents>>[number]

/**
 * What a calendar card shows of a live event (event-tile.ts), and no more, whatever listing it is in. `eventDate` is
 * its own date (null when it has none).
 */
export interface EventCard {
  eventID: number
  eventTitle: string
  eventDescription: string
  category: string[]
  stillPhotoPath: string
  businessID: number
  businessName: string
  eventDate: string | null
  /** `hh:mm:ss` as stored (event-times.ts reads it); null = all day. */
  startTime: string | null
  endTime: string | null
  scheduleStatus: string | null
  priceCents: number | null
  attendanceMode: string
  accessibilityFeatures: string[]
}

/**
 * A card as a listing shows it. `date` is the one date the card shows (`nextEventDate` from the listing's start): the
 * event's own date when it has one, else its listed row's date, which is its first display date from the listing's
 * start.
 */
export interface LiveEventCard extends EventCard {
  date: string
  /** The listed row's date: the display date (or own date) the event is listed at, from the listing's start. */
  listedDate: string
}

/**
 * A card as one JSON object, built by the database: the row reaches the app as one value, with no column (the arrays
 * least of all, which the embedded database's driver parses slowly) parsed and mapped one by one. It comes as JSON
 * text, parsed here: the embedded database's thread then hands over one string, neither parsing it nor copying an
 * object to this thread.
 */
export function eventCardJson() {
  return sql<string>`json_build_object(
    'eventID', ${events.eventID},
    'eventTitle', ${events.eventTitle},
    'eventDescription', ${events.eventDescription},
    'category', ${events.category},
    'stillPhotoPath', ${events.stillPhotoURL},
    'businessID', ${events.businessID},
    'businessName', ${events.businessName},
    'eventDate', CASE WHEN ${events.eventDate} <> ${UNSET_DATE}::date THEN ${events.eventDate} END,
    'startTime', ${events.startTime},
    'endTime', ${events.endTime},
    'scheduleStatus', ${events.scheduleStatus},
    'priceCents', ${events.priceCents},
    'attendanceMode', ${events.attendanceMode},
    'accessibilityFeatures', ${events.accessibilityFeatures})::text`.mapWith((text: string): EventCard =>
    JSON.parse(text),
  )
}

const cardsByListedDate = keptWith<EventCard, LiveEventCard>()

/**
 * `card` as a listing lists it at `listedDate`. The same object comes back for the same card and date, so what is
 * built from it (its tile, the tile's markup) is built once.
 */
export function cardListedAt(card: EventCard, listedDate: string): LiveEventCard {
  return cardsByListedDate(card, listedDate, () => ({
    ...card,
    listedDate,
    date: card.eventDate ?? listedDate,
  }))
}

/** The cards of these events, by id (in no order; an id that is not an event is left out). */
export async function listEventCards(ids: readonly number[]): Promise<Map<number, EventCard>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .select({ card: eventCardJson() })
    .from(events)
    .where(sql`${events.eventID} = ANY(${idArray(ids)}::integer[])`)
  return new Map(rows.map(({ card }) => [card.eventID, card]))
}

/** `ids` as an array literal: whole numbers, so nothing else reaches the parameter. */
export const idArray = (ids: readonly number[]) => `{${ids.map((id) => Math.trunc(id)).join(',')}}`

/**
 * One page of matches with their events and businesses, in one statement (not run): the page's ids and dates
 * (`rankedLiveEventsQuery`), each joined to its event and business by key, in the page's order.
 */
export function liveEventsPageQuery(filters: CalendarFilters, window: ListWindow, strategy: ListingStrategy) {
  const ranked = rankedLiveEventsQuery(filters, window, strategy).as('ranked')
  return db
    .select({ ...liveEventColumns, nextShowDate: ranked.next })
    .from(ranked)
    .innerJoin(events, eq(events.eventID, ranked.id))
    .innerJoin(business, eq(business.businessID, events.businessID))
    .orderBy(...rankedOrder(ranked))
}

/** One page of matches as the ids of its events and the dates they are listed at, in the page's order (not run). */
export function listedEventsPageQuery(
  filters: CalendarFilters,
  window: ListWindow,
  strategy: ListingStrategy,
) {
  const ranked = rankedLiveEventsQuery(filters, window, strategy).as('ranked')
  return db
    .select({ eventID: ranked.id, listedDate: sql<string>`${ranked.next}::text` })
    .from(ranked)
    .orderBy(...rankedOrder(ranked))
}

export type ListedEvent = Awaited<ReturnType<typeof listedEventsPageQuery>>[number]

/** The same page with each event's card, in one statement (not run). */
export function listedEventCardsPageQuery(
  filters: CalendarFilters,
  window: ListWindow,
  strategy: ListingStrategy,
) {
  const ranked = rankedLiveEventsQuery(filters, window, strategy).as('ranked')
  return db
    .select({ eventID: ranked.id, listedDate: sql<string>`${ranked.next}::text`, card: eventCardJson() })
    .from(ranked)
    .innerJoin(events, eq(events.eventID, ranked.id))
    .orderBy(...rankedOrder(ranked))
}

/** Without counts, a walk is used when no filter but dates is set. */
const defaultStrategy = (filters: CalendarFilters): ListingStrategy =>
  hasEventFilters(filters) ? 'candidates' : 'walk'

/**
 * One page of live events matching `filters`, soonest upcoming date first (then id), for the feeds and the public
 * API. Every filter runs in SQL, so only the requested page leaves the database.
 */
export async function listLiveEvents(
  filters: CalendarFilters,
  window: ListWindow,
  strategy = defaultStrategy(filters),
) {
  const rows = await liveEventsPageQuery(filters, window, strategy)
  return rows.map((row) => ({ ...row, stillPhotoPath: row.stillPhotoURL, videoPath: row.videoURL }))
}

/** The page's events as cards, in its order, from their cards by id. */
export function cardsInOrder(listed: readonly ListedEvent[], cards: Map<number, EventCard>): LiveEventCard[] {
  return listed.flatMap(({ eventID, listedDate }) => {
    const card = cards.get(eventID)
    return card ? [cardListedAt(card, listedDate)] : []
  })
}

/** The calendar page's cards: the same page as `listLiveEvents`, as cards. */
export async function listLiveEventCards(
  filters: CalendarFilters,
  window: ListWindow,
  strategy = defaultStrategy(filters),
): Promise<LiveEventCard[]> {
  const listed = await listedEventCardsPageQuery(filters, window, strategy)
  return cardsInOrder(listed, new Map(listed.map((row) => [row.eventID, row.card])))
}

/** How many live events match `filters`. */
export async function countLiveEvents(
  filters: CalendarFilters,
  { today }: { today: string },
): Promise<number> {
  const [row] = await countLiveEventsQuery(filters, { today })
  return row?.n ?? 0
}

/** The events a walk reads through for these filters: every live event, or for a window from today on, its own. */
export function walkedEvents(filters: CalendarFilters, today: string): CalendarFilters {
  return windowFromToday(filters, today)
    ? { ...EMPTY_CALENDAR_FILTERS, from: filters.from, to: filters.to }
    : EMPTY_CALENDAR_FILTERS
}
