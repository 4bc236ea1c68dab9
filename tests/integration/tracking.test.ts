import crypto from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { hashVisitorIp, recordEventVisit, REPEAT_WINDOW_MINUTES } from '#app/models/analytics/click.server.ts'
import { loader as clickStatsLoader } from '#app/routes/api.business.$id.click-stats.ts'
import { action as trackBounce } from '#app/routes/api.events.$id.track-bounce.ts'
import { action as trackClick } from '#app/routes/api.events.$id.track-click.ts'
import { action as viewAction, loader as viewLoader } from '#app/routes/event.$id_.view.ts'
import { getEnv } from '#app/services/platform/env.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { clickCount, eventDailyStats, events, type Business, type Event } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { expectConsoleError } from '#tests/support/fail-on-console-error.ts'
import { callRoute } from '#tests/support/routes.ts'

const today = platformToday()
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36'
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

let owner: Business
let live: Event

beforeAll(async () => {
  owner = await insertBusiness(db, { businessName: 'Tracked Cafe' })
})

beforeEach(async () => {
  // The daily figures are a rollup kept by a trigger on insert; removing click rows does not take them back.
  await db.delete(clickCount)
  await db.delete(eventDailyStats)
  live = await insertTestEvent(owner, { showAdOnDates: [today, addDaysIso(today, 3)] })
})

function post(
  action: typeof trackClick,
  eventID: number | string,
  { ip = '203.0.113.7', userAgent = BROWSER, headers = {} as Record<string, string> } = {},
) {
  const kind = action === trackBounce ? 'track-bounce' : 'track-click'
  return callRoute(action, `/api/events/${eventID}/${kind}`, {
    method: 'POST',
    params: { id: String(eventID) },
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': userAgent,
      'X-Forwarded-For': ip,
      ...headers,
    },
    body: '{}',
  })
}

async function rowsFor(eventID: number) {
  return db.select().from(clickCount).where(eq(clickCount.eventID, eventID))
}

describe('POST /api/events/{id}/track-click', () => {
  test('stores a click row with a keyed hash of the IP, never the IP', async () => {
    const response = await post(trackClick, live.eventID)
    expect(response.status).toBe(204)
    expect(await response.text()).toBe('')
    const rows = await rowsFor(live.eventID)
    expect(rows).toHaveLength(1)
    const [row] = rows
    expect(row).toMatchObject({
      businessID: owner.businessID,
      eventID: live.eventID,
      clickDate: today,
      bounceClick: false,
    })
    expect(row!.userIPaddress).toMatch(/^[0-9a-f]{64}$/)
    expect(row!.userIPaddress).not.toContain('203.0.113.7')
    expect(row!.userIPaddress).toBe(hashVisitorIp('203.0.113.7', getEnv().sessionSecrets[0]!))
  })

  test('the hash is keyed: a plain SHA-256 of the address is not what is stored', async () => {
    await post(trackClick, live.eventID)
    const [row] = await rowsFor(live.eventID)
    expect(row!.userIPaddress).not.toBe(crypto.createHash('sha256').update('203.0.113.7').digest('hex'))
    expect(hashVisitorIp('203.0.113.7', 'another secret')).not.toBe(row!.userIPaddress)
  })

  test('known bots are not counted (still 204)', async () => {
    expect((await post(trackClick, live.eventID, { userAgent: GOOGLEBOT })).status).toBe(204)
    expect(await rowsFor(live.eventID)).toHaveLength(0)
  })

  test(`a repeat from the same visitor within ${REPEAT_WINDOW_MINUTES} minutes is not counted; another visitor is`, async () => {
    await post(trackClick, live.eventID)
    await post(trackClick, live.eventID)
    expect(await rowsFor(live.eventID)).toHaveLength(1)
    await post(trackClick, live.eventID, { ip: '198.51.100.20' })
    expect(await rowsFor(live.eventID)).toHaveLength(2)
  })

  test('after the window the same visitor counts again', async () => {
    await post(trackClick, live.eventID)
    const old = new Date(Date.now() - (REPEAT_WINDOW_MINUTES + 1) * 60_000)
    await db.update(clickCount).set({ created_at: old }).where(eq(clickCount.eventID, live.eventID))
    await post(trackClick, live.eventID)
    expect(await rowsFor(live.eventID)).toHaveLength(2)
  })

  test('a click and a bounce are separate kinds: one of each is kept', async () => {
    await post(trackClick, live.eventID)
    await post(trackBounce, live.eventID)
    await post(trackBounce, live.eventID)
    const rows = await rowsFor(live.eventID)
    expect(rows.map((r) => r.bounceClick).sort()).toEqual([false, true])
  })

  test('a request another site made the browser send is not counted', async () => {
    expect(
      (await post(trackClick, live.eventID, { headers: { 'Sec-Fetch-Site': 'cross-site' } })).status,
    ).toBe(204)
    expect(await rowsFor(live.eventID)).toHaveLength(0)
  })

  test('without a client address every click counts (repeats cannot be told apart)', async () => {
    const result = async () =>
      recordEventVisit({
        eventID: live.eventID,
        kind: 'click',
        ip: null,
        userAgent: BROWSER,
        today,
        secret: 'k',
      })
    expect(await result()).toBe('recorded')
    expect(await result()).toBe('recorded')
    const rows = await rowsFor(live.eventID)
    expect(rows.map((r) => r.userIPaddress)).toEqual(['', ''])
  })

  test('only live events are tracked: unknown, ended, unpaid and unapproved are 404 JSON', async () => {
    const ended = await insertTestEvent(owner, { showAdOnDates: [addDaysIso(today, -2)] })
    const unpaid = await insertTestEvent(owner, { showAdOnDates: [today], paymentStatus: 'pending' })
    const pending = await insertTestEvent(owner, { showAdOnDates: [today], eventStatus: 'pending' })
    for (const id of [999_999, ended.eventID, unpaid.eventID, pending.eventID, 'abc']) {
      const response = await post(trackClick, id)
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual({ message: 'Event not found' })
    }
    expect(await db.select().from(clickCount)).toHaveLength(0)
  })

  test('counted clicks show in the advertiser’s statistics', async () => {
    await post(trackClick, live.eventID)
    await post(trackClick, live.eventID, { ip: '198.51.100.1' })
    await post(trackBounce, live.eventID)
    const cookie = await sessionCookieFor({ business: owner })
    const response = await callRoute(clickStatsLoader, `/api/business/${owner.businessID}/click-stats`, {
      params: { id: String(owner.businessID) },
      headers: { Cookie: cookie },
    })
    const stats = (await response.json()) as Array<{
      eventID: number
      totalClicks: number
      totalBounces: number
    }>
    expect(stats.find((s) => s.eventID === live.eventID)).toEqual({
      eventID: live.eventID,
      totalClicks: 2,
      totalBounces: 1,
    })
    expect(
      stats.filter((s) => s.eventID !== live.eventID).every((s) => s.totalClicks + s.totalBounces === 0),
    ).toBe(true)
  })
})

describe('POST /api/events/{id}/track-bounce', () => {
  test('stores a bounce row', async () => {
    const response = await post(trackBounce, live.eventID)
    expect(response.status).toBe(204)
    const rows = await rowsFor(live.eventID)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ bounceClick: true, clickDate: today, businessID: owner.businessID })
  })

  test('an empty body (as some beacons send) is fine too', async () => {
    const response = await callRoute(trackBounce, `/api/events/${live.eventID}/track-bounce`, {
      method: 'POST',
      params: { id: String(live.eventID) },
      headers: { 'User-Agent': BROWSER },
    })
    expect(response.status).toBe(204)
  })

  test('a bot’s bounce is ignored; a not-live event is 404', async () => {
    expect((await post(trackBounce, live.eventID, { userAgent: GOOGLEBOT })).status).toBe(204)
    await db.update(events).set({ eventStatus: 'rejected' }).where(eq(events.eventID, live.eventID))
    expect((await post(trackBounce, live.eventID)).status).toBe(404)
    expect(await rowsFor(live.eventID)).toHaveLength(0)
  })
})

describe("POST /event/{id}/view ('View details' without JavaScript)", () => {
  function view(eventID: number | string, headers: Record<string, string> = {}) {
    return callRoute(viewAction, `/event/${eventID}/view`, {
      method: 'POST',
      params: { id: String(eventID) },
      headers: { 'User-Agent': BROWSER, 'X-Forwarded-For': '192.0.2.44', ...headers },
    })
  }

  test('records a click and answers 303 to the event page', async () => {
    const response = await view(live.eventID)
    expect(response.status).toBe(303)
    expect(response.headers.get('Location')).toBe(`/event/${live.eventID}?viewMode=true`)
    expect(await rowsFor(live.eventID)).toMatchObject([{ bounceClick: false }])
  })

  test('a click that cannot be counted still navigates', async () => {
    const ended = await insertTestEvent(owner, { showAdOnDates: [addDaysIso(today, -2)] })
    const response = await view(ended.eventID)
    expect(response.status).toBe(303)
    expect(response.headers.get('Location')).toBe(`/event/${ended.eventID}?viewMode=true`)
  })

  test('a failing database never blocks the navigation', async () => {
    expectConsoleError()
    await db.execute(sql`ALTER TABLE "clickCount" RENAME TO "clickCount_away"`)
    try {
      const response = await view(live.eventID)
      expect(response.status).toBe(303)
      expect(response.headers.get('Location')).toBe(`/event/${live.eventID}?viewMode=true`)
    } finally {
      await db.execute(sql`ALTER TABLE "clickCount_away" RENAME TO "clickCount"`)
    }
  })

  test('a GET (a crawler following the form) goes to the event without counting', async () => {
    const response = await callRoute(viewLoader, `/event/${live.eventID}/view`, {
      params: { id: String(live.eventID) },
    })
    expect(response.status).toBe(303)
    expect(await rowsFor(live.eventID)).toHaveLength(0)
  })

  test('a malformed id goes back to the calendar', async () => {
    const response = await view('nope')
    expect(response.headers.get('Location')).toBe('/calendar')
  })

  test("a link's ping records the click and answers an empty 204, whichever way it is told apart", async () => {
    const first = await view(live.eventID, {
      'Content-Type': 'text/ping',
      'Ping-To': 'http://localhost/event/1-x',
    })
    expect(first.status).toBe(204)
    expect(first.headers.get('Location')).toBeNull()
    expect(await first.text()).toBe('')
    expect(await rowsFor(live.eventID)).toMatchObject([{ bounceClick: false }])
    const other = await insertTestEvent(owner, { showAdOnDates: [today] })
    expect((await view(other.eventID, { 'Ping-To': 'http://localhost/event/2-y' })).status).toBe(204)
    expect(await rowsFor(other.eventID)).toHaveLength(1)
  })

  test("a bot's ping is answered but not counted", async () => {
    const response = await view(live.eventID, { 'Content-Type': 'text/ping', 'User-Agent': GOOGLEBOT })
    expect(response.status).toBe(204)
    expect(await rowsFor(live.eventID)).toHaveLength(0)
  })
})
