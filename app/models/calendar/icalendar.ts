/**
 * iCalendar text (RFC 5545) for the calendar feeds: a VCALENDAR with its VTIMEZONE blocks and VEVENTs, CRLF line
 * ends, values escaped (§3.3.11) and lines folded at 75 octets (§3.1). Pure: the caller decides what each entry says.
 */

/** When an entry starts or ends: a whole day, a local time in a zone of the calendar's VTIMEZONEs, or a UTC instant. */
export type ICalWhen =
  | { kind: 'date'; date: string }
  | { kind: 'local'; date: string; time: string; tzid: string }
  | { kind: 'utc'; instant: Date }

export type ICalStatus = 'CONFIRMED' | 'TENTATIVE' | 'CANCELLED'

export interface ICalEvent {
  uid: string
  sequence: number
  dtstamp: Date
  start: ICalWhen
  /** None: the entry ends when it starts (a timed event without an end time, RFC 5545 §3.6.1). */
  end: ICalWhen | null
  summary: string
  description: string
  location: string
  url: string
  categories: readonly string[]
  status: ICalStatus
}

export interface ICalendar {
  prodId: string
  name: string
  /** VTIMEZONE components, each as its own lines of text. */
  timeZones: readonly string[]
  events: readonly ICalEvent[]
}

const CRLF = '\r\n'
// eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
const CONTROL_EXCEPT_TAB = /[\u0000-\u0008\u000A-\u001F\u007F]/g
const MAX_LINE_OCTETS = 75

/**
 * A TEXT value: backslash, semicolon, comma and line breaks escaped (§3.3.11); other control characters, which TEXT
 * may not hold, dropped. A line break can never start a new property or component.
 */
export function escapeText(value: string): string {
  return value
    .replace(/[\\;,]/g, (c) => `\\${c}`)
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(CONTROL_EXCEPT_TAB, '')
}

function octetsOf(codePoint: number) {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4
}

/** One content line folded at 75 octets: each continuation starts with a space; a character is never split. */
export function foldLine(line: string): string {
  const parts: string[] = []
  let current = ''
  let octets = 0
  for (const char of line) {
    const size = octetsOf(char.codePointAt(0)!)
    if (octets + size > MAX_LINE_OCTETS) {
      parts.push(current)
      current = ' '
      octets = 1
    }
    current += char
    octets += size
  }
  parts.push(current)
  return parts.join(CRLF)
}

const pad = (n: number) => String(n).padStart(2, '0')

/** yyyymmddThhmmssZ */
export function utcStamp(instant: Date): string {
  return (
    `${instant.getUTCFullYear()}${pad(instant.getUTCMonth() + 1)}${pad(instant.getUTCDate())}` +
    `T${pad(instant.getUTCHours())}${pad(instant.getUTCMinutes())}${pad(instant.getUTCSeconds())}Z`
  )
}

const compactDate = (isoDate: string) => isoDate.replaceAll('-', '')

/** `hh:mm` or `hh:mm:ss` as hhmmss. */
const compactTime = (time: string) => `${time.replaceAll(':', '')}00`.slice(0, 6)

/** A DTSTART or DTEND line. */
function whenLine(name: 'DTSTART' | 'DTEND', when: ICalWhen): string {
  switch (when.kind) {
    case 'date':
      return `${name};VALUE=DATE:${compactDate(when.date)}`
    case 'local':
      return `${name};TZID=${when.tzid}:${compactDate(when.date)}T${compactTime(when.time)}`
    case 'utc':
      return `${name}:${utcStamp(when.instant)}`
  }
}

function eventLines(event: ICalEvent): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `SEQUENCE:${event.sequence}`,
    `DTSTAMP:${utcStamp(event.dtstamp)}`,
    whenLine('DTSTART', event.start),
    ...(event.end ? [whenLine('DTEND', event.end)] : []),
    `SUMMARY:${escapeText(event.summary)}`,
    `DESCRIPTION:${escapeText(event.description)}`,
    ...(event.location ? [`LOCATION:${escapeText(event.location)}`] : []),
    // A URI value is not escaped; ours come from URL objects, which percent-encode anything unsafe.
    `URL:${event.url.replace(CONTROL_EXCEPT_TAB, '').replace(/\t/g, '')}`,
    ...(event.categories.length > 0 ? [`CATEGORIES:${event.categories.map(escapeText).join(',')}`] : []),
    `STATUS:${event.status}`,
    // Listed events do not block the subscriber's time.
    'TRANSP:TRANSPARENT',
    'X-MICROSOFT-CDO-BUSYSTATUS:FREE',
    'END:VEVENT',
  ]
}

/** The whole calendar as iCalendar text. */
export function icalendarText(calendar: ICalendar): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'CALSCALE:GREGORIAN',
    `PRODID:${calendar.prodId}`,
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(calendar.name)}`,
    'X-PUBLISHED-TTL:PT1H',
    ...calendar.timeZones.flatMap((block) => block.split(/\r\n|\r|\n/).filter(Boolean)),
    ...calendar.events.flatMap(eventLines),
    'END:VCALENDAR',
  ]
  return lines.map(foldLine).join(CRLF) + CRLF
}
