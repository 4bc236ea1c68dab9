/**
 * An event read from a link (link-event.ts) as the event form's fields: what could be filled, what could not, and
 * the form's values with them. Zod-free and free of parsers, so the form's script shares the names and texts.
 */
import { DESCRIPTION_MAX, MAX_DISPLAY_DATES, TITLE_MAX, UNSET_DATE } from '#app/constants.ts'
import { addDaysIso } from '#app/utils/time.ts'
import type { EventFormValues } from './event-schema.ts'
import {
  EMPTY_PRACTICAL_FACTS,
  FACT_TEXT_MAX,
  factFieldsOf,
  isHttpsUrl,
  type PracticalFactFields,
} from './practical-facts.ts'

/** The Create form's submit that fills it from a link (its own intent, so nothing else of the form is saved). */
export const FILL_FROM_LINK_INTENT = 'fill-from-link'

/** The longest address the link field takes. */
export const LINK_ADDRESS_MAX = 2000

/** The parts of the form a link can fill, as the form names them to the advertiser. */
export const LINK_FIELD_LABELS = {
  title: 'Title',
  description: 'Description',
  dates: 'Dates',
  times: 'Times',
  place: 'Place',
  ticketUrl: 'Ticket link',
  photo: 'Photo',
} as const

export type LinkField = keyof typeof LINK_FIELD_LABELS

export const LINK_FIELDS = Object.keys(LINK_FIELD_LABELS) as LinkField[]

/** A calendar date (yyyy-mm-dd) and, unless the event lasts all day, a time of day (hh:mm). */
export interface LinkMoment {
  date: string
  time?: string
}

export interface LinkPlace {
  name?: string
  street?: string
  city?: string
  region?: string
  zip?: string
}

export interface LinkEvent {
  title?: string
  description?: string
  start?: LinkMoment
  end?: LinkMoment
  place?: LinkPlace
  /** Where tickets or registration are (an absolute address). */
  ticketUrl?: string
  /** The event's picture (an absolute address). */
  imageUrl?: string
}

export type LinkEventSource = 'json-ld' | 'h-event' | 'open-graph' | 'icalendar'

export const LINK_SOURCE_LABELS: Record<LinkEventSource, string> = {
  'json-ld': 'schema.org Event data',
  'h-event': 'h-event microformats',
  'open-graph': 'Open Graph tags',
  icalendar: 'an iCalendar (.ics) event',
}

/** What the form tells the advertiser after a fill. */
export interface LinkFillReport {
  /** The address read, after its redirects. */
  address: string
  sources: LinkEventSource[]
  found: LinkField[]
  missing: LinkField[]
  notes: string[]
  /** The photo's file name, when one was read. */
  photoName?: string
}

/** The form fields a link fills (each only when it was found). */
export interface LinkFormValues {
  eventTitle?: string
  eventDescription?: string
  showAdDates?: string[]
  eventDate?: string
  startTime?: string
  endTime?: string
  endsNextDay?: boolean
  ticketUrl?: string
  venueAddress?: string
  venueCity?: string
  venueState?: string
  venueZip?: string
}

export interface LinkFill {
  values: LinkFormValues
  /** What was filled, in the form's order. */
  found: LinkField[]
  /** What the link did not give (or gave in a way the form cannot use). */
  missing: LinkField[]
  /** Why a part was left out or cut, in plain words. */
  notes: string[]
}

/** A text cut to `max` characters at a word, with an ellipsis. */
export function clipText(text: string, max: number) {
  if (text.length <= max) return text
  const cut = text.slice(0, max - 1)
  const atWord = cut.replace(/\s+\S*$/, '')
  return `${atWord.length > max / 2 ? atWord : cut}…`
}

function daysBetween(first: string, last: string) {
  const days: string[] = []
  for (let day = first; day <= last && days.length <= 366; day = addDaysIso(day, 1)) days.push(day)
  return days
}

/**
 * The form's fields for `event`: title and description cut to the form's limits; the display dates (every day of
 * the event from today to the booking horizon, at most MAX_DISPLAY_DATES) and the event date (its first day); its
 * times when it has them (an end after midnight ticks "Ends after midnight"); another place; an https ticket link.
 * The photo is the caller's: it is fetched on its own.
 */
export function linkEventFill(
  event: LinkEvent,
  { today, lastDate }: { today: string; lastDate: string },
): LinkFill {
  const values: LinkFormValues = {}
  const found = new Set<LinkField>()
  const notes: string[] = []
  if (event.title) {
    values.eventTitle = clipText(event.title.replace(/\s+/g, ' '), TITLE_MAX)
    found.add('title')
  }
  if (event.description) {
    values.eventDescription = clipText(event.description, DESCRIPTION_MAX)
    if (event.description.length > DESCRIPTION_MAX)
      notes.push(`The description was cut to ${DESCRIPTION_MAX} characters.`)
    found.add('description')
  }
  if (event.start) {
    const { start } = event
    const end = event.end && event.end.date >= start.date ? event.end : undefined
    // 22:00 to 02:00 the next morning is one evening, not two days.
    const overnight = Boolean(
      end?.time && start.time && end.date === addDaysIso(start.date, 1) && end.time <= start.time,
    )
    const lastDay = end && !overnight ? end.date : start.date
    const all = daysBetween(start.date, lastDay)
    const bookable = all.filter((day) => day >= today && day <= lastDate)
    const dates = bookable.slice(0, MAX_DISPLAY_DATES)
    if (dates.length) {
      values.showAdDates = dates
      if (start.date >= today && start.date <= lastDate) values.eventDate = start.date
      found.add('dates')
      if (bookable.length > dates.length)
        notes.push(`Only the first ${MAX_DISPLAY_DATES} days of the event were chosen as display dates.`)
    } else if (lastDay < today) {
      notes.push('The event at that link has already taken place, so no dates were chosen.')
    } else {
      notes.push('The event at that link is too far ahead to book yet, so no dates were chosen.')
    }
    if (start.time) {
      values.startTime = start.time
      if (end?.time && end.time !== start.time && (end.time > start.time || overnight)) {
        values.endTime = end.time
        values.endsNextDay = overnight
      }
      found.add('times')
    }
  }
  const place = event.place
  const street = place?.street ?? place?.name
  if (place && street) {
    values.venueAddress = street.slice(0, FACT_TEXT_MAX.venueAddress)
    values.venueCity = (place.city ?? '').slice(0, FACT_TEXT_MAX.venueCity)
    values.venueState = (place.region ?? '').slice(0, FACT_TEXT_MAX.venueState)
    values.venueZip = (place.zip ?? '').slice(0, FACT_TEXT_MAX.venueZip)
    found.add('place')
  }
  if (event.ticketUrl && isHttpsUrl(event.ticketUrl) && event.ticketUrl.length <= FACT_TEXT_MAX.ticketUrl) {
    values.ticketUrl = event.ticketUrl
    found.add('ticketUrl')
  }
  const order = LINK_FIELDS.filter((f) => f !== 'photo')
  return {
    values,
    found: order.filter((f) => found.has(f)),
    missing: order.filter((f) => !found.has(f)),
    notes,
  }
}

/** The form's values as typed, with what the link filled in their place. */
export function filledFormValues(typed: EventFormValues, filled: LinkFormValues): EventFormValues {
  const facts: PracticalFactFields = typed.factFields ?? factFieldsOf({ ...EMPTY_PRACTICAL_FACTS })
  const factsFilled = Object.fromEntries(
    (['ticketUrl', 'venueAddress', 'venueCity', 'venueState', 'venueZip'] as const)
      .filter((name) => filled[name] !== undefined)
      .map((name) => [name, filled[name]!]),
  )
  const hasTimes = filled.startTime !== undefined
  return {
    ...typed,
    eventTitle: filled.eventTitle ?? typed.eventTitle,
    eventDescription: filled.eventDescription ?? typed.eventDescription,
    showAdDates: filled.showAdDates ?? typed.showAdDates,
    eventDate: filled.eventDate ?? (filled.showAdDates ? UNSET_DATE : typed.eventDate),
    startTime: hasTimes ? filled.startTime : typed.startTime,
    endTime: hasTimes ? (filled.endTime ?? '') : typed.endTime,
    endsNextDay: hasTimes ? Boolean(filled.endsNextDay) : typed.endsNextDay,
    factFields: {
      ...facts,
      ...factsFilled,
      // A place read from the link is where the event is held, in person.
      ...(filled.venueAddress !== undefined && facts.attendanceMode === 'online'
        ? { attendanceMode: 'mixed' }
        : {}),
    },
  }
}
