import { TZDate } from '@date-fns/tz'
import { eq } from 'drizzle-orm'
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { dailyStatsForBusiness } from '#app/models/analytics/daily-stats.server.ts'
import { recordEventVisit } from '#app/models/analytics/click.server.ts'
import { loader as analyticsLoader } from '#app/routes/api.business.$id.analytics.ts'
import { getEnv, resetEnvCache } from '#app/services/platform/env.server.ts'
import {
  countPageViewsWith,
  keepPage,
  LISTED_EVENTS_HEADER,
  lookupPage,
  type PageRequest,
} from '#app/services/http/page-cache.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import {
  startViewCounting,
  stopViewCounting,
  VIEW_FLUSH_INTERVAL_MS,
  ViewCounter,
  viewCounter,
} from '#app/services/analytics/view-counter.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { clickCount, eventDailyStats, events, type Business, type Event } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { BUILD_TIMEOUT_MS, builtRequestHandler } from '#tests/support/built-app.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'

const today = platformToday()
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36'
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

let request: Awaited<ReturnType<typeof builtRequestHandler>>
let owner: Business
let neighbour: Business
let shown: Event
let other: Event
let ipCounter = 0

beforeAll(async () => {
  request = await builtRequestHandler()
  // As the server entry does when it starts: the page cache counts the views of what it serves.
  countPageViewsWith((eventIDs, viewer) => viewCounter.count(eventIDs, viewer))
  owner = await insertBusiness(db, { businessName: 'Counted Coffee' })
  neighbour = await insertBusiness(db, { businessName: 'Next Door Deli' })
  shown = await insertTestEvent(owner, { eventTitle: 'Latte Art Night', showAdOnDates: [today] })
  other = await insertTestEvent(neighbour, { eventTitle: 'Pickle Tasting', showAdOnDates: [today] })
}, BUILD_TIMEOUT_MS)

beforeEach(async () => {
  await viewCounter.flush()
  await db.delete(eventDailyStats)
})

afterEach(() => {
  vi.useRealTimers()
})

/** A visitor of their own (a new address each time unless given). */
function visitor(overrides: Partial<PageRequest> = {}) {
  return { ip: `198.51.100.${++ipCounter}`, userAgent: BROWSER, ...overrides }
}

/** A page served as server.js serves it: rendered by the built app and passed through the shared page cache. */
async function serve(path: string, who = visitor()) {
  const req: PageRequest = { method: 'GET', url: `analytics.test${path}`, hasCookie: false, ...who }
  const cached = lookupPage(req)
  if (cached) return { status: cached.status, fromCache: true, headers: new Headers(cached.headers) }
  const response = await keepPage(req, await request(path))
  return { status: response.status, fromCache: false, headers: response.headers }
}

async function viewsOf(eventID: number) {
  await viewCounter.flush()
  const rows = await dailyStatsForBusiness(
    eventID === shown.eventID ? owner.businessID : neighbour.businessID,
    {
      from: today,
      to: today,
    },
  )
  return rows.find((row) => row.eventID === eventID)?.views ?? 0
}

describe('views, counted where a page is served', () => {
  test("a visit of the ad's public page counts a view, also when the page comes from the shared cache", async () => {
    const path = `/event/${shown.eventID}?viewMode=true`
    const first = await serve(path)
    expect(first).toMatchObject({ status: 200, fromCache: false })
    expect(first.headers.has(LISTED_EVENTS_HEADER)).toBe(false)
    const second = await serve(path)
    expect(second).toMatchObject({ status: 200, fromCache: true })
    expect(second.headers.has(LISTED_EVENTS_HEADER)).toBe(false)
    expect(await viewsOf(shown.eventID)).toBe(2)
    expect(await viewsOf(other.eventID)).toBe(0)
  })

  test('each ad listed on /calendar and /public counts a view, from the cache too', async () => {
    for (const path of ['/calendar', '/calendar', '/public', '/public'])
      expect((await serve(path)).status).toBe(200)
    expect(await viewsOf(shown.eventID)).toBe(4)
    expect(await viewsOf(other.eventID)).toBe(4)
  })

  test('with VIEW_COUNTING=off nothing is counted, rendered or cached; on again, it is', async () => {
    process.env.VIEW_COUNTING = 'off'
    resetEnvCache()
    try {
      await serve(`/event/${other.eventID}?viewMode=true`)
      await serve(`/event/${other.eventID}?viewMode=true`)
      await serve('/calendar')
      expect(await viewsOf(other.eventID)).toBe(0)
    } finally {
      delete process.env.VIEW_COUNTING
      resetEnvCache()
    }
    await serve(`/event/${other.eventID}?viewMode=true`)
    expect(await viewsOf(other.eventID)).toBe(1)
  })

  test('a page fetched ahead of a visit (a prefetch, a prerender) is not counted, rendered or from the cache', async () => {
    for (const [name, value] of [
      ['Sec-Purpose', 'prefetch'],
      ['Sec-Purpose', 'prefetch;prerender'],
      ['Purpose', 'prefetch'],
      ['X-Moz', 'prefetch'],
    ] as const) {
      const ahead = visitor({
        header: (asked) => (asked.toLowerCase() === name.toLowerCase() ? value : undefined),
      })
      for (let i = 0; i < 2; i++) {
        expect((await serve(`/event/${other.eventID}?viewMode=true`, ahead)).status).toBe(200)
        expect((await serve('/calendar?keyword=Pickle', ahead)).status).toBe(200)
      }
    }
    expect(await viewsOf(other.eventID)).toBe(0)
    // The visit itself, from the cache the prefetch filled, is counted.
    expect(await serve(`/event/${other.eventID}?viewMode=true`)).toMatchObject({ fromCache: true })
    expect(await viewsOf(other.eventID)).toBe(1)
  })

  test('bots are not counted, rendered or cached', async () => {
    const bot = visitor({ userAgent: GOOGLEBOT })
    await serve(`/event/${other.eventID}?viewMode=true`, bot)
    await serve(`/event/${other.eventID}?viewMode=true`, bot)
    await serve('/calendar?keyword=Pickle', bot)
    expect(await viewsOf(other.eventID)).toBe(0)
  })

  test('the same visitor again within the window is not counted again; after it, it is', async () => {
    const regular = visitor()
    const counter = new ViewCounter()
    // Noon in the platform's time zone: the 31 minutes below must not cross into another day (views are kept per day).
    const [year, month, day] = today.split('-').map(Number) as [number, number, number]
    const start = new TZDate(year, month - 1, day, 12, 0, 0, getEnv().APP_TIME_ZONE).getTime()
    counter.count([shown.eventID], regular, start)
    counter.count([shown.eventID], regular, start + 29 * 60_000)
    counter.count([shown.eventID, other.eventID], regular, start + 29 * 60_000)
    expect(counter.pendingViews().map((v) => [v.eventID, v.views])).toEqual([
      [shown.eventID, 1],
      [other.eventID, 1],
    ])
    counter.count([shown.eventID], regular, start + 31 * 60_000)
    expect(counter.pendingViews().find((v) => v.eventID === shown.eventID)?.views).toBe(2)

    await serve('/calendar?keyword=Latte', regular)
    await serve('/calendar?keyword=Latte', regular)
    await serve(`/event/${shown.eventID}?viewMode=true`, regular)
    expect(await viewsOf(shown.eventID)).toBe(1)
  })

  test('an unpublished ad counts no view, and a HEAD request counts none', async () => {
    const hidden = await insertTestEvent(owner, { showAdOnDates: [today], eventStatus: 'pending' })
    expect((await serve(`/event/${hidden.eventID}?viewMode=true`)).status).toBe(404)
    const req: PageRequest = { method: 'HEAD', url: `analytics.test/public`, hasCookie: false, ...visitor() }
    await serve('/public?page=1')
    expect(lookupPage({ ...req, url: 'analytics.test/public?page=1' })).toBeDefined()
    expect(viewCounter.pendingViews().find((v) => v.eventID === hidden.eventID)).toBeUndefined()
    expect(await viewsOf(shown.eventID)).toBe(1)
  })
})

describe('the batch writer', () => {
  test('writes on its interval, as increments to the ad-day row', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    startViewCounting()
    viewCounter.count([shown.eventID], visitor())
    viewCounter.count([shown.eventID], visitor())
    expect(await db.select().from(eventDailyStats)).toEqual([])
    vi.advanceTimersByTime(VIEW_FLUSH_INTERVAL_MS)
    await viewCounter.settled()
    expect(viewCounter.pendingViews()).toEqual([])
    const rows = await dailyStatsForBusiness(owner.businessID, { from: today, to: today })
    expect(rows).toEqual([{ eventID: shown.eventID, date: today, views: 2, clicks: 0, bounces: 0 }])
    await stopViewCounting()
  })

  test('stopping (the server shutting down) writes what is left', async () => {
    startViewCounting()
    viewCounter.count([other.eventID], visitor())
    await stopViewCounting()
    expect(viewCounter.pendingViews()).toEqual([])
    expect(await viewsOf(other.eventID)).toBe(1)
  })

  test('two servers adding to the same ad and day at once lose nothing', async () => {
    const a = new ViewCounter()
    const b = new ViewCounter()
    for (let i = 0; i < 30; i++) a.count([shown.eventID], visitor())
    for (let i = 0; i < 12; i++) b.count([shown.eventID], visitor())
    await Promise.all([a.flush(), b.flush()])
    for (let i = 0; i < 5; i++) a.count([shown.eventID], visitor())
    await Promise.all([a.flush(), b.flush()])
    expect(await viewsOf(shown.eventID)).toBe(47)
  })

  test('the views of an ad deleted before the batch are dropped, the rest written', async () => {
    const doomed = await insertTestEvent(owner, { showAdOnDates: [today] })
    const counter = new ViewCounter()
    counter.count([doomed.eventID, shown.eventID], visitor())
    await db.delete(events).where(eq(events.eventID, doomed.eventID))
    await counter.flush()
    expect(await viewsOf(shown.eventID)).toBe(1)
  })
})

describe('clicks and bounces in the daily figures', () => {
  test('each click or bounce recorded adds to its day; bots and repeats do not', async () => {
    const secret = getEnv().sessionSecrets[0]!
    const visit = (kind: 'click' | 'bounce', ip: string, userAgent = BROWSER) =>
      recordEventVisit({ eventID: shown.eventID, kind, ip, userAgent, today, secret })
    expect(await visit('click', '203.0.113.1')).toBe('recorded')
    expect(await visit('click', '203.0.113.1')).toBe('ignored')
    expect(await visit('click', '203.0.113.2')).toBe('recorded')
    expect(await visit('bounce', '203.0.113.1')).toBe('recorded')
    expect(await visit('click', '203.0.113.3', GOOGLEBOT)).toBe('ignored')
    expect(await dailyStatsForBusiness(owner.businessID, { from: today, to: today })).toEqual([
      { eventID: shown.eventID, date: today, views: 0, clicks: 2, bounces: 1 },
    ])
  })
})

describe('GET /api/business/{id}/analytics', () => {
  const yesterday = addDaysIso(today, -1)

  async function get(query: string, as: Business | null = owner, id = owner.businessID) {
    const headers: Record<string, string> = as ? { Cookie: await sessionCookieFor({ business: as }) } : {}
    return callRoute(analyticsLoader, `/api/business/${id}/analytics${query}`, {
      params: { id: String(id) },
      headers,
    })
  }

  test('one row per ad and day with any activity, only the business’s own ads', async () => {
    await db.insert(clickCount).values([
      { businessID: owner.businessID, eventID: shown.eventID, clickDate: yesterday, userIPaddress: 'a' },
      { businessID: owner.businessID, eventID: shown.eventID, clickDate: yesterday, bounceClick: true },
      { businessID: neighbour.businessID, eventID: other.eventID, clickDate: yesterday, userIPaddress: 'b' },
    ])
    const counter = new ViewCounter()
    counter.count([shown.eventID, other.eventID], visitor())
    await counter.flush()
    const response = await get(`?from=${yesterday}&to=${today}`)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual([
      { eventID: shown.eventID, date: yesterday, views: 0, clicks: 1, bounces: 1 },
      { eventID: shown.eventID, date: today, views: 1, clicks: 0, bounces: 0 },
    ])
    expect(await (await get(`?from=${yesterday}&to=${yesterday}`)).json()).toHaveLength(1)
    expect(await (await get(`?from=2020-01-01&to=2020-01-31`)).json()).toEqual([])
  })

  test.each([
    ['', /from: a date/],
    [`?from=${today}`, /to: a date/],
    ['?from=2026-13-45&to=2026-12-01', /from: "2026-13-45" is not a valid date/],
    ['?from=2026-02-01&to=2026-02-30', /to: "2026-02-30" is not a valid date/],
    ['?from=yesterday&to=today', /not a valid date/],
    ['?from=2026-03-02&to=2026-03-01', /ends before it starts/],
    ['?from=2024-01-01&to=2026-01-01', /longer than 366 days/],
  ])('400 for %s', async (query, message) => {
    const response = await get(query)
    expect(response.status).toBe(400)
    expect(((await response.json()) as { message: string }).message).toMatch(message)
  })

  test('401 signed out, 403 for another business’s id', async () => {
    expect((await get(`?from=${today}&to=${today}`, null)).status).toBe(401)
    const foreign = await get(`?from=${today}&to=${today}`, owner, neighbour.businessID)
    expect(foreign.status).toBe(403)
  })
})

describe("the ad's page and its CSV", () => {
  const from = addDaysIso(today, -2)
  const range = `?from=${from}&to=${today}`

  async function seedFigures() {
    await db.insert(clickCount).values([
      { businessID: owner.businessID, eventID: shown.eventID, clickDate: from, userIPaddress: 'x' },
      { businessID: owner.businessID, eventID: shown.eventID, clickDate: today, userIPaddress: 'y' },
      { businessID: owner.businessID, eventID: shown.eventID, clickDate: today, bounceClick: true },
    ])
    const counter = new ViewCounter()
    for (let i = 0; i < 8; i++) counter.count([shown.eventID], visitor())
    await counter.flush()
  }

  async function page(path: string, as: Business | null = owner) {
    const headers: Record<string, string> = as ? { Cookie: await sessionCookieFor({ business: as }) } : {}
    return request(path, { headers })
  }

  test('the owner sees the history, the totals, an SVG chart with its title and description, and a table', async () => {
    await seedFigures()
    const response = await page(`/dashboard/events/${shown.eventID}${range}`)
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain('Latte Art Night')
    expect(html).toMatch(/<svg[^>]*role="img"/)
    expect(html).toContain(`<title id="chart-title">Views and clicks per day for Latte Art Night</title>`)
    expect(html).toContain(`from ${from} to ${today}: 8 views and 2 clicks in all`)
    expect(html).toContain(`<title>${today}: 8 views</title>`)
    expect(html).toContain(`<title>${from}: 1 clicks</title>`)
    const table = /<table[^]*?<\/table>/.exec(html)?.[0] ?? ''
    expect(table.match(/<th scope="row">/g)).toHaveLength(3)
    expect(table).toContain(`<th scope="row">${today}</th><td>8</td><td>1</td><td>1</td><td>12.5%</td>`)
    expect(html).toContain('Click-through rate')
    expect(html).toContain(`/dashboard/events/${shown.eventID}/analytics.csv?from=${from}&amp;to=${today}`)
    expect(html).toMatch(/Created<\/span>\d{4}-\d{2}-\d{2}/)
    // Plain HTML: no application script is loaded.
    expect(html).not.toContain('<script type="module"')
  })

  test('this month by default; a bad range is a 400 saying why', async () => {
    const response = await page(`/dashboard/events/${shown.eventID}`)
    expect(response.status).toBe(200)
    expect(await response.text()).toMatch(new RegExp(`name="from"[^>]*value="${today.slice(0, 7)}-01"`))
    for (const bad of [
      '?from=2026-02-30&to=2026-03-01',
      `?from=${today}&to=${from}`,
      '?from=2020-01-01&to=2026-01-01',
    ]) {
      expect((await page(`/dashboard/events/${shown.eventID}${bad}`)).status).toBe(400)
    }
  })

  test('the CSV holds one line per day of the range', async () => {
    await seedFigures()
    const response = await page(`/dashboard/events/${shown.eventID}/analytics.csv${range}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toMatch(/^text\/csv/)
    expect(response.headers.get('Content-Disposition')).toContain(`ad-${shown.eventID}-${from}-${today}.csv`)
    expect(await response.text()).toBe(
      [
        '"date","views","clicks","bounces","click_through_rate","qr_scans"',
        `"${from}","0","1","0","—","0"`,
        `"${addDaysIso(today, -1)}","0","0","0","—","0"`,
        `"${today}","8","1","1","12.5%","0"`,
        '',
      ].join('\r\n'),
    )
    expect((await page(`/dashboard/events/${shown.eventID}/analytics.csv?from=x&to=y`)).status).toBe(400)
  })

  test('another business gets 403, a missing ad 404, and signed out there is nothing to see', async () => {
    for (const path of [
      `/dashboard/events/${shown.eventID}`,
      `/dashboard/events/${shown.eventID}/analytics.csv`,
    ]) {
      const foreign = await page(path, neighbour)
      expect(foreign.status).toBe(403)
      expect(await foreign.text()).not.toContain('Latte Art Night')
    }
    expect((await page('/dashboard/events/999999', owner)).status).toBe(404)
    expect((await page('/dashboard/events/999999/analytics.csv', owner)).status).toBe(404)
    expect((await page(`/dashboard/events/${shown.eventID}/analytics.csv`, null)).status).toBe(401)
    const signedOut = await page(`/dashboard/events/${shown.eventID}`, null)
    expect(signedOut.status).toBe(302)
    expect(signedOut.headers.get('Location')).toMatch(/^\/login/)
  })

  test('the dashboard card links to the ad’s page', async () => {
    const html = await (await page('/dashboard')).text()
    expect(html).toContain(`href="/dashboard/events/${shown.eventID}"`)
  })
})
