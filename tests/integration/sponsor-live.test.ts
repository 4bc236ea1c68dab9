import { and, eq } from 'drizzle-orm'
import { beforeEach, describe, expect, test } from 'vitest'
import { DEFAULT_PRICE_LIST } from '#app/models/payments/price-list.ts'
import { SPONSOR_LIVE_TEXT, SPONSORSHIP_PURPOSE } from '#app/models/payments/sponsorship.ts'
import { invalidateLiveEvents } from '#app/models/calendar/live-events-cache.server.ts'
import { loader as adPageLoader } from '#app/routes/dashboard_.events.$id.tsx'
import { loader as receiptLoader } from '#app/routes/dashboard_.receipts.$id.tsx'
import {
  action as sponsorAction,
  loader as sponsorLoader,
} from '#app/routes/dashboard_.events.$id_.sponsor.tsx'
import { getSponsoredSlots } from '#app/services/calendar/calendar-page.server.ts'
import { changePrices } from '#app/services/payments/pricing.server.ts'
import { normalizeCalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness, insertUser } from '#db/factories.ts'
import { events, outbox, payments, type Business, type Event } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { toastOf } from '#tests/support/cookie-jar.ts'
import { insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'
import { useTestPaymentProvider } from '#tests/support/stripe-checkout.ts'

useTestPaymentProvider()

const today = platformToday()
const day = (n: number) => addDaysIso(today, n)
const GOOD_CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/40', cvc: '123' }
const DECLINED_CARD = { ...GOOD_CARD, cardNumber: '4000 0000 0000 0002' }

let owner: Business
let cookie: string

beforeEach(async () => {
  owner = await insertBusiness(db)
  cookie = await sessionCookieFor({ business: owner })
  // Each test starts from the default prices ($5.00 a day, 2 slots).
  await setSponsorPrices({})
})

/** A live ad of `owner`: shown yesterday, today and the next two days (three left), unsponsored. */
function liveAd(overrides: Parameters<typeof insertTestEvent>[1] = {}) {
  return insertTestEvent(owner, { showAdOnDates: [day(-1), today, day(1), day(2)], ...overrides })
}

function sponsorPage(ad: Pick<Event, 'eventID'>, as = cookie) {
  return callRoute(sponsorLoader, `/dashboard/events/${ad.eventID}/sponsor`, {
    headers: { Cookie: as },
    params: { id: String(ad.eventID) },
  })
}

function pay(ad: Pick<Event, 'eventID'>, fields: Record<string, string>, as = cookie) {
  return callRoute(sponsorAction, `/dashboard/events/${ad.eventID}/sponsor`, {
    method: 'POST',
    headers: { Cookie: as, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ intent: 'pay', eventID: String(ad.eventID), ...GOOD_CARD, ...fields }),
    params: { id: String(ad.eventID) },
  })
}

async function adRow(eventID: number) {
  const [row] = await db.select().from(events).where(eq(events.eventID, eventID))
  return row!
}

function sponsorshipPayments(eventID: number) {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.eventID, eventID)))
    .then((rows) =>
      rows.filter((row) => (row.metadata as { purpose?: string })?.purpose === SPONSORSHIP_PURPOSE),
    )
}

async function refusalOf(res: Response) {
  const body = (await res.json()) as { result?: { error?: Record<string, string[]> }; message?: string }
  return body.result?.error?.['']?.join(' ') ?? body.message ?? ''
}

async function setSponsorPrices(change: Partial<typeof DEFAULT_PRICE_LIST>) {
  const admin = await insertUser(db, { roles: ['admin'] })
  await changePrices({ ...DEFAULT_PRICE_LIST, ...change, note: '' }, admin.id)
  invalidateLiveEvents()
}

describe('making a live ad sponsored (test provider, no JavaScript)', () => {
  test('the ad page offers it for the display days left; paying makes it sponsored, in the slots, with a receipt of its own', async () => {
    const ad = await liveAd()
    const adPage = await callRoute(adPageLoader, `/dashboard/events/${ad.eventID}`, {
      headers: { Cookie: cookie },
      params: { id: String(ad.eventID) },
    })
    const before = (await adPage.json()) as {
      sponsorOffer: { href: string; days: number; total: string } | null
      receiptHref: string | null
    }
    // Today and the next two days, at the default $5.00 a day.
    expect(before.sponsorOffer).toEqual({
      href: `/dashboard/events/${ad.eventID}/sponsor`,
      days: 3,
      total: '15.00',
    })

    const page = await sponsorPage(ad)
    expect(page.status).toBe(200)
    expect(await page.json()).toMatchObject({
      days: [today, day(1), day(2)],
      perDay: '5.00',
      total: '15.00',
      mode: 'test',
    })

    const paid = await pay(ad, { totalAmount: '15.00' })
    expect(paid.status).toBe(302)
    expect(paid.headers.get('Location')).toBe(`/dashboard/events/${ad.eventID}`)
    expect(await toastOf(paid)).toMatchObject({ title: SPONSOR_LIVE_TEXT.done.title })

    const after = await adRow(ad.eventID)
    expect(after).toMatchObject({
      sponsored: true,
      sponsoredCents: 1500,
      paymentStatus: 'paid',
      totalCost: 29,
    })
    expect(after.sponsoredAt).toBeInstanceOf(Date)
    const [payment] = await sponsorshipPayments(ad.eventID)
    expect(payment).toMatchObject({ payment_status: 'paid', amount_due_cents: 1500, amount_paid_cents: 1500 })
    expect(payment!.metadata).toMatchObject({ sponsoredDates: [today, day(1), day(2)] })

    // In a Sponsored slot of the calendar from the next page on.
    const slots = await getSponsoredSlots(normalizeCalendarFilters(new URLSearchParams()).filters, { today })
    expect(slots.map((tile) => tile.eventID)).toEqual([ad.eventID])

    // The ad page: no offer now, the sponsorship's receipt beside the ad's own.
    const pageAfter = (await (
      await callRoute(adPageLoader, `/dashboard/events/${ad.eventID}`, {
        headers: { Cookie: cookie },
        params: { id: String(ad.eventID) },
      })
    ).json()) as { sponsorOffer: unknown; sponsorshipReceipts: Array<{ href: string; total: string }> }
    expect(pageAfter.sponsorOffer).toBeNull()
    expect(pageAfter.sponsorshipReceipts).toEqual([
      { href: `/dashboard/receipts/${payment!.paymentID}`, total: '15.00' },
    ])
    const receipt = await callRoute(receiptLoader, `/dashboard/receipts/${payment!.paymentID}`, {
      headers: { Cookie: cookie },
      params: { id: String(payment!.paymentID) },
    })
    expect(await receipt.json()).toMatchObject({
      amount: '$15.00',
      sponsoredDays: expect.stringContaining(','),
    })

    const [mail] = await db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupeKey, `payment-received:${payment!.paymentID}`))
    expect(mail!.subject).toBe(`Payment received: sponsored placement, ${ad.eventTitle}`)
    expect(mail!.textBody).not.toContain('An administrator reviews it')
  })

  test('refused with a message and nothing charged: not live, cancelled, already sponsored, not offered', async () => {
    const cases: Array<[Parameters<typeof insertTestEvent>[1], string]> = [
      [{ paymentStatus: 'pending', eventStatus: 'pending' }, SPONSOR_LIVE_TEXT.notLive],
      [{ eventStatus: 'pending' }, SPONSOR_LIVE_TEXT.notLive],
      [{ showAdOnDates: [day(-3), day(-2)] }, SPONSOR_LIVE_TEXT.notLive],
      [{ scheduleStatus: 'cancelled' }, SPONSOR_LIVE_TEXT.off],
      [{ scheduleStatus: 'postponed' }, SPONSOR_LIVE_TEXT.off],
      [{ sponsored: true, sponsoredCents: 1500 }, SPONSOR_LIVE_TEXT.alreadySponsored],
    ]
    for (const [overrides, message] of cases) {
      const ad = await liveAd(overrides)
      const page = await sponsorPage(ad)
      expect(page.status).toBe(409)
      const posted = await pay(ad, { totalAmount: '15.00' })
      expect(posted.status).toBe(409)
      expect(await refusalOf(posted)).toBe(message)
      expect(await sponsorshipPayments(ad.eventID)).toEqual([])
    }

    await setSponsorPrices({ sponsoredSlots: 0 })
    const ad = await liveAd()
    expect((await sponsorPage(ad)).status).toBe(409)
    expect(await refusalOf(await pay(ad, { totalAmount: '15.00' }))).toBe(
      'Sponsored placement is not offered at the moment.',
    )
    expect(await sponsorshipPayments(ad.eventID)).toEqual([])
  })

  test("another business's ad is 403, an unknown one 404, signed out 401; nothing charged", async () => {
    const ad = await liveAd()
    const stranger = await sessionCookieFor({ business: await insertBusiness(db) })
    expect((await sponsorPage(ad, stranger)).status).toBe(403)
    expect((await pay(ad, { totalAmount: '15.00' }, stranger)).status).toBe(403)
    expect((await sponsorPage({ eventID: 99999999 })).status).toBe(404)
    expect((await pay({ eventID: 99999999 }, { totalAmount: '15.00' })).status).toBe(404)
    const anonymous = await callRoute(sponsorAction, `/dashboard/events/${ad.eventID}/sponsor`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent: 'pay', totalAmount: '15.00', ...GOOD_CARD }),
      params: { id: String(ad.eventID) },
    })
    expect([401, 302]).toContain(anonymous.status)
    expect(await sponsorshipPayments(ad.eventID)).toEqual([])
    expect((await adRow(ad.eventID)).sponsored).toBe(false)
  })

  test('a tampered or outdated total is refused with the price of now; a declined card charges nothing', async () => {
    const ad = await liveAd()
    const tampered = await pay(ad, { totalAmount: '0.01' })
    expect(tampered.status).toBe(400)
    expect(await refusalOf(tampered)).toContain('The total is now $15.00.')

    // The host raises the price between the page and the payment: the advertiser is told, never charged a third amount.
    await setSponsorPrices({ sponsoredCentsPerDay: 700 })
    const outdated = await pay(ad, { totalAmount: '15.00' })
    expect(outdated.status).toBe(400)
    expect(await refusalOf(outdated)).toContain('The total is now $21.00.')
    expect(await sponsorshipPayments(ad.eventID)).toEqual([])

    const hostiles: Array<Record<string, string>> = [
      { totalAmount: '-5' },
      { totalAmount: 'abc' },
      { totalAmount: '' },
      { intent: 'drop' },
    ]
    for (const hostile of hostiles) {
      const res = await pay(ad, { totalAmount: '21.00', ...hostile })
      expect(res.status).toBe(400)
    }

    const declined = await pay(ad, { totalAmount: '21.00', ...DECLINED_CARD })
    expect(declined.status).toBe(402)
    const [failed] = await sponsorshipPayments(ad.eventID)
    expect(failed).toMatchObject({ payment_status: 'failed', amount_paid_cents: 0 })
    expect((await adRow(ad.eventID)).sponsored).toBe(false)

    // The same attempt is paid with a good card for the same amount.
    expect((await pay(ad, { totalAmount: '21.00' })).status).toBe(302)
    expect(await adRow(ad.eventID)).toMatchObject({ sponsored: true, sponsoredCents: 2100 })
  })

  test('20 payments at once: exactly one is charged, the others are told the ad is already sponsored', async () => {
    const ad = await liveAd()
    const answers = await Promise.all(Array.from({ length: 20 }, () => pay(ad, { totalAmount: '15.00' })))
    const statuses = answers.map((res) => res.status)
    expect(statuses.filter((status) => status === 302)).toHaveLength(1)
    expect(statuses.filter((status) => status === 409)).toHaveLength(19)
    const paid = (await sponsorshipPayments(ad.eventID)).filter((row) => row.payment_status === 'paid')
    expect(paid).toHaveLength(1)
    expect(await adRow(ad.eventID)).toMatchObject({ sponsored: true, sponsoredCents: 1500 })
  })
})
