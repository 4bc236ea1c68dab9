import { eq } from 'drizzle-orm'
import ICAL from 'ical.js'
import { beforeAll, describe, expect, test } from 'vitest'
import { invalidateLiveEvents } from '#app/models/calendar/live-events-cache.server.ts'
import { loader as icsLoader } from '#app/routes/calendar[.]ics.ts'
import { loader as rssLoader } from '#app/routes/calendar[.]rss.ts'
import { loader as eventLoader } from '#app/routes/event.$id.tsx'
import { loader as eventIcsLoader } from '#app/routes/event.$id_.calendar[.]ics.ts'
import { getEnv } from '#app/services/platform/env.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { events, type Business, type Event, type NewEvent } from '#db/schema.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'

const today = platformToday()
const day = (n: number) => addDaysIso(today, n)

/** The next `mm-dd` after today: a date always in winter (EST) or summer (EDT), whatever day the tests run. */
function next(monthDay: string) {
  const year = Number(today.slice(0, 4))
  const thisYear = `${year}-${monthDay}`
  return thisYear > today ? thisYear : `${year + 1}-${monthDay}`
}
const winter = next('01-15')
const summer = next('07-15')
const compact = (isoDate: string) => isoDate.replaceAll('-', '')

let owner: Business
let jazz: Event
let breakfast: Event
let market: Event
let lateShow: Event
let fair: Event
let hostile: Event

const HOSTILE_TITLE = 'Party\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:evil@example.org\r\nSUMMARY:Injected'

async function insert(overrides: Partial<NewEvent> & { showAdOnDates?: string[] }) {
  return insertTestEvent(owner, { showAdOnDates: [day(1)], ...overrides })
}

async function update(event: Event, values: Partial<NewEvent>) {
  await db.update(events).set(values).where(eq(events.eventID, event.eventID))
  invalidateLiveEvents()
}

beforeAll(async () => {
  // The expected instants below are New York's.
  expect(getEnv().APP_TIME_ZONE).toBe('America/New_York')
  owner = await insertBusiness(db, {
    businessName: 'Blue Note',
    businessAddress: '5 Elm St',
    businessCity: 'Springfield',
    businessState: 'IL',
    businessZip: '62704',
  })
  jazz = await insert({
    eventTitle: 'Friday Night Jazz Trio',
    eventDate: winter,
    startTime: '19:30',
    endTime: '22:00',
    priceCents: 1500,
  })
  breakfast = await insert({ eventTitle: 'Summer Breakfast', eventDate: summer, startTime: '09:05' })
  market = await insert({ eventTitle: 'Farmers Market', eventDate: day(3) })
  lateShow = await insert({
    eventTitle: 'Late Show',
    eventDate: day(4),
    startTime: '22:00',
    endTime: '01:30',
  })
  fair = await insert({ eventTitle: 'Street Fair', eventDate: day(5), startTime: '12:00', endTime: '16:00' })
  hostile = await insert({ eventTitle: HOSTILE_TITLE, eventDate: day(6) })
  invalidateLiveEvents()
})

function parse(text: string) {
  return new ICAL.Component(ICAL.parse(text))
}

async function calendar(path = '/calendar.ics') {
  const response = await callRoute(icsLoader, path)
  expect(response.status).toBe(200)
  return response.text()
}

async function eventCalendar(event: Event) {
  const response = await callRoute(eventIcsLoader, `/event/${event.eventID}/calendar.ics`, {
    params: { id: String(event.eventID) },
  })
  expect(response.status).toBe(200)
  return response.text()
}

function entryOf(text: string, event: Event) {
  const found = parse(text)
    .getAllSubcomponents('vevent')
    .filter((v) => String(v.getFirstPropertyValue('uid')).startsWith(`event-${event.eventID}-`))
  expect(found).toHaveLength(1)
  return new ICAL.Event(found[0]!)
}

describe('times in /calendar.ics and the event’s .ics', () => {
  test('a timed event: DTSTART and DTEND with TZID, one VTIMEZONE, and ical.js finds the right instant', async () => {
    for (const text of [await calendar(), await eventCalendar(jazz)]) {
      expect(text).toContain(`DTSTART;TZID=America/New_York:${compact(winter)}T193000\r\n`)
      expect(text).toContain(`DTEND;TZID=America/New_York:${compact(winter)}T220000\r\n`)
      const zones = parse(text).getAllSubcomponents('vtimezone')
      expect(zones).toHaveLength(1)
      expect(zones[0]!.getFirstPropertyValue('tzid')).toBe('America/New_York')
      const entry = entryOf(text, jazz)
      expect(entry.startDate.zone.tzid).toBe('America/New_York')
      expect(entry.startDate.toJSDate().toISOString()).toBe(`${addDaysIso(winter, 1)}T00:30:00.000Z`)
      expect(entry.endDate.toJSDate().toISOString()).toBe(`${addDaysIso(winter, 1)}T03:00:00.000Z`)
      expect(entry.uid).toBe(`event-${jazz.eventID}-${winter}@localhost`)
    }
  })

  test('a summer date is read with daylight saving time; without an end time there is no DTEND', async () => {
    const text = await eventCalendar(breakfast)
    const entry = entryOf(text, breakfast)
    expect(entry.startDate.toJSDate().toISOString()).toBe(`${summer}T13:05:00.000Z`)
    expect(text).not.toContain('DTEND')
  })

  test('an all-day event stays VALUE=DATE, and a calendar of all-day events only has no VTIMEZONE', async () => {
    const text = await eventCalendar(market)
    expect(text).toContain(`DTSTART;VALUE=DATE:${compact(day(3))}\r\n`)
    expect(text).toContain(`DTEND;VALUE=DATE:${compact(day(4))}\r\n`)
    const entry = entryOf(text, market)
    expect(entry.startDate.isDate).toBe(true)
    expect(parse(text).getAllSubcomponents('vtimezone')).toHaveLength(0)
    expect(entryOf(await calendar(), market).startDate.isDate).toBe(true)
  })

  test('an event ending after midnight ends on the next day', async () => {
    const entry = entryOf(await calendar(), lateShow)
    expect(entry.startDate.toString()).toBe(`${day(4)}T22:00:00`)
    expect(entry.endDate.toString()).toBe(`${day(5)}T01:30:00`)
    expect(entry.endDate.toJSDate() > entry.startDate.toJSDate()).toBe(true)
  })

  test('DTSTAMP is the UTC time the calendar was written', async () => {
    const before = Date.now()
    const stamp = parse(await calendar())
      .getFirstSubcomponent('vevent')!
      .getFirstPropertyValue('dtstamp')
    const instant = (stamp as ICAL.Time).toJSDate().getTime()
    expect(instant).toBeGreaterThan(before - 2_000)
    expect(instant).toBeLessThan(Date.now() + 1_000)
  })

  test('a title holding CRLF and BEGIN:VEVENT adds no component', async () => {
    const text = await calendar()
    expect(text).not.toMatch(/^UID:evil/m)
    const entry = entryOf(text, hostile)
    expect(entry.summary).toBe(HOSTILE_TITLE.replace(/\r\n/g, '\n'))
    const uids = parse(text)
      .getAllSubcomponents('vevent')
      .map((v) => v.getFirstPropertyValue('uid'))
    expect(uids.filter((uid) => String(uid).includes('evil'))).toEqual([])
    expect(text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true)
  })
})

describe('a change of the ad reaches subscribed calendars under the same UID with a higher SEQUENCE', () => {
  const uid = () => `event-${fair.eventID}-${day(5)}@localhost`

  async function fairEntry() {
    const entry = entryOf(await calendar(), fair)
    expect(entry.uid).toBe(uid())
    return entry
  }

  test('a title change, a time change, then cancelling: each raises SEQUENCE; cancelled stays listed', async () => {
    const first = await fairEntry()
    expect(first.component.getFirstPropertyValue('status')).toBe('CONFIRMED')

    await update(fair, { eventTitle: 'Street Fair & Parade' })
    const renamed = await fairEntry()
    expect(renamed.summary).toBe('Street Fair & Parade')
    expect(renamed.sequence).toBeGreaterThan(first.sequence)

    await update(fair, { startTime: '13:00', endTime: '17:00' })
    const retimed = await fairEntry()
    expect(retimed.startDate.toString()).toBe(`${day(5)}T13:00:00`)
    expect(retimed.sequence).toBeGreaterThan(renamed.sequence)

    await update(fair, { scheduleStatus: 'cancelled', scheduleNote: 'Rained out, sorry' })
    const cancelled = await fairEntry()
    expect(cancelled.component.getFirstPropertyValue('status')).toBe('CANCELLED')
    expect(cancelled.summary).toBe('Cancelled: Street Fair & Parade')
    expect(cancelled.description).toMatch(/^Cancelled: Rained out, sorry\n/)
    expect(cancelled.sequence).toBeGreaterThan(retimed.sequence)

    // The event's own file says the same.
    const own = entryOf(await eventCalendar(fair), fair)
    expect(own.uid).toBe(uid())
    expect(own.component.getFirstPropertyValue('status')).toBe('CANCELLED')
    expect(own.sequence).toBe(cancelled.sequence)
  })

  test('RSS: the same item (guid) says "Cancelled", the note and the time', async () => {
    const xml = await (await callRoute(rssLoader, '/calendar.rss')).text()
    const item = [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)]
      .map((m) => m[1]!)
      .find((i) => i.includes(`/event/${fair.eventID}-`))!
    expect(item).toContain(`<title>Cancelled: Street Fair &amp; Parade (${day(5)}, 1 PM – 5 PM)</title>`)
    expect(item).toContain('<description>Cancelled: Rained out, sorry\n')
    expect(item).toContain(
      `<guid isPermaLink="true">http://localhost/event/${fair.eventID}-street-fair-parade</guid>`,
    )
    const jazzItem = [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)]
      .map((m) => m[1]!)
      .find((i) => i.includes(`/event/${jazz.eventID}-`))!
    expect(jazzItem).toContain(`<title>Friday Night Jazz Trio (${winter}, 7:30 PM – 10 PM)</title>`)
  })
})

describe('postponed and sold out in the feeds', () => {
  test('postponed stays TENTATIVE with "Postponed: "; sold out stays CONFIRMED with "Sold out"', async () => {
    const before = entryOf(await calendar(), lateShow).sequence
    await update(lateShow, { scheduleStatus: 'postponed', scheduleNote: 'New date to follow' })
    const postponed = entryOf(await calendar(), lateShow)
    expect(postponed.component.getFirstPropertyValue('status')).toBe('TENTATIVE')
    expect(postponed.summary).toBe('Postponed: Late Show')
    expect(postponed.description).toMatch(/^Postponed: New date to follow\n/)
    expect(postponed.sequence).toBeGreaterThan(before)

    await update(breakfast, { scheduleStatus: 'sold_out' })
    const soldOut = entryOf(await calendar(), breakfast)
    expect(soldOut.component.getFirstPropertyValue('status')).toBe('CONFIRMED')
    expect(soldOut.summary).toBe('Summer Breakfast')
    expect(soldOut.description).toMatch(/^Sold out\n/)
  })
})

describe('the event page: JSON-LD and the Google Calendar link', () => {
  async function pageData(event: Event) {
    const response = await callRoute(eventLoader, `/event/${event.eventID}?viewMode=true`, {
      params: { id: String(event.eventID) },
    })
    expect(response.status).toBe(200)
    return (await response.json()) as {
      seo: { jsonLd: Record<string, unknown> }
      facts: { googleCalendarUrl: string }
    }
  }

  test('a timed event: start and end with the UTC offset of that date, scheduled', async () => {
    const { seo, facts } = await pageData(jazz)
    expect(seo.jsonLd).toMatchObject({
      startDate: `${winter}T19:30:00-05:00`,
      endDate: `${winter}T22:00:00-05:00`,
      eventStatus: 'https://schema.org/EventScheduled',
    })
    expect((seo.jsonLd.offers as Record<string, unknown>).availability).toBe('https://schema.org/InStock')
    const google = new URL(facts.googleCalendarUrl)
    expect(google.searchParams.get('dates')).toBe(`${compact(winter)}T193000/${compact(winter)}T220000`)
    expect(google.searchParams.get('ctz')).toBe('America/New_York')
  })

  test('summer time has the daylight offset; after midnight the end is the next day', async () => {
    expect((await pageData(breakfast)).seo.jsonLd.startDate).toBe(`${summer}T09:05:00-04:00`)
    const late = await pageData(lateShow)
    expect(late.seo.jsonLd.endDate).toMatch(new RegExp(`^${day(5)}T01:30:00[-+]\\d\\d:\\d\\d$`))
    expect(new URL(late.facts.googleCalendarUrl).searchParams.get('dates')).toBe(
      `${compact(day(4))}T220000/${compact(day(5))}T013000`,
    )
  })

  test('an all-day event keeps dates only, and the all-day Google link', async () => {
    const { seo, facts } = await pageData(market)
    expect(seo.jsonLd).toMatchObject({ startDate: day(3), endDate: day(3) })
    const google = new URL(facts.googleCalendarUrl)
    expect(google.searchParams.get('dates')).toBe(`${compact(day(3))}/${compact(day(4))}`)
    expect(google.searchParams.has('ctz')).toBe(false)
  })

  test('eventStatus: cancelled, postponed; sold out is scheduled with its offer sold out', async () => {
    await update(jazz, { scheduleStatus: 'sold_out' })
    const soldOut = (await pageData(jazz)).seo.jsonLd
    expect(soldOut.eventStatus).toBe('https://schema.org/EventScheduled')
    expect(soldOut.offers).toMatchObject({ availability: 'https://schema.org/SoldOut', price: 15 })
    await update(market, { scheduleStatus: 'postponed' })
    expect((await pageData(market)).seo.jsonLd.eventStatus).toBe('https://schema.org/EventPostponed')
    await update(hostile, { scheduleStatus: 'cancelled' })
    expect((await pageData(hostile)).seo.jsonLd.eventStatus).toBe('https://schema.org/EventCancelled')
  })
})
