/**
 * An ad's QR code: drawn inline on its event page and on each line of the print listings (page and HTML snippet),
 * read back with a real decoder (the SVG rendered to pixels by sharp, decoded by jsQR); and its address,
 * `/event/{id}/qr`, which sends a phone on to the ad's page and counts the scan as a source of its own — once per
 * visitor within the repeat window, never for a prefetch, a bot, a subresource or another site's request — shown
 * on the ad's analytics page and in its CSV.
 */
import { and, eq } from 'drizzle-orm'
import jsQR from 'jsqr'
import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { eventPagePath } from '#app/models/ads/event-address.ts'
import { eventQrUrl } from '#app/models/ads/event-qr.ts'
import { REPEAT_WINDOW_MINUTES } from '#app/models/analytics/click.server.ts'
import * as listingsRoute from '#app/routes/admin_.listings.tsx'
import { loader as listingsHtmlLoader } from '#app/routes/admin_.listings[.]html.ts'
import * as adPageRoute from '#app/routes/dashboard_.events.$id.tsx'
import { loader as analyticsCsvLoader } from '#app/routes/dashboard_.events.$id_.analytics[.]csv.ts'
import * as eventRoute from '#app/routes/event.$id.tsx'
import { loader as qrLoader } from '#app/routes/event.$id_.qr.ts'
import { action as viewAction } from '#app/routes/event.$id_.view.ts'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { clickCount, eventDailyStats, type Business, type Event } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { shownAfter, textOf } from '#tests/support/document-request.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'

const ORIGIN = 'https://events.example.org'
const today = platformToday()
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
/** What a phone's browser sends when its camera opens a scanned address. */
const SCAN_HEADERS = {
  'User-Agent': PHONE,
  'Sec-Fetch-Site': 'none',
  'Sec-Fetch-Mode': 'navigate',
  'Sec-Fetch-Dest': 'document',
}

const EVENT_PAGE = [{ path: '/event/:id', ...eventRoute }]
const LISTINGS_PAGE = [{ path: '/admin/listings', ...listingsRoute }]
const AD_PAGE = [{ path: '/dashboard/events/:id', ...adPageRoute }]

/** What a QR code drawn as SVG reads as. */
async function decode(svg: string): Promise<string | null> {
  const { data, info } = await sharp(Buffer.from(svg), { density: 288 })
    .flatten({ background: '#ffffff' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data ?? null
}

const svgsOf = (html: string) => [...html.matchAll(/<svg\b[\s\S]*?<\/svg>/g)].map((m) => m[0])

let owner: Business
let live: Event

beforeAll(async () => {
  process.env.PUBLIC_URL = ORIGIN
  resetEnvCache()
  owner = await insertBusiness(db, { businessName: 'Scanned Cafe' })
})

afterAll(() => {
  delete process.env.PUBLIC_URL
  resetEnvCache()
})

beforeEach(async () => {
  await db.delete(clickCount)
  await db.delete(eventDailyStats)
  live = await insertTestEvent(owner, {
    eventTitle: 'Poster Night',
    showAdOnDates: [today, addDaysIso(today, 2)],
  })
})

function scan(
  eventID: number | string,
  { ip = '198.51.100.7', headers = {} as Record<string, string> } = {},
) {
  return callRoute(qrLoader, `/event/${eventID}/qr`, {
    params: { id: String(eventID) },
    headers: { ...SCAN_HEADERS, 'X-Forwarded-For': ip, ...headers },
  })
}

async function scansOf(eventID: number) {
  return db
    .select()
    .from(clickCount)
    .where(and(eq(clickCount.eventID, eventID), eq(clickCount.qrScan, true)))
}

async function dayOf(eventID: number) {
  const [row] = await db
    .select()
    .from(eventDailyStats)
    .where(and(eq(eventDailyStats.eventID, eventID), eq(eventDailyStats.day, today)))
  return row
}

describe("the event page's QR code", () => {
  test("a live ad's page has an inline SVG QR code, with its text alternative, that reads as the ad's QR address", async () => {
    const page = await shownAfter(EVENT_PAGE, eventPagePath(live))
    expect(page.status).toBe(200)
    const figure = /<figure data-testid="event-qr"[\s\S]*?<\/figure>/.exec(page.html)?.[0] ?? ''
    expect(figure).toMatch(
      /<div role="img" aria-label="QR code: scan it with a phone to open “Poster Night” on its event page"/,
    )
    expect(textOf(figure)).toBe('Scan to open this event on a phone')
    const [svg] = svgsOf(figure)
    expect(await decode(svg!)).toBe(`${ORIGIN}/event/${live.eventID}/qr`)
    expect(eventQrUrl(live.eventID, ORIGIN)).toBe(`${ORIGIN}/event/${live.eventID}/qr`)
    // No script draws it: the page's one script is still the bounce beacon's.
    expect(page.html.match(/<script\b/g)).toHaveLength(1)
    expect(page.html).toContain('track-bounce')
  })

  test('the code is the same for every visitor (the shared page cache keeps it with the page)', async () => {
    const anonymous = await shownAfter(EVENT_PAGE, eventPagePath(live))
    const signedIn = await shownAfter(EVENT_PAGE, eventPagePath(live), {
      headers: {
        Cookie: await sessionCookieFor({ business: await insertBusiness(db) }),
        'User-Agent': PHONE,
      },
    })
    expect(svgsOf(signedIn.html)).toEqual(svgsOf(anonymous.html))
  })

  test('an ad that is not live has none (its owner sees it as it stands)', async () => {
    const ended = await insertTestEvent(owner, { showAdOnDates: [addDaysIso(today, -3)] })
    const page = await shownAfter(EVENT_PAGE, `/event/${ended.eventID}?viewMode=true`, {
      headers: { Cookie: await sessionCookieFor({ business: owner }) },
    })
    expect(page.status).toBe(200)
    expect(page.html).not.toContain('data-testid="event-qr"')
  })
})

describe('GET /event/{id}/qr', () => {
  test("a phone's scan goes on to the ad's page and counts one scan (not a click); a second within the window does not", async () => {
    const response = await scan(live.eventID)
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe(eventPagePath(live))
    expect(response.headers.get('Cache-Control')).toBe('no-store')
    expect(await scansOf(live.eventID)).toHaveLength(1)
    expect(await dayOf(live.eventID)).toMatchObject({ scans: 1, clicks: 0, bounces: 0 })

    const again = await scan(live.eventID)
    expect(again.status).toBe(302)
    expect(again.headers.get('Location')).toBe(eventPagePath(live))
    expect(await scansOf(live.eventID)).toHaveLength(1)
    expect((await dayOf(live.eventID))?.scans).toBe(1)

    // Another phone counts; a browser that does not say what it fetches (no Sec-Fetch headers) is taken at its word.
    await scan(live.eventID, { ip: '198.51.100.8' })
    await callRoute(qrLoader, `/event/${live.eventID}/qr`, {
      params: { id: String(live.eventID) },
      headers: { 'User-Agent': PHONE, 'X-Forwarded-For': '198.51.100.9' },
    })
    expect((await dayOf(live.eventID))?.scans).toBe(3)
  })

  test(`past the ${REPEAT_WINDOW_MINUTES}-minute window, the same phone counts again`, async () => {
    await scan(live.eventID)
    await db
      .update(clickCount)
      .set({ created_at: new Date(Date.now() - (REPEAT_WINDOW_MINUTES + 1) * 60_000) })
      .where(eq(clickCount.eventID, live.eventID))
    await scan(live.eventID)
    expect(await scansOf(live.eventID)).toHaveLength(2)
  })

  test('a scan and a click on a listing by the same visitor are two sources: each counts', async () => {
    await scan(live.eventID)
    const ping = await callRoute(viewAction, `/event/${live.eventID}/view`, {
      method: 'POST',
      params: { id: String(live.eventID) },
      headers: { 'User-Agent': PHONE, 'X-Forwarded-For': '198.51.100.7', 'Ping-To': eventPagePath(live) },
    })
    expect(ping.status).toBe(204)
    expect(await dayOf(live.eventID)).toMatchObject({ scans: 1, clicks: 1 })
  })

  test('a prefetch, a bot, an image or script pointing at it, and another site’s request count nothing, and still redirect', async () => {
    const refused: Array<Record<string, string>> = [
      { 'Sec-Purpose': 'prefetch' },
      { 'Sec-Purpose': 'prefetch;prerender' },
      { Purpose: 'prefetch' },
      { 'X-Moz': 'prefetch' },
      { 'User-Agent': GOOGLEBOT },
      { 'User-Agent': 'WhatsApp/2.23.20.0' },
      { 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'image' },
      { 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Dest': 'empty' },
      { 'Sec-Fetch-Site': 'cross-site' },
    ]
    for (const headers of refused) {
      const response = await scan(live.eventID, { headers })
      expect(response.status, JSON.stringify(headers)).toBe(302)
      expect(response.headers.get('Location')).toBe(eventPagePath(live))
    }
    expect(await scansOf(live.eventID)).toHaveLength(0)
    expect(await dayOf(live.eventID)).toBeUndefined()
  })

  test('a HEAD counts nothing', async () => {
    const response = await callRoute(qrLoader, `/event/${live.eventID}/qr`, {
      method: 'HEAD',
      params: { id: String(live.eventID) },
      headers: { ...SCAN_HEADERS, 'X-Forwarded-For': '198.51.100.7' },
    })
    expect(response.status).toBe(302)
    expect(await scansOf(live.eventID)).toHaveLength(0)
  })

  test('an ad that is not live: sent to its page without its title (not found for visitors), nothing counted', async () => {
    const ended = await insertTestEvent(owner, { showAdOnDates: [addDaysIso(today, -3)] })
    const pending = await insertTestEvent(owner, { eventStatus: 'pending', showAdOnDates: [today] })
    for (const ad of [ended, pending]) {
      const response = await scan(ad.eventID)
      expect(response.status).toBe(302)
      expect(response.headers.get('Location')).toBe(`/event/${ad.eventID}?viewMode=true`)
      expect(await scansOf(ad.eventID)).toHaveLength(0)
    }
    const visitor = await shownAfter(EVENT_PAGE, `/event/${pending.eventID}?viewMode=true`)
    expect(visitor.status).toBe(404)
    expect((await scan(999_999)).headers.get('Location')).toBe('/event/999999?viewMode=true')
    expect((await scan('not-a-number')).status).toBe(404)
  })
})

describe("the scans in the ad's figures", () => {
  test('the analytics page and the CSV show the scans as their own column', async () => {
    await scan(live.eventID)
    await scan(live.eventID, { ip: '198.51.100.8' })
    const cookie = await sessionCookieFor({ business: owner })
    const page = await shownAfter(AD_PAGE, `/dashboard/events/${live.eventID}?from=${today}&to=${today}`, {
      headers: { Cookie: cookie },
    })
    expect(page.status).toBe(200)
    const totals = /<dl[^>]*data-testid="ad-totals"[\s\S]*?<\/dl>/.exec(page.html)?.[0] ?? ''
    expect(textOf(totals)).toContain('Clicks 0')
    expect(textOf(totals)).toContain('QR code scans 2')
    const table = /<table[\s\S]*?<\/table>/.exec(page.html)?.[0] ?? ''
    expect(table).toContain('<th scope="col">QR code scans</th>')
    expect(table).toContain(`<th scope="row">${today}</th><td>0</td><td>0</td><td>0</td><td>—</td><td>2</td>`)

    const csv = await callRoute(analyticsCsvLoader, `/dashboard/events/${live.eventID}/analytics.csv`, {
      params: { id: String(live.eventID) },
      headers: { Cookie: cookie },
    })
    expect(csv.status).toBe(200)
    const lines = (await csv.text()).trim().split('\r\n')
    expect(lines[0]).toBe('"date","views","clicks","bounces","click_through_rate","qr_scans"')
    expect(lines.find((line) => line.startsWith(`"${today}"`))).toBe(`"${today}","0","0","0","—","2"`)
  })
})

describe('the print listings', () => {
  const first = addDaysIso(today, 200)
  const range = `from=${first}&to=${addDaysIso(first, 1)}`
  let listed: Event[]
  let adminCookie: string

  beforeAll(async () => {
    adminCookie = await sessionCookieFor({ user: await insertUser(db, { roles: ['admin'] }) })
    const listing = await insertBusiness(db, { businessName: 'Listed Hall' })
    listed = [
      await insertTestEvent(listing, { eventTitle: 'Choir', startTime: '18:00', showAdOnDates: [first] }),
      await insertTestEvent(listing, {
        eventTitle: 'Quiz',
        startTime: '20:00',
        showAdOnDates: [first, addDaysIso(first, 1)],
      }),
      await insertTestEvent(listing, { eventTitle: 'Market', showAdOnDates: [addDaysIso(first, 1)] }),
    ]
  })

  const idOf = (title: string) => listed.find((ad) => ad.eventTitle === title)!.eventID

  test("the page: one QR code per line, each reading as that line's ad", async () => {
    const page = await shownAfter(LISTINGS_PAGE, `/admin/listings?${range}`, {
      headers: { Cookie: adminCookie },
    })
    expect(page.status).toBe(200)
    const lines = [...page.html.matchAll(/<li\b[\s\S]*?<\/li>/g)].map((m) => m[0])
    expect(lines).toHaveLength(4)
    for (const line of lines) {
      const title = ['Choir', 'Quiz', 'Market'].find((t) => line.includes(`>${t}<`))!
      expect(line).toContain(
        `aria-label="QR code: scan it with a phone to open “${title}” on its event page"`,
      )
      const svgs = svgsOf(line)
      expect(svgs, title).toHaveLength(1)
      expect(await decode(svgs[0]!)).toBe(`${ORIGIN}/event/${idOf(title)}/qr`)
    }
  })

  test("the HTML snippet: one QR code per line, each reading as that line's ad", async () => {
    const response = await callRoute(listingsHtmlLoader, `/admin/listings.html?${range}`, {
      headers: { Cookie: adminCookie },
    })
    expect(response.status).toBe(200)
    const lines = [...(await response.text()).matchAll(/<li>[\s\S]*?<\/li>/g)].map((m) => m[0])
    expect(lines.map((line) => /<strong>([^<]+)<\/strong>/.exec(line)?.[1])).toEqual([
      'Choir',
      'Quiz',
      'Market',
      'Quiz',
    ])
    for (const line of lines) {
      const title = /<strong>([^<]+)<\/strong>/.exec(line)![1]!
      const svgs = svgsOf(line)
      expect(svgs).toHaveLength(1)
      expect(await decode(svgs[0]!)).toBe(`${ORIGIN}/event/${idOf(title)}/qr`)
    }
  })
})
