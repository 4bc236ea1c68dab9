/**
 * The listings the public pages, the feeds and the public API read, cached (live-events-cache.server.ts): the count
 * and a page of live events for a filter set, and the calendar page's listing of cards built from them.
 */
import { FEATURED_EVENTS_LIMIT } from '#app/constants.ts'
import { listingStart, type CalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import {
  cardsInOrder,
  countLiveEvents,
  listEventCards,
  listingStrategy,
  listedEventCardsPageQuery,
  listedEventsPageQuery,
  listLiveEvents,
  walkedEvents,
  type ListingStrategy,
  type ListWindow,
  type LiveEventCard,
} from '#app/models/calendar/calendar-listing.server.ts'
import { cachedLiveEvents, cachedLiveEventsByIds } from '#app/models/calendar/live-events-cache.server.ts'
import { isOff } from '#app/models/ads/schedule-status.ts'

export const CALENDAR_PAGE_SIZE = 24

export interface CalendarListing {
  total: number
  /** The first FEATURED_EVENTS_LIMIT matches. */
  featured: LiveEventCard[]
  /** The requested page of matches. */
  events: LiveEventCard[]
  page: number
  pageCount: number
}

/** A cached count of live events matching `filters` (one per filter set, whatever the page). */
export function getLiveEventsCount(filters: CalendarFilters, { today }: { today: string }) {
  const key = JSON.stringify(['count', today, filters])
  return cachedLiveEvents(key, () => countLiveEvents(filters, { today }))
}

/** How to find this page of matches, from the cached counts; null for a page past the end (no query needed). */
async function pageStrategy(filters: CalendarFilters, { today, limit, offset = 0 }: ListWindow) {
  const [matches, live] = await Promise.all([
    getLiveEventsCount(filters, { today }),
    getLiveEventsCount(walkedEvents(filters, today), { today }),
  ])
  return offset >= matches ? null : listingStrategy({ matches, live, rows: offset + limit })
}

/** A cached page of live events for the public pages, the feeds and the public API. */
export function getLiveEventsPage(filters: CalendarFilters, window: ListWindow) {
  const key = JSON.stringify(['list', window.today, window.limit, window.offset ?? 0, filters])
  return cachedLiveEvents(key, async () => {
    const strategy = await pageStrategy(filters, window)
    return strategy ? listLiveEvents(filters, window, strategy) : []
  })
}

/**
 * The first page of a walk from today shows the soonest matches, which every listing from today shows first: their
 * cards are most likely held already.
 */
export function soonestFirstPage(filters: CalendarFilters, window: ListWindow, strategy: ListingStrategy) {
  return strategy === 'walk' && !window.offset && listingStart(filters, window.today) === window.today
}

/**
 * A cached page of the calendar's cards: the same page as `getLiveEventsPage`, a card's columns only. The cards are
 * also cached by event. The first page of a walk from today asks the database for its order alone and reads only the
 * cards it does not hold; any other page (its events are seldom on another page just asked for) reads its cards with
 * its order, in one statement, and keeps the cards it held.
 */
export function getLiveEventCardsPage(filters: CalendarFilters, window: ListWindow) {
  const key = JSON.stringify(['cards', window.today, window.limit, window.offset ?? 0, filters])
  return cachedLiveEvents(key, async () => {
    const strategy = await pageStrategy(filters, window)
    if (!strategy) return []
    if (soonestFirstPage(filters, window, strategy)) {
      const listed = await listedEventsPageQuery(filters, window, strategy)
      return cardsInOrder(listed, await getEventCards(listed.map((row) => row.eventID)))
    }
    const listed = await listedEventCardsPageQuery(filters, window, strategy)
    const read = new Map(listed.map((row) => [row.eventID, row.card]))
    const cards = await cachedLiveEventsByIds(
      EVENT_CARDS,
      [...read.keys()],
      async (missing) => new Map(missing.map((id) => [id, read.get(id)!])),
    )
    return cardsInOrder(listed, cards)
  })
}

const EVENT_CARDS = 'event-card'

/** The cards of these events, cached by event. */
function getEventCards(ids: readonly number[]) {
  return cachedLiveEventsByIds(EVENT_CARDS, ids, listEventCards)
}

/** The featured strip of a page of matches: its first ones that are on (a cancelled or postponed ad leaves it). */
function featuredOf(cards: LiveEventCard[]) {
  return cards.filter((card) => !isOff(card.scheduleStatus)).slice(0, FEATURED_EVENTS_LIMIT)
}

/**
 * What the calendar page shows for these filters: the number of matches, the featured strip and one page of the
 * grid. On page 1 the featured strip is the grid's own first rows that are on; later pages share page 1's cached
 * strip and count.
 */
export async function loadCalendarListing(
  filters: CalendarFilters,
  { today, page, pageSize = CALENDAR_PAGE_SIZE }: { today: string; page: number; pageSize?: number },
): Promise<CalendarListing> {
  const offset = (page - 1) * pageSize
  const [total, pageEvents, featured] = await Promise.all([
    getLiveEventsCount(filters, { today }),
    getLiveEventCardsPage(filters, { today, limit: pageSize, offset }),
    page === 1 && pageSize >= FEATURED_EVENTS_LIMIT
      ? null
      : getLiveEventCardsPage(filters, { today, limit: FEATURED_EVENTS_LIMIT }),
  ])
  return {
    total,
    featured: featuredOf(featured ?? pageEvents),
    events: pageEvents,
    page,
    pageCount: Math.max(1, Math.ceil(total / pageSize)),
  }
}
