/**
 * The calendar's Sponsored slots: the live sponsored ads that match a page's filters and are shown today (one of
 * their display dates), taking turns (sponsored-placement.ts). The candidates are read once a turn; a filter set
 * asks only which of them it matches, by key.
 */
import { and, eq, gte, sql } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { business, events } from '#db/schema.ts'
import { eventShowDates } from '#app/models/ads/event-dates.ts'
import { dateWindow, isInDateWindow, type CalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import {
  eventFilterConditions,
  hasEventFilters,
  isApprovedAndPaid,
  joinBusiness,
} from '#app/models/calendar/calendar-filter-sql.server.ts'
import {
  cardListedAt,
  eventCardJson,
  idArray,
  liveEventColumns,
  type EventCard,
  type LiveEventCard,
} from '#app/models/calendar/calendar-listing.server.ts'

/** A cancelled or postponed ad is not promoted (schedule-status.ts `isOff`). */
const notOff = sql`${events.scheduleStatus} IS DISTINCT FROM 'cancelled' AND ${events.scheduleStatus} IS DISTINCT FROM 'postponed'`

/** An ad that may take a slot today: its card, and the dates a card's date is found from. */
export interface SponsoredCandidate {
  eventID: number
  card: EventCard
  eventDate: string
  showAdOnDates: string[]
  /** Its own date and display dates (`eventShowDates`), found once a turn rather than for every filter set. */
  showDates: string[]
}

/**
 * The ads that may take a Sponsored slot today, in id order: live, sponsored, shown today (never outside their
 * display dates) and on. Few, and the same for every filter set, so a turn reads them once (on the sponsored ads' own
 * index); a filter set then only asks which of them it matches (`matchingSponsoredIds`).
 */
export async function listSponsoredCandidates(today: string): Promise<SponsoredCandidate[]> {
  const rows = await db
    .select({
      eventID: events.eventID,
      card: eventCardJson(),
      eventDate: events.eventDate,
      showAdOnDates: events.showAdOnDates,
    })
    .from(events)
    .where(
      and(
        // The index's predicate as text (`isApprovedAndPaid`), so every plan of the statement can use it.
        sql`${events.sponsored}`,
        isApprovedAndPaid,
        gte(events.lastShowDate, today),
        sql`${today}::date = ANY(${events.showAdOnDates})`,
        notOff,
      ),
    )
    .orderBy(events.eventID)
  return rows.map((row) => ({ ...row, showDates: eventShowDates(row.eventDate, row.showAdOnDates) }))
}

/** Where a listing from `start` lists a candidate: its first show date from `start` (today when it has none). */
export function slotListedDate({ showDates }: SponsoredCandidate, start: string, today: string) {
  return showDates.find((date) => date >= start) ?? today
}

/** A candidate's card as a listing from `start` shows it (`cardListedAt`: dated by its own date when it has one). */
export function slotCard(candidate: SponsoredCandidate, start: string, today: string): LiveEventCard {
  return cardListedAt(candidate.card, slotListedDate(candidate, start, today))
}

/** Whether one of a candidate's dates lies in the filters' window, as the listing's date filter means (any without one). */
function inDateWindow({ showDates }: SponsoredCandidate, filters: CalendarFilters) {
  const window = dateWindow(filters)
  return !window || showDates.some((date) => isInDateWindow(date, window))
}

/** The filters other than the dates: what `sponsoredIdsMatchingEventFilters` answers, a key for caching its answer. */
export function eventFiltersOf(filters: CalendarFilters): CalendarFilters {
  return { ...filters, from: null, to: null }
}

/**
 * Which of the candidates the filters other than the dates match (category, keyword, ZIP, distance, practical facts),
 * by key, in id order. "Hide cancelled" takes none of them away (none is off).
 */
export async function sponsoredIdsMatchingEventFilters(
  filters: CalendarFilters,
  candidates: SponsoredCandidate[],
): Promise<number[]> {
  if (!hasEventFilters(filters)) return candidates.map((candidate) => candidate.eventID)
  const ids = candidates.map((candidate) => candidate.eventID)
  const rows = await joinBusiness(db.select({ id: events.eventID }).from(events).$dynamic(), filters)
    .where(and(sql`${events.eventID} = ANY(${idArray(ids)}::integer[])`, ...eventFilterConditions(filters)))
    .orderBy(events.eventID)
  return rows.map((row) => row.id)
}

/**
 * Which of the candidates match `filters`, in id order: taken from `allMatches` when the caller has every match of
 * the filters (a listing whose first page holds them all); else those among `eventFilterMatches` (the ids
 * `sponsoredIdsMatchingEventFilters` gave, which the caller may keep for every date range) with one of their dates
 * in the window, answered from the candidates' own dates.
 */
export function matchingSponsoredIds(
  filters: CalendarFilters,
  candidates: SponsoredCandidate[],
  {
    allMatches,
    eventFilterMatches,
  }: { allMatches?: ReadonlySet<number>; eventFilterMatches?: ReadonlySet<number> },
): number[] {
  return candidates
    .filter((candidate) =>
      allMatches
        ? allMatches.has(candidate.eventID)
        : (!eventFilterMatches || eventFilterMatches.has(candidate.eventID)) &&
          inDateWindow(candidate, filters),
    )
    .map((candidate) => candidate.eventID)
}

/**
 * The public rows of these candidates (what the public API and the embed show), in their order, each with the date a
 * listing from `start` lists it at.
 */
export async function listSponsoredSlotEvents(
  candidates: SponsoredCandidate[],
  start: string,
  today: string,
) {
  const ids = candidates.map((candidate) => candidate.eventID)
  if (ids.length === 0) return []
  const rows = await db
    .select(liveEventColumns)
    .from(events)
    .innerJoin(business, eq(business.businessID, events.businessID))
    .where(sql`${events.eventID} = ANY(${idArray(ids)}::integer[])`)
  const byId = new Map(rows.map((row) => [row.eventID, row]))
  return candidates.flatMap((candidate) => {
    const row = byId.get(candidate.eventID)
    if (!row) return []
    const nextShowDate = slotListedDate(candidate, start, today)
    return [{ ...row, nextShowDate, stillPhotoPath: row.stillPhotoURL, videoPath: row.videoURL }]
  })
}
