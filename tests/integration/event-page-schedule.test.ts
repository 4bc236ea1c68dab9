import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { announcePublicPagesChanged } from '#app/models/calendar/public-pages-changes.server.ts'
import { keepPage, lookupPage } from '#app/services/http/page-cache.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { events, type Business } from '#db/schema.ts'
import { BUILD_TIMEOUT_MS, builtRequestHandler } from '#tests/support/built-app.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'

let request: Awaited<ReturnType<typeof builtRequestHandler>>
let owner: Business
let today: string

const TICKETS = 'https://tickets.example.com/schedule-test'

beforeAll(async () => {
  request = await builtRequestHandler()
  today = platformToday()
  owner = await insertBusiness(db, { businessName: 'Schedule Hall' })
}, BUILD_TIMEOUT_MS)

async function liveAd(overrides: Parameters<typeof insertTestEvent>[1] = {}) {
  return insertTestEvent(owner, {
    eventDate: addDaysIso(today, 3),
    showAdOnDates: [today],
    ticketUrl: TICKETS,
    priceCents: 1200,
    ...overrides,
  })
}

async function eventPage(eventID: number) {
  const response = await request(`/event/${eventID}?viewMode=true`)
  expect(response.status).toBe(200)
  return response.text()
}

/** The page's own part, without the head (its JSON-LD names the ticket offer whatever the status). */
const mainOf = (html: string) => html.slice(html.indexOf('<main'), html.indexOf('</main>'))

/** What a visitor reads of the page's main part: tags dropped, spaces collapsed. */
function mainText(html: string) {
  return mainOf(html)
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ')
}

const bannerOf = (html: string) =>
  /<p role="status" data-testid="schedule-banner"[^>]*>([^<]*)<\/p>/.exec(html)?.[1]

describe('the event page says when, and whether it is on (built app, server-rendered HTML)', () => {
  test('a timed event: its time beside the date, "Add to calendar", Google Calendar and tickets; no banner', async () => {
    const ad = await liveAd({ eventTitle: 'Timed Trio', startTime: '19:30', endTime: '22:00' })
    const html = await eventPage(ad.eventID)
    const text = mainText(html)
    expect(text).toMatch(/Date \w{3} \d{1,2}, \d{4} Time 7:30 PM – 10 PM/)
    expect(html).toContain('Add to calendar')
    expect(html).toContain('calendar.google.com')
    // The advertiser's link, credited to the site (the UTM rule: outbound-links.test.ts).
    expect(mainOf(html)).toMatch(
      new RegExp(
        `href="${TICKETS}\\?utm_source=[^"]+&amp;utm_medium=event_listing&amp;utm_campaign=${ad.eventID}-timed-trio"`,
      ),
    )
    expect(html).not.toContain('data-testid="schedule-banner"')
    expect(html).not.toContain('data-testid="schedule-status"')
  })

  test('cancelled with a note: the banner with the note, the label; no "Add to calendar", Google link, tickets or reminders', async () => {
    const ad = await liveAd({
      eventTitle: 'Rained-Out Fair',
      startTime: '10:00',
      scheduleStatus: 'cancelled',
      scheduleNote: 'Moved to the gym',
    })
    const html = await eventPage(ad.eventID)
    expect(bannerOf(html)).toBe('This event is cancelled. Moved to the gym')
    expect(html).toMatch(/data-status="cancelled"[^>]*>Cancelled</)
    expect(mainText(html)).toContain('Time 10 AM')
    expect(html).not.toContain('Add to calendar')
    expect(html).not.toContain('calendar.google.com/calendar/render')
    expect(mainOf(html)).not.toContain(TICKETS)
    expect(html).not.toContain('Remind me')
    // Still reachable and shareable.
    expect(html).toContain('Share by email')
  })

  test('postponed: the banner, no "Add to calendar" and no tickets', async () => {
    const ad = await liveAd({
      eventTitle: 'Later Slam',
      scheduleStatus: 'postponed',
      scheduleNote: 'New date to follow',
    })
    const html = await eventPage(ad.eventID)
    expect(bannerOf(html)).toBe('This event is postponed. New date to follow')
    expect(html).not.toContain('Add to calendar')
    expect(mainOf(html)).not.toContain(TICKETS)
  })

  test('sold out: "Sold out" in place of the tickets link; it can still be added to a calendar', async () => {
    const ad = await liveAd({ eventTitle: 'Full House Comedy', scheduleStatus: 'sold_out' })
    const html = await eventPage(ad.eventID)
    expect(bannerOf(html)).toBe('This event is sold out.')
    expect(mainText(html)).toContain('Tickets: From $12 · Sold out')
    expect(mainOf(html)).not.toContain(TICKETS)
    expect(html).toContain('Add to calendar')
  })

  test('a hostile note is text, not markup', async () => {
    const ad = await liveAd({ scheduleStatus: 'cancelled', scheduleNote: '<img src=x onerror=alert(1)>' })
    const html = await eventPage(ad.eventID)
    expect(html).not.toContain('<img src=x')
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
  })

  test('a status change shows on the next request, though the page was in the shared page cache', async () => {
    const ad = await liveAd({ eventTitle: 'Cached Concert', startTime: '20:00' })
    const path = `/event/${ad.eventID}?viewMode=true`
    const req = { method: 'GET', url: `schedule.test${path}`, hasCookie: false }
    await keepPage(req, await request(path))
    const stored = lookupPage(req)
    expect(stored?.body.toString()).toContain('Add to calendar')

    // As the status change saves it: the row, then the announcement every cache listens to.
    await db
      .update(events)
      .set({ scheduleStatus: 'cancelled', scheduleNote: 'Band unwell', scheduleChangedAt: new Date() })
      .where(eq(events.eventID, ad.eventID))
    await announcePublicPagesChanged()

    expect(lookupPage(req)).toBeUndefined()
    const html = await (await keepPage(req, await request(path))).text()
    expect(bannerOf(html)).toBe('This event is cancelled. Band unwell')
    expect(html).not.toContain('Add to calendar')
    expect(bannerOf(lookupPage(req)!.body.toString())).toBe('This event is cancelled. Band unwell')
  })
})

describe('the embed says when, and whether it is on', () => {
  test('time after the date and the status label', async () => {
    await liveAd({
      eventTitle: 'Embed Timed Gig',
      startTime: '19:30',
      endTime: '22:00',
      category: ['EmbedTest'],
    })
    await liveAd({ eventTitle: 'Embed Called Off', scheduleStatus: 'postponed', category: ['EmbedTest'] })
    await announcePublicPagesChanged()
    const response = await request('/embed/calendar?category=EmbedTest')
    expect(response.status).toBe(200)
    const html = await response.text()
    const text = mainText(html)
    expect(text).toMatch(/Embed Timed Gig \w{3} \d{1,2}, \d{4} · 7:30 PM – 10 PM/)
    expect(text).toMatch(/Embed Called Off Postponed \w{3} \d{1,2}, \d{4} /)
  })
})
