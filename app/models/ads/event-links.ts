import { cardFacts } from '#app/models/ads/customer-card.ts'
import { venueLine, type StoredFacts } from '#app/models/ads/practical-facts.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { nextEventDate } from '#app/models/ads/event-dates.ts'
import { eventPageUrl } from '#app/models/ads/event-address.ts'
import type { EventLinkContext, EventSeoSource } from '#app/models/ads/event-seo.ts'
import { endDateOf, eventTimesOf } from '#app/models/ads/event-times.ts'

/** What calendar entries and the event page's links read of an event: what search engines read, and its category. */
export interface CalendarEntrySource extends Omit<EventSeoSource, 'businessWebsite' | 'stillPhotoPath'> {
  category: readonly string[]
  /** The iCalendar SEQUENCE of its entries (raised by the database on each change a calendar app shows). */
  calendarSequence?: number
}

type Place = Pick<
  CalendarEntrySource,
  'businessName' | 'businessAddress' | 'businessCity' | 'businessState' | 'businessZip'
>

/** Where the event is, on one line: the business and its address, or the other address, or "Online". */
export function eventLocation(event: Place & Partial<StoredFacts>) {
  const facts = cardFacts(event)
  if (facts.attendanceMode === 'online') return `${event.businessName}, Online`
  if (facts.venueAddress) return [event.businessName, venueLine(facts)].join(', ')
  const region = [event.businessState, event.businessZip].filter(Boolean).join(' ')
  return [event.businessName, event.businessAddress, event.businessCity, region].filter(Boolean).join(', ')
}

/** The business's street address on one line, without its name (what a map search wants); '' when there is none. */
export function streetAddress(event: Place) {
  const region = [event.businessState, event.businessZip].filter(Boolean).join(' ')
  return [event.businessAddress, event.businessCity, region].filter(Boolean).join(', ')
}

/** A plain OpenStreetMap search for the address (no map script on our pages). */
export function mapSearchUrl(address: string) {
  return `https://www.openstreetmap.org/search?query=${encodeURIComponent(address)}`
}

/** The event's own iCalendar file ("Add to calendar"). */
export function eventIcsPath(eventID: number) {
  return `/event/${eventID}/calendar.ics`
}

const compactDate = (isoDate: string) => isoDate.replaceAll('-', '')
const compactDateTime = (isoDate: string, time: string) =>
  `${compactDate(isoDate)}T${time.replace(':', '')}00`

/**
 * Google Calendar's "add event" link for the event's next date: all day, or from its start to its end time (the
 * next day when it ends after midnight) as local times of the platform zone (`ctz`). Without an end time it ends
 * when it starts, as the iCalendar entry does: the advertiser did not say how long it lasts.
 */
export function googleCalendarUrl(event: CalendarEntrySource, { origin, today, timeZone }: EventLinkContext) {
  const date = nextEventDate(event, today)
  const times = eventTimesOf(event)
  const url = new URL('https://calendar.google.com/calendar/render')
  url.searchParams.set('action', 'TEMPLATE')
  url.searchParams.set('text', event.eventTitle)
  if (date && times.startTime) {
    const start = compactDateTime(date, times.startTime)
    const end = times.endTime ? compactDateTime(endDateOf(date, times), times.endTime) : start
    url.searchParams.set('dates', `${start}/${end}`)
    url.searchParams.set('ctz', timeZone)
  } else if (date) url.searchParams.set('dates', `${compactDate(date)}/${compactDate(addDaysIso(date, 1))}`)
  url.searchParams.set('details', `${event.eventDescription}\n\n${eventPageUrl(event, origin)}`)
  url.searchParams.set('location', eventLocation(event))
  return url.toString()
}

/** A "share by email" link: the title as the subject, the page's address as the body. */
export function shareByEmailUrl(event: Pick<CalendarEntrySource, 'eventID' | 'eventTitle'>, origin: string) {
  const subject = encodeURIComponent(event.eventTitle)
  const body = encodeURIComponent(eventPageUrl(event, origin))
  return `mailto:?subject=${subject}&body=${body}`
}
