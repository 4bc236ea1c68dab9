import { desc, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { showDateBounds } from '#app/models/ads/event-dates.ts'
import {
  DAYS_NOT_INCREASING,
  DOLLARS_MESSAGE,
  LAST_TIER_MESSAGE,
  tierPriceTooHigh,
  TOO_LONG_MESSAGE,
  TOO_MANY_TIERS_MESSAGE,
} from '#app/models/payments/price-list.ts'
import * as pricingRoute from '#app/routes/admin_.pricing.tsx'
import { action as approveEvent } from '#app/routes/api.approve-event.ts'
import { loader as chargesLoader } from '#app/routes/api.charges.$days.ts'
import { action as createPayment } from '#app/routes/api.create-event-payment.ts'
import { action as checkoutAction, loader as checkoutLoader } from '#app/routes/checkout.tsx'
import { loader as newEventLoader } from '#app/routes/dashboard.events.new.tsx'
import { sessionStorage } from '#app/services/http/session.server.ts'
import { useTestPaymentProvider } from '#tests/support/stripe-checkout.ts'
import { TOTAL_MISMATCH_MESSAGE } from '#app/utils/pricing.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { events, payments, priceLists, type Business, type User } from '#db/schema.ts'
import { approveBody, days, today, useUploadFolder } from '#tests/support/ad-submission.ts'
import { businessSessionCopy, sessionCookieFor } from '#tests/support/auth.ts'
import { toastOf } from '#tests/support/cookie-jar.ts'
import { browse, textOf } from '#tests/support/document-request.ts'
import { insertBusiness, insertPaidPayment } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'

useUploadFolder('admin-pricing')

useTestPaymentProvider()

let admin: User
let adminCookie: string
let owner: Business
let ownerCookie: string

beforeAll(async () => {
  admin = await insertUser(db, { roles: ['admin'] })
  adminCookie = await sessionCookieFor({ user: admin })
  owner = await insertBusiness(db)
  ownerCookie = await sessionCookieFor({ business: owner })
})

const PRICING_PAGE = [{ path: '/admin/pricing', ...pricingRoute }]

/** A full, valid form: the default prices unless changed. */
function pricesForm(fields: Record<string, string> = {}) {
  return {
    upToDays1: '7',
    price1: '29',
    upToDays2: '14',
    price2: '49',
    upToDays3: '21',
    price3: '69',
    sponsoredPerDay: '5',
    sponsoredSlots: '2',
    ...fields,
  }
}

function postPrices(fields: Record<string, string>, cookie = adminCookie) {
  return callRoute(pricingRoute.action, '/admin/pricing', {
    method: 'POST',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  })
}

async function setPrices(fields: Record<string, string>) {
  const res = await postPrices(fields)
  expect(res.status).toBe(302)
}

async function versionCount() {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(priceLists)
  return row!.n
}

async function chargeFor(days: number) {
  const res = await callRoute(chargesLoader, `/api/charges/${days}`, { params: { days: String(days) } })
  expect(res.status).toBe(200)
  return ((await res.json()) as { chargeAmount: number }).chargeAmount
}

async function insertAd(overrides: Partial<typeof events.$inferInsert> = {}, count = 3) {
  const showAdOnDates = days(count)
  const [row] = await db
    .insert(events)
    .values({
      businessID: owner.businessID,
      businessName: owner.businessName,
      eventTitle: 'Pancake Breakfast',
      eventDescription: 'All you can eat, for a good cause.',
      category: ['Fundraiser'],
      showAdOnDates,
      ...showDateBounds('1989-01-01', showAdOnDates),
      daysOrdered: count,
      totalCost: 29,
      approvedDateByBusiness: today(),
      ...overrides,
    })
    .returning()
  return row!
}

async function eventRow(eventID: number) {
  const [row] = await db.select().from(events).where(eq(events.eventID, eventID))
  return row!
}

/** The owner's session with checkout's payment data for `event`, as saving the ad leaves it. */
async function checkoutCookie(event: { eventID: number; showAdOnDates: string[] }, totalAmount: number) {
  const session = await sessionStorage.getSession()
  session.set('business', businessSessionCopy(owner))
  session.set('eventPaymentData', {
    businessID: owner.businessID,
    selectedDates: event.showAdOnDates,
    eventData: { eventTitle: 'Pancake Breakfast', showAdDates: event.showAdOnDates },
    totalAmount,
    eventID: event.eventID,
  })
  return (await sessionStorage.commitSession(session)).split(';')[0]!
}

const nextYear = String((new Date().getFullYear() + 1) % 100).padStart(2, '0')

function payWithoutJs(cookie: string, eventID: number, totalAmount: string) {
  return callRoute(checkoutAction, '/checkout', {
    method: 'POST',
    headers: { Cookie: cookie },
    body: new URLSearchParams({
      intent: 'pay',
      eventID: String(eventID),
      totalAmount,
      cardNumber: '4242 4242 4242 4242',
      expiry: `12/${nextYear}`,
      cvc: '123',
    }),
  })
}

async function checkoutTotal(cookie: string) {
  const res = await callRoute(checkoutLoader, '/checkout', { headers: { Cookie: cookie } })
  expect(res.status).toBe(200)
  const body = (await res.json()) as { summary: { total: string }; setupError: string | null }
  expect(body.setupError).toBeNull()
  return body.summary.total
}

describe('/admin/pricing', () => {
  test('shows the prices the migration wrote, and the first version in the history', async () => {
    const shown = (await browse(PRICING_PAGE, '/admin/pricing', { headers: { Cookie: adminCookie } })).at(-1)!
    expect(shown.status).toBe(200)
    const text = textOf(shown.html)
    expect(text).toContain('1–7 days $29.00 8–14 days $49.00 15–21 days $69.00')
    expect(text).toContain('Sponsored surcharge: $5.00 a day, in up to 2 slots.')
    expect(await versionCount()).toBe(1)
    expect(await chargeFor(3)).toBe(29)
  })

  test.each([
    ['a negative price', { price1: '-1' }, 'price1', DOLLARS_MESSAGE],
    ['a price that is not a number', { price2: 'abc' }, 'price2', DOLLARS_MESSAGE],
    ['an exponent', { price2: '1e3' }, 'price2', DOLLARS_MESSAGE],
    ['fractions of a cent', { price2: '29.999' }, 'price2', DOLLARS_MESSAGE],
    ['a price over the maximum', { price3: '10000.01' }, 'price3', tierPriceTooHigh],
    ['a gap: the tiers end at 14 days', { upToDays3: '', price3: '' }, 'upToDays2', LAST_TIER_MESSAGE],
    ['days not increasing', { upToDays2: '7' }, 'upToDays2', DAYS_NOT_INCREASING],
    [
      'eleven tiers',
      Object.fromEntries(
        Array.from({ length: 11 }, (_, i) => [
          [`upToDays${i + 1}`, String(i + 11)],
          [`price${i + 1}`, '10'],
        ]).flat(),
      ),
      '',
      TOO_MANY_TIERS_MESSAGE,
    ],
    ['a 1 MB field', { price1: '9'.repeat(1_000_000) }, 'price1', TOO_LONG_MESSAGE],
  ])(
    '%s is refused with 400 and the message at its field; no new version',
    async (_, change, field, message) => {
      const before = await versionCount()
      const res = await postPrices(pricesForm(change))
      expect(res.status).toBe(400)
      const { result } = (await res.json()) as {
        result: { error: Record<string, string[]>; initialValue?: Record<string, unknown> }
      }
      expect(result.error[field]).toEqual([message])
      expect(JSON.stringify(result).length).toBeLessThan(10_000)
      expect(await versionCount()).toBe(before)
      expect(await chargeFor(3)).toBe(29)
    },
  )

  test('without JavaScript a refusal shows the page with the message at the field', async () => {
    const shown = (
      await browse(PRICING_PAGE, '/admin/pricing', {
        method: 'POST',
        headers: { Cookie: adminCookie, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(pricesForm({ price2: '-5' })),
      })
    ).at(-1)!
    expect(shown.status).toBe(400)
    expect(shown.html).toMatch(/id="price-list-price2"[^>]*aria-invalid="true"/)
    expect(textOf(shown.html)).toContain(DOLLARS_MESSAGE)
  })

  test('non-administrators cannot see or change the prices', async () => {
    const clinician = await sessionCookieFor({ user: await insertUser(db, { roles: ['clinician'] }) })
    for (const cookie of [ownerCookie, clinician]) {
      expect((await postPrices(pricesForm({ price1: '1' }), cookie)).status).toBe(403)
      const page = await callRoute(pricingRoute.loader, '/admin/pricing', { headers: { Cookie: cookie } })
      expect(page.status).toBe(403)
    }
    const anonymous = await callRoute(pricingRoute.action, '/admin/pricing', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(pricesForm({ price1: '1' })).toString(),
    })
    expect(anonymous.status).toBe(302)
    expect(anonymous.headers.get('Location')).toMatch(/^\/api\/login/)
    expect(await versionCount()).toBe(1)
  })
})

describe('a price change', () => {
  test('made without JavaScript: the history says who, when, and old → new; charges, the form and new drafts follow; paid ads and an old draft at checkout are handled', async () => {
    // Before the change: a paid ad, and a draft waiting at checkout whose page showed $29.00.
    const paid = await insertAd({ paymentStatus: 'paid' })
    const paidPayment = await insertPaidPayment(paid.eventID, 2900)
    const draft = await insertAd()
    const cookie = await checkoutCookie(draft, 29)
    expect(await checkoutTotal(cookie)).toBe('29.00')

    const startedAt = new Date()
    const pages = await browse(PRICING_PAGE, '/admin/pricing', {
      method: 'POST',
      headers: { Cookie: adminCookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(
        pricesForm({
          upToDays1: '7',
          price1: '35',
          upToDays2: '21',
          price2: '59.50',
          upToDays3: '',
          price3: '',
          sponsoredPerDay: '7.5',
          sponsoredSlots: '3',
          note: 'Spring prices',
        }),
      ),
    })
    expect(pages[0]).toMatchObject({ status: 302, location: '/admin/pricing' })
    expect(await toastOf(pages[0]!.response!)).toMatchObject({ title: 'Prices saved' })
    const shown = pages.at(-1)!
    expect(shown.status).toBe(200)
    const text = textOf(shown.html)
    expect(text).toContain('1–7 days $35.00 8–21 days $59.50')
    expect(text).toContain(admin.email)
    expect(text).toContain(
      'Prices: 1–7 days: $29.00, 8–14 days: $49.00, 15–21 days: $69.00 → 1–7 days: $35.00, 8–21 days: $59.50',
    )
    expect(text).toContain('Sponsored surcharge per day: $5.00 → $7.50')
    expect(text).toContain('Sponsored slots: 2 → 3')
    expect(text).toContain('Note: Spring prices')

    const [newest] = await db.select().from(priceLists).orderBy(desc(priceLists.id)).limit(1)
    expect(newest).toMatchObject({
      tiers: [
        { upToDays: 7, cents: 3500 },
        { upToDays: 21, cents: 5950 },
      ],
      sponsoredCentsPerDay: 750,
      sponsoredSlots: 3,
      changedByUserId: admin.id,
      changedByEmail: admin.email,
      note: 'Spring prices',
    })
    expect(newest!.createdAt.getTime()).toBeGreaterThanOrEqual(startedAt.getTime() - 1000)
    expect(await versionCount()).toBe(2)

    // GET /api/charges/{n} and the event form's table follow.
    expect(await chargeFor(3)).toBe(35)
    expect(await chargeFor(8)).toBe(59.5)
    expect(await chargeFor(21)).toBe(59.5)
    const form = await callRoute(newEventLoader, '/dashboard/events/new', {
      headers: { Cookie: ownerCookie },
    })
    expect(((await form.json()) as { priceTable: unknown }).priceTable).toEqual([
      { label: '1–7 days', price: '35.00' },
      { label: '8–21 days', price: '59.50' },
    ])

    // A new draft is saved at the new price; a total claimed at the old one is refused.
    const stale = await callRoute(approveEvent, '/api/approve-event', {
      method: 'POST',
      headers: { Cookie: ownerCookie },
      body: approveBody({ totalAmount: '29.00' }),
    })
    expect(stale.status).toBe(400)
    expect(((await stale.json()) as { message: string }).message).toBe(TOTAL_MISMATCH_MESSAGE)
    const saved = await callRoute(approveEvent, '/api/approve-event', {
      method: 'POST',
      headers: { Cookie: ownerCookie },
      body: approveBody({ totalAmount: '35.00' }),
    })
    expect(saved.status).toBe(200)
    const { eventID: newID } = (await saved.json()) as { eventID: number }
    expect((await eventRow(newID)).totalCost).toBe(35)

    // The draft saved before: a payment claiming the $29.00 its page showed is refused, and nothing is charged.
    const refused = await payWithoutJs(cookie, draft.eventID, '29.00')
    expect(refused.status).toBe(302)
    expect(refused.headers.get('Location')).toBe('/checkout')
    expect((await toastOf(refused))?.description).toBe(`${TOTAL_MISMATCH_MESSAGE} The total is now $35.00.`)
    const setUp = await callRoute(createPayment, '/api/create-event-payment', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ businessID: owner.businessID, eventID: draft.eventID, totalAmount: 29 }),
    })
    expect(setUp.status).toBe(400)
    expect(((await setUp.json()) as { message: string }).message).toContain(TOTAL_MISMATCH_MESSAGE)
    expect((await eventRow(draft.eventID)).paymentStatus).toBe('pending')
    const attempts = await db.select().from(payments).where(eq(payments.eventID, draft.eventID))
    expect(attempts.every((p) => p.payment_status !== 'paid' && p.amount_paid_cents === 0)).toBe(true)

    // Checkout shows the new total, the draft's saved total becomes it, and the payment charges it.
    expect(await checkoutTotal(cookie)).toBe('35.00')
    expect((await eventRow(draft.eventID)).totalCost).toBe(35)
    const paying = await payWithoutJs(cookie, draft.eventID, '35.00')
    expect(paying.headers.get('Location')).toBe('/')
    const paidDraft = await eventRow(draft.eventID)
    expect(paidDraft).toMatchObject({ paymentStatus: 'paid', totalCost: 35 })
    const charged = (await db.select().from(payments).where(eq(payments.eventID, draft.eventID))).filter(
      (p) => p.payment_status === 'paid',
    )
    expect(charged.map((p) => [p.amount_due_cents, p.amount_paid_cents])).toEqual([[3500, 3500]])

    // A paid ad keeps the price it was paid, through later changes too.
    await setPrices(pricesForm({ price1: '99' }))
    expect(await chargeFor(3)).toBe(99)
    expect((await eventRow(paid.eventID)).totalCost).toBe(29)
    expect((await eventRow(draft.eventID)).totalCost).toBe(35)
    const [paidRow] = await db.select().from(payments).where(eq(payments.paymentID, paidPayment.paymentID))
    expect(paidRow).toMatchObject({ amount_due_cents: 2900, amount_paid_cents: 2900, payment_status: 'paid' })
    expect(await versionCount()).toBe(3)
  })
})
