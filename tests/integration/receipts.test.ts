import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { formatDatesLine } from '#app/utils/format.ts'
import { formatPaidAt } from '#app/models/mail/notifications.server.ts'
import { action as completeAction } from '#app/routes/api.complete-event-payment.ts'
import { action as createAction } from '#app/routes/api.create-event-payment.ts'
import { action as reviewAction } from '#app/routes/api.admin.review-event.ts'
import { action as checkoutAction } from '#app/routes/checkout.tsx'
import { getEnv } from '#app/services/platform/env.server.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { payments } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { BUILD_TIMEOUT_MS, builtRequestHandler } from '#tests/support/built-app.ts'
import { insertBusiness, insertPaidPayment, insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'
import { cookieWithPaymentData, insertUnpaidEvent } from '#tests/support/stripe-checkout.ts'
import { StripeFake, useStripeSettings } from '#tests/support/stripe-fake.ts'

const stripe = new StripeFake()
let restoreStripeSettings = () => {}

let request: Awaited<ReturnType<typeof builtRequestHandler>>

beforeAll(async () => {
  await stripe.start()
  restoreStripeSettings = useStripeSettings({ fake: stripe, webhookSecret: 'whsec_receipts_test' })
  request = await builtRequestHandler()
}, BUILD_TIMEOUT_MS)

afterAll(async () => {
  restoreStripeSettings()
  await stripe.stop()
})

/** The receipt's rows as label → value, from the rendered page. */
function receiptRows(html: string) {
  const list = /<dl[^>]*data-testid="receipt"[^>]*>([\s\S]*?)<\/dl>/.exec(html)?.[1] ?? ''
  const text = (s: string) =>
    s
      .replace(/<!--.*?-->/g, '')
      .replace(/<[^>]+>/g, '')
      .replace(/&amp;/g, '&')
      .trim()
  return Object.fromEntries(
    [...list.matchAll(/<dt[^>]*>([\s\S]*?)<\/dt>\s*<dd[^>]*>([\s\S]*?)<\/dd>/g)].map(([, dt, dd]) => [
      text(dt!),
      text(dd!),
    ]),
  )
}

async function paidAd(businessName: string, provider: 'test' | 'stripe') {
  const owner = await insertBusiness(db, { businessName })
  const event = await insertTestEvent(owner, {
    eventTitle: `${businessName} & Friends Night`,
    showAdOnDates: ['2026-12-12', '2026-12-13'],
  })
  const payment = await insertPaidPayment(event.eventID, 2900)
  const card =
    provider === 'stripe'
      ? {
          card_brand: 'visa',
          card_last4: '4242',
          receipt_url: 'https://pay.stripe.com/receipts/acct_1/rcpt_1',
        }
      : {}
  await db
    .update(payments)
    .set({ ...card, metadata: { provider } })
    .where(eq(payments.paymentID, payment.paymentID))
  return { owner, event, payment, cookie: await sessionCookieFor({ business: owner }) }
}

function postJson(handler: typeof createAction, path: string, body: unknown, cookie: string) {
  return callRoute(handler, path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: cookie },
    body: JSON.stringify(body),
  })
}

describe('a receipt of a Stripe payment, from checkout to the refund of a rejected ad', () => {
  test('the card and references from Stripe’s charge, then the refund; nobody else reads it', async () => {
    const timeZone = getEnv().APP_TIME_ZONE
    const today = todayInZone(timeZone)
    const owner = await insertBusiness(db, { businessName: 'Stripe Receipt Diner' })
    const dates = [addDaysIso(today, 3), addDaysIso(today, 4), addDaysIso(today, 5)]
    const event = await insertUnpaidEvent(owner, dates, today)
    const checkoutCookie = await cookieWithPaymentData(owner, event)

    const created = await postJson(
      createAction,
      '/api/create-event-payment',
      {
        businessID: owner.businessID,
        selectedDates: dates,
        eventData: {},
        totalAmount: 29,
        eventID: event.eventID,
      },
      checkoutCookie,
    )
    expect(created.status).toBe(200)
    const intent = stripe.intentByEvent(event.eventID)!
    stripe.succeed(intent.id, { brand: 'mastercard', last4: '4444', expMonth: 8, expYear: 2030 })
    const completed = await postJson(
      completeAction,
      '/api/complete-event-payment',
      { paymentIntentId: intent.id, businessID: owner.businessID },
      checkoutCookie,
    )
    expect(completed.status).toBe(200)
    const charge = stripe.chargeOf(intent.id)!
    const [payment] = await db.select().from(payments).where(eq(payments.eventID, event.eventID))
    expect(payment!.payment_status).toBe('paid')

    const path = `/dashboard/receipts/${payment!.paymentID}`
    const cookie = await sessionCookieFor({ business: owner })
    const paid = await request(path, { headers: { Cookie: cookie } })
    expect(paid.status).toBe(200)
    const paidHtml = await paid.text()
    expect(receiptRows(paidHtml)).toEqual({
      Ad: 'Summer Sale',
      'Display dates': formatDatesLine(dates),
      Amount: '$29.00 USD',
      Card: 'Mastercard •••• 4444',
      'Payment ID': String(payment!.paymentID),
      Reference: intent.id,
      Paid: formatPaidAt(payment!.paid_at!, timeZone),
      Refunds: 'None',
    })
    expect(charge.receipt_url).toMatch(/^https:\/\/pay\.stripe\.com\/receipts\//)
    expect(paidHtml).toContain(`href="${charge.receipt_url}"`)

    const admin = await sessionCookieFor({ user: await insertUser(db, { roles: ['admin'] }) })
    const rejected = await callRoute(reviewAction, '/api/admin/review-event', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: admin },
      body: JSON.stringify({ eventID: event.eventID, action: 'reject', reason: 'Not a local event' }),
    })
    expect(rejected.status).toBe(200)
    expect([...stripe.refunds.values()]).toEqual([
      expect.objectContaining({ payment_intent: intent.id, amount: 2900 }),
    ])
    const [refunded] = await db.select().from(payments).where(eq(payments.eventID, event.eventID))
    const refundedHtml = await (await request(path, { headers: { Cookie: cookie } })).text()
    expect(receiptRows(refundedHtml)).toMatchObject({
      Amount: '$29.00 USD',
      Card: 'Mastercard •••• 4444',
      Refunds: `$29.00 refunded in full on ${formatPaidAt(refunded!.updated_at, timeZone)} — Not a local event`,
    })

    const stranger = await sessionCookieFor({ business: await insertBusiness(db) })
    const forbidden = await request(path, { headers: { Cookie: stranger } })
    expect(forbidden.status).toBe(403)
    const forbiddenHtml = await forbidden.text()
    for (const secret of ['Stripe Receipt Diner', 'Summer Sale', intent.id, '4444', charge.receipt_url])
      expect(forbiddenHtml).not.toContain(secret)
    const signedOut = await request(path, { redirect: 'manual' })
    expect(signedOut.status).toBe(302)
    expect(signedOut.headers.get('Location')).toMatch(/^\/login/)
  })
})

describe('a receipt of a test-card payment, from the checkout form to the refund of a rejected ad', () => {
  test('test mode instead of a card, no processor link, then the refund', async () => {
    const restore = useStripeSettings(null)
    try {
      const timeZone = getEnv().APP_TIME_ZONE
      const today = todayInZone(timeZone)
      const owner = await insertBusiness(db, { businessName: 'Test Card Tearoom' })
      const dates = [addDaysIso(today, 2), addDaysIso(today, 3)]
      const event = await insertUnpaidEvent(owner, dates, today)
      const paid = await callRoute(checkoutAction, '/checkout', {
        method: 'POST',
        headers: { Cookie: await cookieWithPaymentData(owner, event) },
        body: new URLSearchParams({
          intent: 'pay',
          // What checkout shows for its two days.
          totalAmount: '29.00',
          cardNumber: '4242 4242 4242 4242',
          expiry: `12/${(new Date().getFullYear() + 1) % 100}`,
          cvc: '123',
        }),
      })
      expect(paid.status).toBe(302)
      const [payment] = await db.select().from(payments).where(eq(payments.eventID, event.eventID))
      expect(payment!.payment_status).toBe('paid')

      const path = `/dashboard/receipts/${payment!.paymentID}`
      const cookie = await sessionCookieFor({ business: owner })
      const html = await (await request(path, { headers: { Cookie: cookie } })).text()
      expect(receiptRows(html)).toMatchObject({
        Ad: 'Summer Sale',
        'Display dates': formatDatesLine(dates),
        Amount: '$29.00 USD',
        Card: 'Test mode — no real charge',
        'Payment ID': String(payment!.paymentID),
        Paid: formatPaidAt(payment!.paid_at!, timeZone),
        Refunds: 'None',
      })
      expect(html).not.toContain('pay.stripe.com')

      const admin = await sessionCookieFor({ user: await insertUser(db, { roles: ['admin'] }) })
      const rejected = await callRoute(reviewAction, '/api/admin/review-event', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: admin },
        body: JSON.stringify({ eventID: event.eventID, action: 'reject', reason: 'Outside our area' }),
      })
      expect(rejected.status).toBe(200)
      const after = await (await request(path, { headers: { Cookie: cookie } })).text()
      expect(receiptRows(after).Refunds).toMatch(/^\$29\.00 refunded in full on .* — Outside our area$/)
      const stranger = await sessionCookieFor({ business: await insertBusiness(db) })
      const forbidden = await request(path, { headers: { Cookie: stranger } })
      expect(forbidden.status).toBe(403)
      expect(await forbidden.text()).not.toContain('Test Card Tearoom')
    } finally {
      restore()
    }
  })
})

describe('/dashboard/receipts/{paymentID}', () => {
  test('the test provider: the business, the ad, its dates, the amount and "test mode"', async () => {
    const { payment, cookie } = await paidAd('Receipt Cafe', 'test')
    const response = await request(`/dashboard/receipts/${payment.paymentID}`, {
      headers: { Cookie: cookie },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('Cache-Control')).toContain('no-store')
    const html = await response.text()
    expect(html).toContain('Receipt Cafe')
    const rows = receiptRows(html)
    expect(rows).toMatchObject({
      Ad: 'Receipt Cafe & Friends Night',
      'Payment ID': String(payment.paymentID),
      Card: 'Test mode — no real charge',
    })
    expect(rows.Amount).toMatch(/^\$29\.00/)
    expect(rows['Display dates']).toMatch(/Dec/)
    expect(html).not.toContain('pay.stripe.com')
  })

  test('Stripe: the card brand and last 4, and Stripe’s own receipt link', async () => {
    const { payment, cookie } = await paidAd('Stripe Bakery', 'stripe')
    const response = await request(`/dashboard/receipts/${payment.paymentID}`, {
      headers: { Cookie: cookie },
    })
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(receiptRows(html).Card).toMatch(/visa.*4242/i)
    expect(html).toContain('href="https://pay.stripe.com/receipts/acct_1/rcpt_1"')
  })

  test('a refund shows on the receipt', async () => {
    const { payment, cookie } = await paidAd('Refund Deli', 'test')
    await db
      .update(payments)
      .set({ amount_refunded_cents: 2900, payment_status: 'refunded' })
      .where(eq(payments.paymentID, payment.paymentID))
    const html = await (
      await request(`/dashboard/receipts/${payment.paymentID}`, { headers: { Cookie: cookie } })
    ).text()
    expect(receiptRows(html).Refunds).toMatch(/\$29\.00/)
  })

  test('the dashboard card links to the receipt', async () => {
    const { payment, cookie } = await paidAd('Linked Books', 'test')
    const html = await (await request('/dashboard', { headers: { Cookie: cookie } })).text()
    expect(html).toContain(`href="/dashboard/receipts/${payment.paymentID}"`)
  })

  test('another business gets 403, signed out goes to sign in', async () => {
    const { payment } = await paidAd('Private Florist', 'test')
    const other = await sessionCookieFor({ business: await insertBusiness(db) })
    const forbidden = await request(`/dashboard/receipts/${payment.paymentID}`, {
      headers: { Cookie: other },
    })
    expect(forbidden.status).toBe(403)
    expect(await forbidden.text()).not.toContain('Private Florist')
    const signedOut = await request(`/dashboard/receipts/${payment.paymentID}`, { redirect: 'manual' })
    expect(signedOut.status).toBe(302)
    expect(signedOut.headers.get('Location')).toMatch(/\/login/)
  })

  test.each(['abc', '0', '-1', '99999999999999999999', '1.5', '999999'])(
    'a payment id "%s" that is not a receipt is 404, not a 500',
    async (id) => {
      const { cookie } = await paidAd(`Bad Id ${id}`, 'test')
      const response = await request(`/dashboard/receipts/${id}`, { headers: { Cookie: cookie } })
      expect(response.status).toBe(404)
    },
  )

  test('an unpaid payment has no receipt', async () => {
    const { payment, cookie } = await paidAd('Pending Shop', 'test')
    await db
      .update(payments)
      .set({ payment_status: 'pending', amount_paid_cents: 0, paid_at: null })
      .where(eq(payments.paymentID, payment.paymentID))
    const response = await request(`/dashboard/receipts/${payment.paymentID}`, {
      headers: { Cookie: cookie },
    })
    expect(response.status).toBe(404)
  })
})
