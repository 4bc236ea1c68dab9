/**
 * The queries the calendar runs for a filter set and page, named and not run, so the calendar benchmark
 * (bench-calendar.ts) can EXPLAIN them. The strategy is chosen from the counts as the cached listing chooses it
 * (app/models/calendar/cached-listing.server.ts), read from the database rather than the cache.
 */
import type { SQLWrapper } from 'drizzle-orm'
import { FEATURED_EVENTS_LIMIT } from '#app/constants.ts'
import { CALENDAR_PAGE_SIZE, soonestFirstPage } from '#app/models/calendar/cached-listing.server.ts'
import type { CalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import {
  countLiveEvents,
  countLiveEventsQuery,
  listedEventCardsPageQuery,
  listedEventsPageQuery,
  listingStrategy,
  walkedEvents,
  type ListingStrategy,
  type ListWindow,
} from '#app/models/calendar/calendar-listing.server.ts'

/** The first page of a walk from today reads its order alone (its cards are cached by event); others read both. */
function pageQuery(filters: CalendarFilters, window: ListWindow, strategy: ListingStrategy) {
  return soonestFirstPage(filters, window, strategy)
    ? listedEventsPageQuery(filters, window, strategy)
    : listedEventCardsPageQuery(filters, window, strategy)
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
    [`listing (${strategy})`, pageQuery(filters, { today, limit: CALENDAR_PAGE_SIZE, offset }, strategy)],
  ]
  if (page > 1) {
    const featured = listingStrategy({ matches, live, rows: FEATURED_EVENTS_LIMIT })
    queries.push([
      `featured (${featured})`,
      pageQuery(filters, { today, limit: FEATURED_EVENTS_LIMIT }, featured),
    ])
  }
  return queries
}
