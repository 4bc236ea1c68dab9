import { renderToStaticMarkup } from 'react-dom/server'
import { CalendarResults } from '#app/components/calendar-results.tsx'
import type { EventTileData } from '#app/components/event-tile.tsx'
import { calendarSearchParams, type CalendarFilters } from '#app/models/calendar-filters.ts'
import { cachedLiveEvents } from '#app/models/live-events-cache.server.ts'
import { loadCalendarListing, type LiveEvent } from '#app/models/public-events.server.ts'

export interface CalendarPageResults {
  total: number
  page: number
  pageCount: number
  featuredIDs: number[]
  eventIDs: number[]
  /** The results section, rendered once per cached listing. */
  html: string
}

function toTile(event: LiveEvent): EventTileData {
  return {
    eventID: event.eventID,
    eventTitle: event.eventTitle,
    eventDescription: event.eventDescription,
    category: event.category,
    stillPhotoPath: event.stillPhotoPath,
    businessName: event.businessName,
    nextShowDate: event.nextShowDate,
  }
}

export function calendarHref(filters: CalendarFilters, page = 1) {
  const query = calendarSearchParams(filters, page).toString()
  return `/calendar${query ? `?${query}` : ''}`
}

/**
 * The calendar's results for these filters, with their HTML. The listing is public and the same for every visitor,
 * so its markup is rendered once per cached listing and reused: a page of 34 event tiles costs far more to render
 * than the rest of the page, and the budget for /calendar is most of a trivial route's throughput.
 */
export function getCalendarResults(
  filters: CalendarFilters,
  { today, page }: { today: string; page: number },
): Promise<CalendarPageResults> {
  const key = JSON.stringify(['calendar-results', today, page, filters])
  return cachedLiveEvents(key, async () => {
    const listing = await loadCalendarListing(filters, { today, page })
    const html = renderToStaticMarkup(
      <CalendarResults
        featured={listing.featured.map(toTile)}
        events={listing.events.map(toTile)}
        page={listing.page}
        pageCount={listing.pageCount}
        pageHref={(p) => calendarHref(filters, p)}
      />,
    )
    return {
      total: listing.total,
      page: listing.page,
      pageCount: listing.pageCount,
      featuredIDs: listing.featured.map((e) => e.eventID),
      eventIDs: listing.events.map((e) => e.eventID),
      html,
    }
  })
}
