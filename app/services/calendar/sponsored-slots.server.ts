/**
 * The Sponsored slots a public listing shows now: the host's number of slots, the turn of the rotation, and the ads
 * in them (cached like the listings, one entry per turn and filter set).
 */
import { listingStart, type CalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import { cachedLiveEvents } from '#app/models/calendar/live-events-cache.server.ts'
import {
  rotationOffset,
  secondsLeftInTurn,
  slotIds,
  sponsoredTurn,
  type SlotsWindow,
} from '#app/models/calendar/sponsored-placement.ts'
import {
  eventFiltersOf,
  listSponsoredCandidates,
  listSponsoredSlotEvents,
  matchingSponsoredIds,
  sponsoredIdsMatchingEventFilters,
  type SponsoredCandidate,
} from '#app/models/calendar/sponsored-slots.server.ts'
import { hasEventFilters } from '#app/models/calendar/calendar-filter-sql.server.ts'
import { currentSponsoredSlots } from '../payments/pricing.server.ts'

/** The slots' window at `now`: how many, and where the turn starts; `turn` keys the caches. */
async function slotsWindowAt(now: number): Promise<SlotsWindow & { turn: number }> {
  const turn = sponsoredTurn(now)
  // Read once a turn, like the listings (a change of the number announces that public pages changed).
  const slots = await cachedLiveEvents(JSON.stringify(['sponsored-slot-count', turn]), currentSponsoredSlots)
  return { slots, rotation: rotationOffset(turn, slots), turn }
}

/**
 * The ads in the Sponsored slots for these filters at the turn of `now`, in slot order: today's candidates (read
 * once a turn) that the filters match, taking turns. `allMatches`: every event the filters match, when the caller
 * has them all (see `matchingSponsoredIds`).
 */
export async function sponsoredSlotCandidates(
  filters: CalendarFilters,
  { today, now = Date.now(), allMatches }: { today: string; now?: number; allMatches?: ReadonlySet<number> },
): Promise<SponsoredCandidate[]> {
  const window = await slotsWindowAt(now)
  if (window.slots <= 0) return []
  const { candidates, byId } = await cachedLiveEvents(
    JSON.stringify(['sponsored-candidates', today, window.turn]),
    async () => {
      const list = await listSponsoredCandidates(today)
      return { candidates: list, byId: new Map(list.map((candidate) => [candidate.eventID, candidate])) }
    },
  )
  if (candidates.length === 0) return []
  const eventFilterMatches =
    allMatches || !hasEventFilters(filters)
      ? undefined
      : await sponsoredEventFilterMatches(filters, candidates, { today, turn: window.turn })
  const matching = matchingSponsoredIds(filters, candidates, { allMatches, eventFilterMatches })
  return slotIds(matching, window).map((id) => byId.get(id)!)
}

/**
 * Which candidates the filters other than the dates match, cached apart from the dates: the same category, keyword or
 * ZIP asked with another date range needs no statement.
 */
function sponsoredEventFilterMatches(
  filters: CalendarFilters,
  candidates: SponsoredCandidate[],
  { today, turn }: { today: string; turn: number },
): Promise<Set<number>> {
  const eventFilters = eventFiltersOf(filters)
  const key = JSON.stringify(['sponsored-event-filters', today, turn, eventFilters])
  return cachedLiveEvents(
    key,
    async () => new Set(await sponsoredIdsMatchingEventFilters(eventFilters, candidates)),
  )
}

/**
 * The ads in the Sponsored slots for these filters at `now`, as public rows, each with `sponsored: true`; and how
 * long (seconds) a page showing them may be shared, null when there are none.
 */
export async function sponsoredSlotEvents(
  filters: CalendarFilters,
  { today, now = Date.now() }: { today: string; now?: number },
) {
  const key = JSON.stringify(['sponsored-slot-events', today, sponsoredTurn(now), filters])
  const events = await cachedLiveEvents(key, async () => {
    const inSlots = await sponsoredSlotCandidates(filters, { today, now })
    const rows = await listSponsoredSlotEvents(inSlots, listingStart(filters, today), today)
    return rows.map((row) => ({ ...row, sponsored: true as const }))
  })
  return { events, sharedForSeconds: events.length > 0 ? secondsLeftInTurn(now) : null }
}
