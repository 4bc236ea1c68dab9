import fs from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { CalendarResults } from '#app/components/calendar-results.tsx'
import type { EventTileData } from '#app/models/ads/event-tile.ts'
import { normalizeCalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import { invalidateLiveEvents } from '#app/models/calendar/live-events-cache.server.ts'
import { SPONSORED_TURN_MS, sponsoredTurn } from '#app/models/calendar/sponsored-placement.ts'
import { loader as chargesLoader } from '#app/routes/api.charges.$days.ts'
import { loader as apiPublicLoader } from '#app/routes/api.public-events.ts'
import { loader as calendarLoader } from '#app/routes/calendar.tsx'
import { action as checkoutAction, loader as checkoutLoader } from '#app/routes/checkout.tsx'
import { loader as analyticsCsvLoader } from '#app/routes/dashboard_.events.$id_.analytics[.]csv.ts'
import { loader as adPageLoader } from '#app/routes/dashboard_.events.$id.tsx'
import { loader as embedLoader } from '#app/routes/embed.calendar.tsx'
import { action as viewAction } from '#app/routes/event.$id_.view.ts'
import { slotViewCounter } from '#app/services/analytics/view-counter.server.ts'
import { getSponsoredSlots } from '#app/services/calendar/calendar-page.server.ts'
import {
  countPageViewsWith,
  keepPage,
  SHARED_PAGE_MAX_AGE_S,
  SPONSORED_SLOTS_HEADER,
} from '#app/services/http/page-cache.server.ts'
import { sessionStorage } from '#app/services/http/session.server.ts'
import { changePrices } from '#app/services/payments/pricing.server.ts'
import { refundEventPayment } from '#app/services/payments/payment-refunds.server.ts'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { DEFAULT_PRICE_LIST } from '#app/models/payments/price-list.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { eventDailyStats, events, payments, type Business } from '#db/schema.ts'
import { businessSessionCopy, sessionCookieFor } from '#tests/support/auth.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { toastOf } from '#tests/support/cookie-jar.ts'
import { callRoute } from '#tests/support/routes.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const today = platformToday()
const day = (n: number) => addDaysIso(today, n)
const filtersOf = (query: string) => normalizeCalendarFilters(new URLSearchParams(query)).filters

let owner: Business
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36'

/** A live ad shown today and the next days, sponsored unless told otherwise. */
function liveAd(title: string, overrides: Parameters<typeof insertTestEvent>[1] = {}) {
  return insertTestEvent(owner, {
    eventTitle: title,
    showAdOnDates: [today, day(1), day(2)],
    sponsored: true,
    sponsoredCents: 1500,
    ...overrides,
  })
}

async function setSlots(slots: number) {
  const admin = await insertUser(db, { roles: ['admin'] })
  await changePrices({ ...DEFAULT_PRICE_LIST, sponsoredSlots: slots, note: '' }, admin.id)
  invalidateLiveEvents()
}

beforeEach(async () => {
  // Each test starts from no live ads and the default prices.
  await db.delete(events)
  owner = await insertBusiness(db)
  invalidateLiveEvents()
})

async function calendarPage(query = '') {
  const res = await callRoute(calendarLoader, `/calendar${query}`)
  expect(res.status).toBe(200)
  const body = (await res.json()) as {
    sponsored: EventTileData[]
    featured: EventTileData[]
    events: EventTileData[]
  }
  return { res, body }
}

const titlesOf = (tiles: Array<{ eventTitle: string }>) => tiles.map((tile) => tile.eventTitle)

describe('the Sponsored slots', () => {
  test('only the sponsored ads matching the filters, up to the number of slots, first in the Featured strip, labelled, and in their own place too', async () => {
    await liveAd('Jazz night', { category: ['Music'] })
    await liveAd('Choir concert', { category: ['Music'] })
    await liveAd('Park run', { category: ['Sports'] })
    await liveAd('Plain music ad', { category: ['Music'], sponsored: false })

    const sports = await calendarPage('?category=Sports')
    expect(titlesOf(sports.body.sponsored)).toEqual(['Park run'])
    expect(sports.body.sponsored[0]!.sponsored).toBe(true)
    expect(titlesOf(sports.body.featured)[0]).toBe('Park run')
    expect(titlesOf(sports.body.events)).toEqual(['Park run'])
    // The ad's place in the page itself is not a slot.
    expect(sports.body.events[0]!.sponsored).toBeUndefined()

    const music = await calendarPage('?category=Music')
    expect(titlesOf(music.body.sponsored).sort()).toEqual(['Choir concert', 'Jazz night'])
    expect(titlesOf(music.body.featured).slice(0, 2).sort()).toEqual(['Choir concert', 'Jazz night'])
    expect(titlesOf(music.body.featured)).toContain('Plain music ad')
    // The strip holds each ad once.
    expect(new Set(titlesOf(music.body.featured)).size).toBe(music.body.featured.length)

    // Three match without filters; the host's two slots show two of them.
    const all = await calendarPage()
    expect(all.body.sponsored).toHaveLength(2)

    // A keyword no sponsored ad has: no slots.
    expect((await calendarPage('?keyword=nothing-like-it')).body.sponsored).toEqual([])

    // Dates: one of the ad's dates (display dates or its own) in the window; the card dated from the window's start.
    await db.delete(events)
    await liveAd('Fair', { showAdOnDates: [today, day(5)] })
    await liveAd('Gala', { showAdOnDates: [today], eventDate: day(9) })
    await liveAd('Today only', { showAdOnDates: [today] })
    invalidateLiveEvents()
    const window = (from: string, to: string) => calendarPage(`?from=${from}&to=${to}`)
    const later = await window(day(4), day(6))
    expect(titlesOf(later.body.sponsored)).toEqual(['Fair'])
    expect(later.body.sponsored[0]!.date).toBe(day(5))
    expect(titlesOf((await window(day(8), day(9))).body.sponsored)).toEqual(['Gala'])
    expect((await window(day(10), day(20))).body.sponsored).toEqual([])
    expect(titlesOf((await window(today, today)).body.sponsored)).toHaveLength(2)

    // The label is text on the cards in the slots, and in the strip.
    const html = renderToStaticMarkup(
      createElement(CalendarResults, {
        featured: music.body.featured,
        sponsored: music.body.sponsored,
        events: music.body.events,
        page: 1,
        pageCount: 1,
        pageHref: () => '/calendar',
      }),
    )
    expect(html.match(/>Sponsored</g)).toHaveLength(4)
    expect(html).toContain('aria-label="Sponsored events"')
    expect(html).toContain('/view?from=sponsored')
  })

  test('a search with every match on its first page takes its slots from them; one with more asks which ads match', async () => {
    await liveAd('Lantern walk', { eventDescription: 'A lantern walk by the river' })
    await liveAd('Quiz night', { eventDescription: 'A pub quiz' })
    await liveAd('Lantern workshop', { eventDescription: 'Make a lantern', sponsored: false })
    const narrow = await calendarPage('?keyword=lantern')
    expect(narrow.body.events).toHaveLength(2)
    expect(titlesOf(narrow.body.sponsored)).toEqual(['Lantern walk'])

    // Thirty Music ads on earlier dates fill the first page; the sponsored one is listed after them, on page 2.
    for (let i = 0; i < 30; i++)
      await insertTestEvent(owner, {
        eventTitle: `Early gig ${i}`,
        category: ['Music'],
        showAdOnDates: [today, day(1)],
      })
    await liveAd('Late gig', { category: ['Music'], showAdOnDates: [today, day(3)], eventDate: day(3) })
    invalidateLiveEvents()
    const music = await calendarPage('?category=Music')
    expect(titlesOf(music.body.events)).not.toContain('Late gig')
    expect(titlesOf(music.body.sponsored)).toEqual(['Late gig'])
    expect(titlesOf((await calendarPage('?category=Music&page=2')).body.sponsored)).toEqual(['Late gig'])
    expect(titlesOf((await calendarPage('?keyword=lantern&page=2')).body.sponsored)).toEqual(['Lantern walk'])
    // The same category over other dates: the category's answer is kept, the dates are the ad's own.
    expect(
      titlesOf((await calendarPage(`?category=Music&from=${today}&to=${day(1)}`)).body.sponsored),
    ).toEqual(['Late gig'])
    expect((await calendarPage(`?category=Music&from=${day(1)}&to=${day(2)}`)).body.sponsored).toEqual([])
    expect(
      titlesOf((await calendarPage(`?category=Sports&from=${today}&to=${day(1)}`)).body.sponsored),
    ).toEqual([])
  })

  test('never outside its display dates, never unpaid, unapproved, cancelled, and none when the host sets no slots', async () => {
    await liveAd('From tomorrow', { showAdOnDates: [day(1), day(2)] })
    await liveAd('Unpaid', { paymentStatus: 'pending' })
    await liveAd('Pending review', { eventStatus: 'pending' })
    await liveAd('Cancelled', { scheduleStatus: 'cancelled' })
    await liveAd('Shown')
    expect(titlesOf((await calendarPage()).body.sponsored)).toEqual(['Shown'])

    await setSlots(0)
    try {
      expect((await calendarPage()).body.sponsored).toEqual([])
    } finally {
      await setSlots(DEFAULT_PRICE_LIST.sponsoredSlots)
    }
  })

  test('the slots take turns: over a day each matching ad gets an equal share, and a turn is the same for every request', async () => {
    const ads = await Promise.all(['A', 'B', 'C'].map((title) => liveAd(title)))
    const shown = new Map(ads.map((ad) => [ad.eventID, 0]))
    const start = Math.ceil(Date.now() / SPONSORED_TURN_MS) * SPONSORED_TURN_MS
    const filters = filtersOf('')
    // A request every minute for a day.
    for (let minute = 0; minute < 24 * 60; minute++) {
      const now = start + minute * 60_000
      for (const tile of await getSponsoredSlots(filters, { today, now }))
        shown.set(tile.eventID, shown.get(tile.eventID)! + 1)
    }
    const counts = [...shown.values()]
    expect(counts.reduce((a, b) => a + b)).toBe(2 * 24 * 60)
    // 2 slots × 288 turns over 3 ads: 192 turns each, 5 requests a turn.
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(5)
    expect(Math.min(...counts)).toBeGreaterThan(0.95 * ((2 * 24 * 60) / 3))

    // Within one turn every request sees the same slots; the next turn moves on.
    const first = titlesOf(await getSponsoredSlots(filters, { today, now: start }))
    expect(titlesOf(await getSponsoredSlots(filters, { today, now: start + SPONSORED_TURN_MS - 1 }))).toEqual(
      first,
    )
    expect(titlesOf(await getSponsoredSlots(filters, { today, now: start + SPONSORED_TURN_MS }))).not.toEqual(
      first,
    )
    expect(sponsoredTurn(start + SPONSORED_TURN_MS - 1)).toBe(sponsoredTurn(start))
  })

  test('a page with slots is shared no longer than its turn; a page without keeps the usual sharing', async () => {
    // Without slots the loader leaves sharing to the page's usual headers (`sharedPageHeaders`).
    const plain = await calendarPage()
    expect(plain.res.headers.get('Cache-Control')).toBeNull()
    expect(plain.res.headers.get(SPONSORED_SLOTS_HEADER)).toBeNull()

    const ad = await liveAd('Sponsored fair')
    invalidateLiveEvents()
    const { res } = await calendarPage()
    const maxAge = Number(/s-maxage=(\d+)/.exec(res.headers.get('Cache-Control') ?? '')?.[1])
    const secondsLeft = (SPONSORED_TURN_MS - (Date.now() % SPONSORED_TURN_MS)) / 1000
    expect(maxAge).toBeGreaterThanOrEqual(1)
    expect(maxAge).toBeLessThanOrEqual(Math.min(SHARED_PAGE_MAX_AGE_S, Math.ceil(secondsLeft)))
    expect(res.headers.get('Cache-Control')).toMatch(/^public, max-age=0, s-maxage=\d+$/)
    expect(res.headers.get(SPONSORED_SLOTS_HEADER)).toBe(String(ad.eventID))
  })

  test('the public API marks its slot entries `sponsored: true` on page 1; the embed labels them', async () => {
    const ad = await liveAd('Sponsored market', { category: ['Market'] })
    await liveAd('Other market', { category: ['Market'], sponsored: false })

    const page1 = await callRoute(apiPublicLoader, '/api/public-events?category=Market')
    const entries = (await page1.json()) as Array<{
      eventID: number
      sponsored?: boolean
      totalCost?: unknown
    }>
    expect(entries[0]).toMatchObject({ eventID: ad.eventID, sponsored: true })
    // A visitor gets the public fields only, in a slot too.
    expect(entries[0]!.totalCost).toBeUndefined()
    expect(entries.slice(1).map((entry) => entry.sponsored)).toEqual([undefined, undefined])
    expect(page1.headers.get('X-Total-Count')).toBe('2')

    const page2 = await callRoute(apiPublicLoader, '/api/public-events?category=Market&limit=1&page=2')
    expect(((await page2.json()) as Array<{ sponsored?: boolean }>).some((entry) => entry.sponsored)).toBe(
      false,
    )

    const embed = await callRoute(embedLoader, '/embed/calendar?category=Market')
    const { events: embedded } = (await embed.json()) as {
      events: Array<{ eventID: number; sponsored: boolean }>
    }
    expect(embedded.map((event) => [event.eventID, event.sponsored])).toEqual([
      [ad.eventID, true],
      [ad.eventID, false],
      [expect.any(Number), false],
    ])
    expect(embed.headers.get(SPONSORED_SLOTS_HEADER)).toBe(String(ad.eventID))
  })
})

describe('slot impressions and clicks apart', () => {
  test('a served page counts its slots apart (also from the page cache), a click from a slot is a slot click; the ad page and CSV show both', async () => {
    const ad = await liveAd('Counted fair')
    const counted: number[][] = []
    countPageViewsWith(
      () => {},
      (eventIDs, viewer) => {
        counted.push([...eventIDs])
        slotViewCounter.count(eventIDs, viewer)
      },
    )
    try {
      const request = { method: 'GET', url: 'http://localhost/calendar?slots-test', hasCookie: false }
      const rendered = await callRoute(calendarLoader, '/calendar')
      const page = new Response('<html></html>', {
        status: 200,
        headers: {
          'Cache-Control': rendered.headers.get('Cache-Control')!,
          [SPONSORED_SLOTS_HEADER]: rendered.headers.get(SPONSORED_SLOTS_HEADER)!,
        },
      })
      const sent = await keepPage({ ...request, ip: '203.0.113.7', userAgent: BROWSER }, page)
      // The marker never leaves the server.
      expect(sent.headers.get(SPONSORED_SLOTS_HEADER)).toBeNull()
      const { lookupPage } = await import('#app/services/http/page-cache.server.ts')
      expect(lookupPage({ ...request, ip: '203.0.113.8', userAgent: BROWSER })).toBeDefined()
      expect(counted).toEqual([[ad.eventID], [ad.eventID]])
    } finally {
      countPageViewsWith(() => {})
    }
    await slotViewCounter.flush()

    const fromSlot = await callRoute(viewAction, `/event/${ad.eventID}/view?from=sponsored`, {
      method: 'POST',
      params: { id: String(ad.eventID) },
      headers: { 'X-Forwarded-For': '198.51.100.20', 'User-Agent': BROWSER },
    })
    expect(fromSlot.status).toBe(303)
    await callRoute(viewAction, `/event/${ad.eventID}/view`, {
      method: 'POST',
      params: { id: String(ad.eventID) },
      headers: { 'X-Forwarded-For': '198.51.100.21', 'User-Agent': BROWSER },
    })
    const [stats] = await db.select().from(eventDailyStats).where(eq(eventDailyStats.eventID, ad.eventID))
    expect(stats).toMatchObject({ slotViews: 2, clicks: 2, slotClicks: 1 })

    const cookie = await sessionCookieFor({ business: owner })
    const csv = await callRoute(analyticsCsvLoader, `/dashboard/events/${ad.eventID}/analytics.csv`, {
      headers: { Cookie: cookie },
      params: { id: String(ad.eventID) },
    })
    const lines = (await csv.text()).trim().replaceAll('"', '').split(/\r?\n/)
    expect(lines[0]).toBe(
      'date,views,clicks,bounces,click_through_rate,sponsored_slot_views,sponsored_slot_clicks,qr_scans',
    )
    expect(lines.find((line) => line.startsWith(today))).toMatch(/,2,1,0$/)

    const adPage = await callRoute(adPageLoader, `/dashboard/events/${ad.eventID}`, {
      headers: { Cookie: cookie },
      params: { id: String(ad.eventID) },
    })
    expect(((await adPage.json()) as { totals: unknown }).totals).toMatchObject({
      slotViews: 2,
      slotClicks: 1,
    })

    // An unsponsored ad's CSV has no slot columns.
    const plain = await liveAd('Plain', { sponsored: false })
    const plainCsv = await callRoute(analyticsCsvLoader, `/dashboard/events/${plain.eventID}/analytics.csv`, {
      headers: { Cookie: cookie },
      params: { id: String(plain.eventID) },
    })
    expect((await plainCsv.text()).replaceAll('"', '').split(/\r?\n/)[0]).toBe(
      'date,views,clicks,bounces,click_through_rate,qr_scans',
    )
  })
})

describe('sponsoring an ad at checkout (test provider)', () => {
  const dataDir = path.join(TMP_DIR, `sponsored-it-${process.pid}-${Date.now().toString(36)}`)
  const saved = { DATA_DIR: process.env.DATA_DIR, STRIPE_SECRET_KEY: process.env.STRIPE_SECRET_KEY }
  beforeAll(() => {
    delete process.env.STRIPE_SECRET_KEY
    process.env.DATA_DIR = dataDir
    resetEnvCache()
  })
  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
    resetEnvCache()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  const nextYear = String((new Date().getFullYear() + 1) % 100).padStart(2, '0')

  async function draft(business: Business) {
    return insertTestEvent(business, {
      eventTitle: 'Pancake Breakfast',
      showAdOnDates: [day(1), day(2), day(3)],
      paymentStatus: 'pending',
      eventStatus: 'pending',
      category: ['Fundraiser'],
    })
  }

  async function checkoutCookie(business: Business, event: { eventID: number; showAdOnDates: string[] }) {
    const session = await sessionStorage.getSession()
    session.set('business', businessSessionCopy(business))
    session.set('eventPaymentData', {
      businessID: business.businessID,
      selectedDates: event.showAdOnDates,
      eventData: {
        eventTitle: 'Pancake Breakfast',
        eventDescription: 'All you can eat.',
        eventCategory: ['Fundraiser'],
        showAdDates: event.showAdOnDates,
        eventDate: '1989-01-01',
        contactPerson: '',
        contactPhone: '',
        contactEmail: '',
      },
      totalAmount: 29,
      eventID: event.eventID,
    })
    return (await sessionStorage.commitSession(session)).split(';')[0]!
  }

  const post = (cookie: string, fields: Record<string, string>) =>
    callRoute(checkoutAction, '/checkout', {
      method: 'POST',
      headers: { Cookie: cookie },
      body: new URLSearchParams(fields),
    })
  const page = async (cookie: string) =>
    (await (await callRoute(checkoutLoader, '/checkout', { headers: { Cookie: cookie } })).json()) as {
      summary: { total: string }
      sponsorship: { sponsored: boolean; surcharge: string } | null
    }
  const eventRow = async (eventID: number) =>
    (await db.select().from(events).where(eq(events.eventID, eventID)))[0]!
  const paymentRows = (eventID: number) => db.select().from(payments).where(eq(payments.eventID, eventID))
  const pay = (cookie: string, totalAmount: string) =>
    post(cookie, {
      intent: 'pay',
      cardNumber: '4242424242424242',
      expiry: `12/${nextYear}`,
      cvc: '123',
      totalAmount,
    })

  test('the box adds the surcharge (price per day × display days) to the total shown, charged, and refunded on rejection', async () => {
    const event = await draft(owner)
    const cookie = await checkoutCookie(owner, event)
    expect(await page(cookie)).toMatchObject({
      summary: { total: '29.00' },
      sponsorship: { sponsored: false, surcharge: '15.00' },
    })

    const ticked = await post(cookie, { intent: 'sponsor', sponsored: 'on' })
    expect(ticked.status).toBe(302)
    expect(ticked.headers.get('Location')).toBe('/checkout')
    expect(await page(cookie)).toMatchObject({
      summary: { total: '44.00' },
      sponsorship: { sponsored: true, surcharge: '15.00' },
    })

    // A payment claiming the price without the surcharge is refused: nothing is charged.
    const tampered = await pay(cookie, '29.00')
    expect(await toastOf(tampered)).toMatchObject({ variant: 'destructive' })
    expect((await eventRow(event.eventID)).paymentStatus).toBe('pending')
    expect((await paymentRows(event.eventID)).filter((row) => row.payment_status === 'paid')).toEqual([])

    const paid = await pay(cookie, '44.00')
    expect(paid.headers.get('Location')).toBe('/')
    const row = await eventRow(event.eventID)
    expect(row).toMatchObject({ paymentStatus: 'paid', sponsored: true, sponsoredCents: 1500, totalCost: 44 })
    expect(row.sponsoredAt).toBeInstanceOf(Date)
    const [payment] = (await paymentRows(event.eventID)).filter((p) => p.payment_status === 'paid')
    expect(payment).toMatchObject({ amount_due_cents: 4400, amount_paid_cents: 4400 })

    // Rejected: everything paid comes back, surcharge included.
    const refund = await refundEventPayment(event.eventID, 'Rejected')
    expect(refund).toMatchObject({ refunded: true, amountRefundedCents: 4400 })
  })

  test('unticking takes the surcharge off; another business’s ad or a paid one is refused and left unchanged', async () => {
    const event = await draft(owner)
    const cookie = await checkoutCookie(owner, event)
    await post(cookie, { intent: 'sponsor', sponsored: 'on' })
    await post(cookie, { intent: 'sponsor' })
    expect((await page(cookie)).summary.total).toBe('29.00')
    expect(await eventRow(event.eventID)).toMatchObject({ sponsored: false, sponsoredCents: 0 })

    // Checkout data naming someone else's ad.
    const stranger = await insertBusiness(db)
    const foreign = await post(await checkoutCookie(stranger, event), { intent: 'sponsor', sponsored: 'on' })
    expect(foreign.status).toBe(302)
    expect(foreign.headers.get('Location')).toBe('/')
    expect((await eventRow(event.eventID)).sponsored).toBe(false)

    const paidAd = await insertTestEvent(owner, { showAdOnDates: [day(1)], paymentStatus: 'paid' })
    const already = await post(await checkoutCookie(owner, paidAd), { intent: 'sponsor', sponsored: 'on' })
    expect(already.headers.get('Location')).toBe('/dashboard')
    expect((await eventRow(paidAd.eventID)).sponsored).toBe(false)

    // A value other than the box's: refused at the form, nothing written.
    const odd = await post(cookie, { intent: 'sponsor', sponsored: 'yes please' })
    expect(odd.status).toBe(400)
    expect((await eventRow(event.eventID)).sponsored).toBe(false)
  })

  test('/api/charges is unchanged: the price of the days, no surcharge', async () => {
    const res = await callRoute(chargesLoader, '/api/charges/3', { params: { days: '3' } })
    expect(await res.json()).toEqual({ chargeAmount: 29 })
  })
})
