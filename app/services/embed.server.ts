import { listingStart, type CalendarFilters } from '#app/models/calendar-filters.ts'
import { nextEventDate } from '#app/models/event-dates.ts'
import { EMBED_EVENTS_LIMIT, parseEmbedFilters } from '#app/models/embed.ts'
import { getLiveEventsPage } from '#app/models/cached-listing.server.ts'
import { nearZipNotices } from './calendar-page.server.ts'

/** The embed's filters from a query string, or what is wrong with them (a ZIP to measure from that we do not know too). */
export async function readEmbedFilters(
  searchParams: URLSearchParams,
): Promise<{ ok: true; filters: CalendarFilters } | { ok: false; errors: string[] }> {
  const parsed = parseEmbedFilters(searchParams)
  if (!parsed.ok) return parsed
  const unknownZip = await nearZipNotices(parsed.filters)
  return unknownZip.length ? { ok: false, errors: unknownZip } : parsed
}

export interface EmbedEvent {
  eventID: number
  eventTitle: string
  /** The date a card shows (`nextEventDate` from the listing's start). */
  date: string | null
  businessName: string
  /** "City, ST", '' when the business gave neither. */
  place: string
  stillPhotoPath: string
}

/** The soonest live events matching `filters`, as the framed list shows them (from the listing cache). */
export async function getEmbedEvents(
  filters: CalendarFilters,
  { today }: { today: string },
): Promise<EmbedEvent[]> {
  const events = await getLiveEventsPage(filters, { today, limit: EMBED_EVENTS_LIMIT })
  return events.map((event) => ({
    eventID: event.eventID,
    eventTitle: event.eventTitle,
    date: nextEventDate(event, listingStart(filters, today)),
    businessName: event.businessName,
    place: [event.businessCity, event.businessState].filter(Boolean).join(', '),
    stillPhotoPath: event.stillPhotoPath,
  }))
}
