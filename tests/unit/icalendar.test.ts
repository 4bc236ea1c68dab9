import ICAL from 'ical.js'
import { describe, expect, test } from 'vitest'
import { eventCalendarEntries, type EntryContext } from '#app/models/calendar/event-calendar-entries.ts'
import { escapeText, foldLine, icalendarText, type ICalEvent } from '#app/models/calendar/icalendar.ts'
import { timeZoneBlock } from '#app/models/calendar/time-zone-block.server.ts'
import { zonedInstant, zonedIsoDateTime } from '#app/models/ads/zoned-times.ts'

const octets = (line: string) => Buffer.byteLength(line, 'utf8')

const entry = (overrides: Partial<ICalEvent> = {}): ICalEvent => ({
  uid: 'event-1-2026-11-29@example.org',
  sequence: 0,
  dtstamp: new Date('2026-11-27T19:00:00Z'),
  start: { kind: 'date', date: '2026-11-29' },
  end: { kind: 'date', date: '2026-11-30' },
  summary: 'Jazz',
  description: 'Live music',
  location: 'Blue Note, 5 Elm St',
  url: 'https://example.org/event/1?viewMode=true',
  categories: ['Music'],
  status: 'CONFIRMED',
  ...overrides,
})

const calendarOf = (events: ICalEvent[], timeZones: string[] = []) =>
  icalendarText({ prodId: '-//EventShout//Calendar//EN', name: 'Events', timeZones, events })

function vevents(text: string) {
  return new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent')
}

describe('escapeText (RFC 5545 §3.3.11)', () => {
  test('escapes backslashes, semicolons, commas and every kind of line break', () => {
    expect(escapeText('a\\b;c,d')).toBe('a\\\\b\\;c\\,d')
    expect(escapeText('one\r\ntwo\nthree\rfour')).toBe('one\\ntwo\\nthree\\nfour')
  })

  test('drops control characters TEXT may not hold, keeps tabs and other characters', () => {
    expect(escapeText('a\u0000b\u0007c\u007Fd\te: "é" ☕')).toBe('abcd\te: "é" ☕')
  })
})

describe('foldLine (RFC 5545 §3.1)', () => {
  test('a line of 75 octets or fewer is left alone', () => {
    const line = `SUMMARY:${'x'.repeat(67)}`
    expect(octets(line)).toBe(75)
    expect(foldLine(line)).toBe(line)
  })

  test('longer lines fold at 75 octets with CRLF and a space, and unfold to the same text', () => {
    const line = `DESCRIPTION:${'abcdefghij'.repeat(30)}`
    const folded = foldLine(line)
    const parts = folded.split('\r\n')
    expect(parts.length).toBeGreaterThan(4)
    for (const part of parts) expect(octets(part)).toBeLessThanOrEqual(75)
    expect(parts.slice(1).every((p) => p.startsWith(' '))).toBe(true)
    expect(folded.replace(/\r\n /g, '')).toBe(line)
  })

  test('never splits a multi-byte character', () => {
    const line = `SUMMARY:${'é☕😀'.repeat(40)}`
    const parts = foldLine(line).split('\r\n')
    for (const part of parts) {
      expect(octets(part)).toBeLessThanOrEqual(75)
      expect(part).not.toContain('\uFFFD')
      // Each part is whole characters: encoding and decoding it changes nothing.
      expect(new TextDecoder().decode(new TextEncoder().encode(part))).toBe(part)
    }
    expect(foldLine(line).replace(/\r\n /g, '')).toBe(line)
  })
})

describe('icalendarText', () => {
  test('every line ends with CRLF, none is longer than 75 octets, and a real parser reads it back', () => {
    const long = 'A long, winding; description\nover lines. '.repeat(12)
    const text = calendarOf([entry({ description: long, summary: 'Jazz, blues; and more' })])
    expect(text.endsWith('\r\n')).toBe(true)
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
    for (const line of text.split('\r\n')) expect(octets(line)).toBeLessThanOrEqual(75)
    const [vevent] = vevents(text)
    expect(vevent!.getFirstPropertyValue('summary')).toBe('Jazz, blues; and more')
    expect(vevent!.getFirstPropertyValue('description')).toBe(long)
    expect(vevent!.getFirstPropertyValue('sequence')).toBe(0)
    expect(String(vevent!.getFirstPropertyValue('dtstamp'))).toBe('2026-11-27T19:00:00Z')
  })

  test('a title or description holding CRLF and BEGIN:VEVENT cannot add a component or a property', () => {
    const hostile = 'Party\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:evil@x\r\nSUMMARY:Injected'
    const text = calendarOf([entry({ summary: hostile, description: `x\nSTATUS:CANCELLED\r\nBEGIN:VALARM` })])
    const parsed = vevents(text)
    expect(parsed).toHaveLength(1)
    expect(parsed[0]!.getFirstPropertyValue('uid')).toBe('event-1-2026-11-29@example.org')
    expect(parsed[0]!.getFirstPropertyValue('summary')).toBe(hostile.replace(/\r\n/g, '\n'))
    expect(parsed[0]!.getFirstPropertyValue('status')).toBe('CONFIRMED')
    expect(parsed[0]!.getAllSubcomponents('valarm')).toHaveLength(0)
    expect(text.match(/^BEGIN:VEVENT\r?$/gm)).toHaveLength(1)
    expect(text).not.toMatch(/^UID:evil/m)
  })

  test('categories are escaped one by one and joined by commas', () => {
    const text = calendarOf([entry({ categories: ['Food, Drink', 'Music'] })])
    expect(text).toContain('CATEGORIES:Food\\, Drink,Music\r\n')
    expect(vevents(text)[0]!.getFirstProperty('categories')!.getValues()).toEqual(['Food, Drink', 'Music'])
  })
})

describe('an event’s entries', () => {
  const newYork = timeZoneBlock('America/New_York')!
  const context: EntryContext = {
    origin: 'https://example.org',
    now: new Date('2026-11-27T19:00:00Z'),
    timeZone: 'America/New_York',
    tzid: newYork.tzid,
  }
  const source = {
    eventID: 7,
    eventTitle: 'Jazz',
    eventDescription: 'Live',
    eventDate: '2026-11-29',
    showAdOnDates: [],
    businessName: 'Blue Note',
    category: ['Music'],
    calendarSequence: 3,
  }

  test('a timed entry names the VTIMEZONE, and ical.js places it at the right instant (winter and summer)', () => {
    const timed = { ...source, startTime: '19:30:00', endTime: '22:00:00' }
    const text = calendarOf(eventCalendarEntries(timed, ['2026-11-29', '2026-07-04'], context), [
      newYork.vtimezone,
    ])
    expect(text).toContain('DTSTART;TZID=America/New_York:20261129T193000\r\n')
    expect(text).toContain('DTEND;TZID=America/New_York:20261129T220000\r\n')
    // ical.js reads the zone from the calendar's own VTIMEZONE (without it the time would be floating).
    const [winter, summer] = vevents(text).map((v) => new ICAL.Event(v))
    expect(winter!.startDate.zone.tzid).toBe('America/New_York')
    expect(winter!.startDate.toJSDate().toISOString()).toBe('2026-11-30T00:30:00.000Z')
    expect(summer!.startDate.toJSDate().toISOString()).toBe('2026-07-04T23:30:00.000Z')
    expect(winter!.sequence).toBe(3)
  })

  test('after midnight the end is on the next day; without an end time there is no DTEND', () => {
    const late = eventCalendarEntries(
      { ...source, startTime: '22:00', endTime: '01:30' },
      ['2026-11-29'],
      context,
    )
    expect(late[0]!.end).toEqual({
      kind: 'local',
      date: '2026-11-30',
      time: '01:30',
      tzid: 'America/New_York',
    })
    const open = eventCalendarEntries({ ...source, startTime: '19:30' }, ['2026-11-29'], context)
    expect(open[0]!.end).toBeNull()
    expect(calendarOf(open)).not.toContain('DTEND')
  })

  test('without a VTIMEZONE for the zone, times are written as UTC instants', () => {
    const utc = eventCalendarEntries({ ...source, startTime: '19:30' }, ['2026-11-29'], {
      ...context,
      tzid: null,
    })
    expect(calendarOf(utc)).toContain('DTSTART:20261130T003000Z\r\n')
  })

  test('statuses: cancelled, postponed (tentative, said in the summary), sold out (still confirmed)', () => {
    const of = (scheduleStatus: string, scheduleNote = '') =>
      eventCalendarEntries({ ...source, scheduleStatus, scheduleNote }, ['2026-11-29'], context)[0]!
    expect(of('cancelled', 'Rained out')).toMatchObject({
      status: 'CANCELLED',
      summary: 'Cancelled: Jazz',
      uid: 'event-7-2026-11-29@example.org',
    })
    expect(of('cancelled', 'Rained out').description).toMatch(/^Cancelled: Rained out\n\nLive/)
    expect(of('postponed')).toMatchObject({ status: 'TENTATIVE', summary: 'Postponed: Jazz' })
    expect(of('sold_out')).toMatchObject({ status: 'CONFIRMED', summary: 'Jazz' })
    expect(of('sold_out').description).toMatch(/^Sold out\n\n/)
  })
})

describe('zoned times', () => {
  test('the UTC offset of the platform zone on that date, DST included', () => {
    expect(zonedIsoDateTime('2026-11-29', '19:30', 'America/New_York')).toBe('2026-11-29T19:30:00-05:00')
    expect(zonedIsoDateTime('2026-07-04', '09:05', 'America/New_York')).toBe('2026-07-04T09:05:00-04:00')
    expect(zonedIsoDateTime('2026-07-04', '09:05', 'Asia/Kolkata')).toBe('2026-07-04T09:05:00+05:30')
    expect(zonedInstant('2026-11-29', '19:30', 'America/New_York').toISOString()).toBe(
      '2026-11-30T00:30:00.000Z',
    )
  })

  test('asked again, the same answers (each instant a Date of its own); another zone, its own', () => {
    for (let round = 0; round < 2; round++) {
      expect(zonedIsoDateTime('2026-07-04', '09:05', 'America/New_York')).toBe('2026-07-04T09:05:00-04:00')
      expect(zonedIsoDateTime('2026-07-04', '09:05', 'Europe/Berlin')).toBe('2026-07-04T09:05:00+02:00')
      const instant = zonedInstant('2026-03-08', '03:30', 'America/New_York')
      expect(instant.toISOString()).toBe('2026-03-08T07:30:00.000Z')
      instant.setTime(0)
    }
  })
})
