/**
 * An event's entries in the iCalendar feeds (`/calendar.ics`, the event's own `.ics`): one per date, with its times
 * in the platform time zone and its schedule status, under a UID that never changes so that subscribed calendar
 * apps update an entry (by its SEQUENCE) rather than add another.
 */
import { cardFacts } from '#app/models/ads/customer-card.ts'
import { eventPageUrl } from '#app/models/ads/event-address.ts'
import { eventLocation, type CalendarEntrySource } from '#app/models/ads/event-links.ts'
import { endDateOf, eventTimesOf, type EventTimes } from '#app/models/ads/event-times.ts'
import { practicalFactLines } from '#app/models/ads/practical-facts.ts'
import {
  SCHEDULE_STATUS_LABELS,
  scheduleStatusOf,
  type ScheduleStatus,
} from '#app/models/ads/schedule-status.ts'
import { zonedInstant } from '#app/models/ads/zoned-times.ts'
import type { ICalEvent, ICalStatus, ICalWhen } from '#app/models/calendar/icalendar.ts'
import { addDaysIso } from '#app/utils/time.ts'

export interface EntryContext {
  origin: string
  /** When the calendar is written (DTSTAMP: with METHOD:PUBLISH, when the iCalendar object was created). */
  now: Date
  /** The platform time zone (IANA). */
  timeZone: string
  /** The TZID of the calendar's VTIMEZONE for that zone; null when there is none: times are then written in UTC. */
  tzid: string | null
}

/**
 * RFC 5545 has three statuses for an event. Cancelled is CANCELLED. Postponed is TENTATIVE: the date stands for now
 * but is no longer certain, and the entry stays so the app updates it when a new date is set; the summary says
 * "Postponed" because apps show TENTATIVE no differently. Sold out is still on: CONFIRMED.
 */
const ICAL_STATUS: Record<ScheduleStatus, ICalStatus> = {
  cancelled: 'CANCELLED',
  postponed: 'TENTATIVE',
  sold_out: 'CONFIRMED',
}

/** "Cancelled: Moved to the gym", "Postponed", "Sold out": what a feed says of an ad's status; null when on. */
export function scheduleStatusLine(event: Pick<CalendarEntrySource, 'scheduleStatus' | 'scheduleNote'>) {
  const status = scheduleStatusOf(event.scheduleStatus)
  if (!status) return null
  const note = event.scheduleNote?.trim() ?? ''
  return note ? `${SCHEDULE_STATUS_LABELS[status]}: ${note}` : SCHEDULE_STATUS_LABELS[status]
}

/** The title as feeds show it: "Cancelled: …" or "Postponed: …" when the event is off, as is otherwise. */
export function feedTitle(event: Pick<CalendarEntrySource, 'eventTitle' | 'scheduleStatus'>) {
  const status = scheduleStatusOf(event.scheduleStatus)
  return status === 'cancelled' || status === 'postponed'
    ? `${SCHEDULE_STATUS_LABELS[status]}: ${event.eventTitle}`
    : event.eventTitle
}

function startOf(date: string, times: EventTimes, context: EntryContext): ICalWhen {
  if (!times.startTime) return { kind: 'date', date }
  return localTime(date, times.startTime, context)
}

/**
 * All day: the next day (DTEND is exclusive). With an end time: that time, on the next day when the event ends after
 * midnight. A timed event without an end time has no DTEND: RFC 5545 §3.6.1 then has it end when it starts, and
 * calendar apps show it at its start time. An invented length (an hour) would be a claim the advertiser never made.
 */
function endOf(date: string, times: EventTimes, context: EntryContext): ICalWhen | null {
  if (!times.startTime) return { kind: 'date', date: addDaysIso(date, 1) }
  if (!times.endTime) return null
  return localTime(endDateOf(date, times), times.endTime, context)
}

function localTime(date: string, time: string, { tzid, timeZone }: EntryContext): ICalWhen {
  return tzid
    ? { kind: 'local', date, time, tzid }
    : { kind: 'utc', instant: zonedInstant(date, time, timeZone) }
}

/** One entry per given date of the event, each linking to the event's page. */
export function eventCalendarEntries(
  event: CalendarEntrySource,
  dates: readonly string[],
  context: EntryContext,
): ICalEvent[] {
  const url = eventPageUrl(event, context.origin)
  const host = new URL(context.origin).host
  const times = eventTimesOf(event)
  const status = scheduleStatusOf(event.scheduleStatus)
  const statusLine = scheduleStatusLine(event)
  const description = [
    ...(statusLine ? [statusLine] : []),
    event.eventDescription,
    ...practicalFactLines(cardFacts(event)),
    url,
  ].join('\n\n')
  return dates.map((date) => ({
    // Unchanged since the first feeds: subscribed calendars match entries by it.
    uid: `event-${event.eventID}-${date}@${host}`,
    sequence: event.calendarSequence ?? 0,
    dtstamp: context.now,
    start: startOf(date, times, context),
    end: endOf(date, times, context),
    summary: feedTitle(event),
    description,
    location: eventLocation(event),
    url,
    categories: event.category,
    status: status ? ICAL_STATUS[status] : 'CONFIRMED',
  }))
}
