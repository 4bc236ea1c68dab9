import type { CalendarFilters } from '#app/models/calendar-filters.ts'
import { nextEventDate } from '#app/models/event-dates.ts'
import type { EventTileData } from '#app/models/event-tile.ts'
import { cachedLiveEvents } from '#app/models/live-events-cache.server.ts'
import { loadCalendarListing, type LiveEvent } from '#app/models/public-events.server.ts'

export interface CalendarPageResults {
  total: number
  page: number
  pageCount: number
  featured: EventTileData[]
  events: EventTileData[]
}

function toTile(event: LiveEvent, today: string): EventTileData {
  return {
    eventID: event.eventID,
    eventTitle: event.eventTitle,
    eventDescription: event.eventDescription,
    category: event.category,
    stillPhotoPath: event.stillPhotoPath,
    businessName: event.businessName,
    date: nextEventDate(event, today),
  }
}

/** The calendar's results for these filters, from the listing cache (the shared page cache keeps whole pages). */
export function getCalendarResults(
  filters: CalendarFilters,
  { today, page }: { today: string; page: number },
): Promise<CalendarPageResults> {
  const key = JSON.stringify(['calendar-results', today, page, filters])
  return cachedLiveEvents(key, async () => {
    const listing = await loadCalendarListing(filters, { today, page })
    return {
      total: listing.total,
      page: listing.page,
      pageCount: listing.pageCount,
      featured: listing.featured.map((e) => toTile(e, today)),
      events: listing.events.map((e) => toTile(e, today)),
    }
  })
}
