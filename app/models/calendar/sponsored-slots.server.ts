/**
 * The calendar's Sponsored slots: the live sponsored ads that match a page's filters and are shown today (one of
 * their display dates), taking turns (sponsored-placement.ts). One small statement on the sponsored ads' own index.
 */
import { and, eq, gte, sql } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { business, eventShowDates, events } from '#db/schema.ts'
import { listingStart, type CalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import {
  filterConditions,
  isApprovedAndPaid,
  joinBusiness,
  rowCountInText,
} from '#app/models/calendar/calendar-filter-sql.server.ts'
import {
  liveEventCardJson,
  liveEventColumns,
  type LiveEventCard,
} from '#app/models/calendar/calendar-listing.server.ts'

/** A cancelled or postponed ad is not promoted (schedule-status.ts `isOff`). */
const notOff = sql`${events.scheduleStatus} IS DISTINCT FROM 'cancelled' AND ${events.scheduleStatus} IS DISTINCT FROM 'postponed'`

export interface SlotsWindow {
  today: string
  /** How many slots (the host's setting). */
  slots: number
  /** Where this turn starts in the matching ads' order (sponsored-placement.ts `rotationOffset`). */
  rotation: number
}

/**
 * The ads of the slots (not run): of the matching sponsored ads in id order, `slots` of them from position
 * `rotation` (modulo their number, wrapping round), with `turn`, their order in the slots.
 */
function slotsSubquery(filters: CalendarFilters, { today, slots, rotation }: SlotsWindow) {
  const matching = joinBusiness(
    db
      .select({
        id: sql<number>`${events.eventID}`.as('id'),
        position: sql<number>`(row_number() OVER (ORDER BY ${events.eventID}) - 1)`.as('position'),
        matches: sql<number>`count(*) OVER ()`.as('matches'),
      })
      .from(events)
      .$dynamic(),
    filters,
  )
    .where(
      and(
        // The index's predicate as text (`isApprovedAndPaid`), so every plan of the statement can use it.
        sql`${events.sponsored}`,
        isApprovedAndPaid,
        gte(events.lastShowDate, today),
        // Never outside its display dates: today is one of them.
        sql`${today}::date = ANY(${events.showAdOnDates})`,
        notOff,
        ...filterConditions(filters),
      ),
    )
    .as('matching')
  const turn = sql<number>`((${matching.position} - (${rotation}::bigint % ${matching.matches})) + ${matching.matches}) % ${matching.matches}`
  return db
    .select({ id: matching.id, turn: turn.as('turn') })
    .from(matching)
    .where(sql`${turn} < ${rowCountInText(slots)}`)
    .as('slot')
}

/** The date a slot's card shows: the ad's first show date from the listing's start (today when it has none). */
function slotListedDate(filters: CalendarFilters, today: string) {
  return sql<string>`coalesce((SELECT min(${eventShowDates.showDate}) FROM ${eventShowDates}
    WHERE ${eventShowDates.eventID} = ${events.eventID} AND ${eventShowDates.showDate} >= ${listingStart(filters, today)}::date), ${today}::date)`
}

/** The cards of the slots in their order (not run), for the benchmark's plans and `listSponsoredSlotCards`. */
export function sponsoredSlotCardsQuery(filters: CalendarFilters, window: SlotsWindow) {
  const slot = slotsSubquery(filters, window)
  return db
    .select({ card: liveEventCardJson(slotListedDate(filters, window.today)) })
    .from(slot)
    .innerJoin(events, eq(events.eventID, slot.id))
    .orderBy(sql`${slot.turn}`)
}

/** The cards of the Sponsored slots for these filters at this turn of the rotation (none when `slots` is 0). */
export async function listSponsoredSlotCards(
  filters: CalendarFilters,
  window: SlotsWindow,
): Promise<LiveEventCard[]> {
  if (window.slots <= 0) return []
  const rows = await sponsoredSlotCardsQuery(filters, window)
  return rows.map((row) => row.card)
}

/** The same ads as whole public rows (what the public API and the embed show), in the slots' order. */
export async function listSponsoredSlotEvents(filters: CalendarFilters, window: SlotsWindow) {
  if (window.slots <= 0) return []
  const slot = slotsSubquery(filters, window)
  const rows = await db
    .select({ ...liveEventColumns, nextShowDate: slotListedDate(filters, window.today) })
    .from(slot)
    .innerJoin(events, eq(events.eventID, slot.id))
    .innerJoin(business, eq(business.businessID, events.businessID))
    .orderBy(sql`${slot.turn}`)
  return rows.map((row) => ({ ...row, stillPhotoPath: row.stillPhotoURL, videoPath: row.videoURL }))
}
