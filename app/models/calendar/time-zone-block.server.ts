import { tzlib_get_ical_block } from 'timezones-ical-library'

export interface TimeZoneBlock {
  /** The VTIMEZONE's TZID, which DTSTART and DTEND name (the library's own name for the zone: UTC is Etc/UTC). */
  tzid: string
  /** The VTIMEZONE component's text. */
  vtimezone: string
}

const blocks = new Map<string, TimeZoneBlock | null>()

/** The iCalendar VTIMEZONE for an IANA zone, from the IANA data; null for a zone the library does not know. */
export function timeZoneBlock(timeZone: string): TimeZoneBlock | null {
  if (blocks.has(timeZone)) return blocks.get(timeZone)!
  const answer = tzlib_get_ical_block(timeZone)
  const [vtimezone, tzidParameter] = Array.isArray(answer) ? answer : []
  const tzid = tzidParameter?.replace(/^TZID=/, '')
  const block = vtimezone && tzid && /^[^";:,\r\n]+$/.test(tzid) ? { tzid, vtimezone } : null
  blocks.set(timeZone, block)
  return block
}
