import { unknownZipMessage, type CalendarFilters } from '#app/models/calendar-filters.ts'
import {
  MONTH_DAY_EVENTS_LIMIT,
  monthGrid,
  type DayEvents,
  type MonthGrid,
} from '#app/models/calendar-month.ts'
import { nextEventDate } from '#app/models/event-dates.ts'
import type { EventTileData } from '#app/models/event-tile.ts'
import { cachedLiveEvents } from '#app/models/live-events-cache.server.ts'
import { listEventsByDay, loadCalendarListing, type LiveEvent } from '#app/models/public-events.server.ts'
import { isKnownZip } from '#app/models/zip-centroids.server.ts'

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

/** What the page says about the distance filter's ZIP when it is not one we know (no event can be near it). */
export async function nearZipNotices(filters: CalendarFilters): Promise<string[]> {
  return filters.near && !(await isKnownZip(filters.near)) ? [unknownZipMessage(filters.near)] : []
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

export interface CalendarMonthResults {
  grid: MonthGrid
  /** The days of the month with a match, in date order. */
  days: DayEvents[]
}

/** The month grid for these filters: the first few events of each day and the day's count (cached like the list). */
export function getCalendarMonth(
  filters: CalendarFilters,
  { today, month }: { today: string; month: string },
): Promise<CalendarMonthResults> {
  const grid = monthGrid(month)
  const key = JSON.stringify(['calendar-month', today, month, filters])
  return cachedLiveEvents(key, async () => ({
    grid,
    days: await listEventsByDay(filters, {
      today,
      from: grid.first,
      to: grid.last,
      perDay: MONTH_DAY_EVENTS_LIMIT,
    }),
  }))
}
