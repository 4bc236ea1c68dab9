import ICAL from 'ical.js'

/** What the tests read of a calendar's event, through the one iCalendar parser they use (ical.js). */
export interface CalendarEntry {
  summary: string
  /** `YYYY-MM-DD` for an all-day entry, `YYYY-MM-DDTHH:MM:SS` (with a `Z` in UTC) for a timed one. */
  start: string
  end: string | null
  allDay: boolean
  url: string | null
  location: string
  description: string
}

/** The VEVENTs of an iCalendar text. */
export function calendarEntries(text: string): CalendarEntry[] {
  return new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((component) => {
    const event = new ICAL.Event(component)
    const url = component.getFirstPropertyValue('url')
    return {
      summary: event.summary,
      start: event.startDate.toString(),
      end: event.endDate ? event.endDate.toString() : null,
      allDay: event.startDate.isDate,
      url: url === null ? null : String(url),
      location: event.location,
      description: event.description,
    }
  })
}
