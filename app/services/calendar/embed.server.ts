import { practicalFactsOf, type PracticalFacts } from '#app/models/ads/practical-facts.ts'
import { listingStart, type CalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import { nextEventDate } from '#app/models/ads/event-dates.ts'
import { eventTimesOf, type EventTimes } from '#app/models/ads/event-times.ts'
import { scheduleStatusOf, type ScheduleStatus } from '#app/models/ads/schedule-status.ts'
import { EMBED_EVENTS_LIMIT, embedFiltersRefused, parseEmbedFilters } from '#app/models/calendar/embed.ts'
import { getLiveEventsPage } from '#app/models/calendar/cached-listing.server.ts'
import { nearZipNotices } from './calendar-page.server.ts'
import { sponsoredSlotEvents } from './sponsored-slots.server.ts'

/**
 * The embed's filters from a query string; what is wrong with them (a ZIP to measure from that we do not know too)
 * is an invalid AppError listing each problem.
 */
export async function readEmbedFilters(searchParams: URLSearchParams): Promise<CalendarFilters> {
  const filters = parseEmbedFilters(searchParams)
  const unknownZip = await nearZipNotices(filters)
  if (unknownZip.length) throw embedFiltersRefused(unknownZip)
  return filters
}

export interface EmbedEvent {
  eventID: number
  eventTitle: string
  /** The date a card shows (`nextEventDate` from the listing's start). */
  date: string | null
  /** Its times on that date (none: all day). */
  times: EventTimes
  scheduleStatus: ScheduleStatus | null
  businessName: string
  /** "City, ST", '' when the business gave neither. */
  place: string
  stillPhotoPath: string
  facts: Pick<PracticalFacts, 'priceCents' | 'attendanceMode' | 'accessibilityFeatures'>
  /** In a Sponsored slot: labelled "Sponsored". */
  sponsored: boolean
}

/**
 * The soonest live events matching `filters`, as the framed list shows them (from the listing cache), after the ads
 * in the Sponsored slots of the turn of `now`.
 */
export async function getEmbedEvents(
  filters: CalendarFilters,
  { today, now = Date.now() }: { today: string; now?: number },
): Promise<EmbedEvent[]> {
  const [events, slots] = await Promise.all([
    getLiveEventsPage(filters, { today, limit: EMBED_EVENTS_LIMIT }),
    sponsoredSlotEvents(filters, { today, now }),
  ])
  return [...slots.events, ...events.map((event) => ({ ...event, sponsored: false }))].map((event) =>
    toEmbedEvent(event, filters, today),
  )
}

type ListedEvent = Awaited<ReturnType<typeof getLiveEventsPage>>[number] & { sponsored: boolean }

function toEmbedEvent(event: ListedEvent, filters: CalendarFilters, today: string): EmbedEvent {
  const facts = practicalFactsOf(event)
  return {
    eventID: event.eventID,
    eventTitle: event.eventTitle,
    date: nextEventDate(event, listingStart(filters, today)),
    times: eventTimesOf(event),
    scheduleStatus: scheduleStatusOf(event.scheduleStatus),
    businessName: event.businessName,
    place: facts.venueAddress
      ? [facts.venueCity, facts.venueState].filter(Boolean).join(', ')
      : [event.businessCity, event.businessState].filter(Boolean).join(', '),
    stillPhotoPath: event.stillPhotoPath,
    facts: {
      priceCents: facts.priceCents,
      attendanceMode: facts.attendanceMode,
      accessibilityFeatures: facts.accessibilityFeatures,
    },
    sponsored: event.sponsored,
  }
}
