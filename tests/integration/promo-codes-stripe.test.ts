import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { action as completeAction } from '#app/routes/api.complete-event-payment.ts'
import { action as createAction } from '#app/routes/api.create-event-payment.ts'
import { loader as promoCodesLoader } from '#app/routes/admin_.promo-codes.tsx'
import { action as webhookAction } from '#app/routes/api.stripe.webhook.ts'
import { action as checkoutAction, loader as checkoutLoader } from '#app/routes/checkout.tsx'
import { refundEventPayment } from '#app/services/payments/payment-refunds.server.ts'
import { turnOffPromoCode } from '#app/services/payments/promo-code-admin.server.ts'
import { getEnv } from '#app/services/platform/env.server.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness, insertUser } from '#db/factories.ts'
import { events, payments, promoCodes, promoRedemptions } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { callRoute } from '#tests/support/routes.ts'
import { cookieWithPaymentData, insertUnpaidEvent } from '#tests/support/stripe-checkout.ts'
import { signedWebhook, StripeFake, useStripeSettings } from '#tests/support/stripe-fake.ts'

const WEBHOOK_SECRET = 'whsec_test_secret_for_the_fake'
const fake = new StripeFake()
let restoreStripeSettings = () => {}
let adminId: string
let adminCookie: string

beforeAll(async () => {
  await fake.start()
  restoreStripeSettings = useStripeSettings({ fake, webhookSecret: WEBHOOK_SECRET })
  const admin = await insertUser(db, { roles: ['admin'] })
  adminId = admin.id
  adminCookie = await sessionCookieFor({ user: admin })
})

afterAll(async () => {
  restoreStripeSettings()
  await fake.stop()
})

beforeEach(() => fake.reset())

const today = () => todayInZone(getEnv().APP_TIME_ZONE)

async function advertiserWithCode(code: {
  code: string
  kind: 'percent' | 'fixed'
  value: number
  maxUses?: number
}) {
  await db
    .insert(promoCodes)
    .values({ ...code, createdByUserId: adminId })
    .onConflictDoNothing()
  const owner = await insertBusiness(db)
  const dates = [1, 2, 3].map((n) => addDaysIso(today(), n))
  const event = await insertUnpaidEvent(owner, dates, today())
  const cookie = await cookieWithPaymentData(owner, event)
  const applied = await callRoute(checkoutAction, '/checkout', {
    method: 'POST',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ intent: 'apply-code', code: code.code.toLowerCase() }).toString(),
  })
  expect(applied.status).toBe(302)
  return { owner, event, cookie }
}

/** Pay pressed on Stripe's card form: the PaymentIntent set up at the total the page showed. */
const startPayment = (
  ad: { owner: { businessID: number }; event: { eventID: number }; cookie: string },
  totalAmount: number,
) =>
  callRoute(createAction, '/api/create-event-payment', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: ad.cookie },
    body: JSON.stringify({ businessID: ad.owner.businessID, eventID: ad.event.eventID, totalAmount }),
  })

/** The uses of the code as the administrators' page counts them. */
async function usesOf(code: string) {
  const res = await callRoute(promoCodesLoader, '/admin/promo-codes', { headers: { Cookie: adminCookie } })
  const page = (await res.json()) as { codes: Array<{ code: string; used: number; reserved: number }> }
  const row = page.codes.find((c) => c.code === code)!
  return { used: row.used, reserved: row.reserved }
}

function deliver(event: object) {
  const { payload, signature } = signedWebhook(event as Record<string, unknown>, WEBHOOK_SECRET)
  return callRoute(webhookAction, '/api/stripe/webhook', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
    body: payload,
  })
}

describe('a promo code with Stripe', () => {
  test('the PaymentIntent carries the discounted amount, the webhook reconciles it, a refund returns it', async () => {
    const { owner, event, cookie } = await advertiserWithCode({
      code: 'STRIPE-30',
      kind: 'percent',
      value: 30,
    })
    const page = await callRoute(checkoutLoader, '/checkout', { headers: { Cookie: cookie } })
    const shown = (await page.json()) as {
      summary: { total: string }
      stripe: { paymentData: { totalAmount: number } }
    }
    expect(shown.summary.total).toBe('20.30')
    expect(shown.stripe.paymentData.totalAmount).toBe(20.3)

    // A total claimed at the list price is refused: the server computes the amount.
    const tampered = await callRoute(createAction, '/api/create-event-payment', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ businessID: owner.businessID, eventID: event.eventID, totalAmount: 29 }),
    })
    expect(tampered.status).toBe(400)
    expect(fake.count('POST', '/v1/payment_intents')).toBe(0)

    const setUp = await callRoute(createAction, '/api/create-event-payment', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ businessID: owner.businessID, eventID: event.eventID, totalAmount: 20.3 }),
    })
    expect(setUp.status).toBe(200)
    const intent = fake.intentByEvent(event.eventID)!
    expect(intent.amount).toBe(2030)

    fake.succeed(intent.id)
    expect(
      (await deliver(fake.event('payment_intent.succeeded', { ...fake.intents.get(intent.id)! }))).status,
    ).toBe(200)
    const [payment] = await db.select().from(payments).where(eq(payments.eventID, event.eventID))
    expect(payment).toMatchObject({ payment_status: 'paid', amount_due_cents: 2030, amount_paid_cents: 2030 })
    const [row] = await db.select().from(events).where(eq(events.eventID, event.eventID))
    expect(row).toMatchObject({ paymentStatus: 'paid', totalCost: 20.3 })
    expect(
      await db.select().from(promoRedemptions).where(eq(promoRedemptions.eventID, event.eventID)),
    ).toMatchObject([{ status: 'redeemed', discountCents: 870, paymentID: payment!.paymentID }])

    const refund = await refundEventPayment(event.eventID, 'Rejected in review')
    expect(refund.amountRefundedCents).toBe(2030)
    expect([...fake.refunds.values()].map((r) => r.amount)).toEqual([2030])
  })

  test('a code turned off after its card form was set up: the PaymentIntent is cancelled, so the discount cannot be paid', async () => {
    const { owner, event, cookie } = await advertiserWithCode({
      code: 'STRIPE-OFF',
      kind: 'percent',
      value: 50,
    })
    const setUp = await callRoute(createAction, '/api/create-event-payment', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ businessID: owner.businessID, eventID: event.eventID, totalAmount: 14.5 }),
    })
    expect(setUp.status).toBe(200)
    const intent = fake.intentByEvent(event.eventID)!
    const [code] = await db.select().from(promoCodes).where(eq(promoCodes.code, 'STRIPE-OFF'))
    await turnOffPromoCode(code!.id, adminId)
    expect(fake.intents.get(intent.id)!.status).toBe('canceled')
    const again = await callRoute(createAction, '/api/create-event-payment', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ businessID: owner.businessID, eventID: event.eventID, totalAmount: 14.5 }),
    })
    expect(again.status).toBe(409)
    expect(fake.count('POST', '/v1/payment_intents')).toBe(1)
    const [row] = await db.select().from(events).where(eq(events.eventID, event.eventID))
    expect(row!.paymentStatus).toBe('pending')
  })

  test('paid once though its hold lapsed meanwhile, the webhook and the return arriving together: counted once; opening checkout holds nothing', async () => {
    const first = await advertiserWithCode({ code: 'STRIPE-LATE', kind: 'percent', value: 30, maxUses: 5 })
    const page = await callRoute(checkoutLoader, '/checkout', { headers: { Cookie: first.cookie } })
    expect(((await page.json()) as { summary: { total: string } }).summary.total).toBe('20.30')
    expect(fake.count('POST', '/v1/payment_intents')).toBe(0)
    expect(await usesOf('STRIPE-LATE')).toEqual({ used: 0, reserved: 0 })

    expect((await startPayment(first, 20.3)).status).toBe(200)
    expect(await usesOf('STRIPE-LATE')).toEqual({ used: 0, reserved: 1 })
    // The card check takes longer than the hold; meanwhile another business starts paying with the code.
    await db.execute(
      sql`UPDATE promo_redemptions SET "reservedUntil" = now() - interval '1 second' WHERE "eventID" = ${first.event.eventID}`,
    )
    const second = await advertiserWithCode({ code: 'STRIPE-LATE', kind: 'percent', value: 30, maxUses: 5 })
    expect((await startPayment(second, 20.3)).status).toBe(200)
    expect(await usesOf('STRIPE-LATE')).toEqual({ used: 0, reserved: 1 })

    const intent = fake.intentByEvent(first.event.eventID)!
    fake.succeed(intent.id)
    const [webhook, returned] = await Promise.all([
      deliver(fake.event('payment_intent.succeeded', { ...fake.intents.get(intent.id)! })),
      callRoute(completeAction, '/api/complete-event-payment', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: first.cookie },
        body: JSON.stringify({ paymentIntentId: intent.id, businessID: first.owner.businessID }),
      }),
    ])
    expect(webhook.status).toBe(200)
    expect(returned.status).toBe(200)
    const [payment] = await db.select().from(payments).where(eq(payments.eventID, first.event.eventID))
    expect(payment).toMatchObject({ payment_status: 'paid', amount_paid_cents: 2030 })
    expect(
      await db.select().from(promoRedemptions).where(eq(promoRedemptions.eventID, first.event.eventID)),
    ).toMatchObject([{ status: 'redeemed', discountCents: 870, paymentID: payment!.paymentID }])
    expect(await usesOf('STRIPE-LATE')).toEqual({ used: 1, reserved: 1 })
    // The webhook again, and the return again: still once.
    expect(
      (await deliver(fake.event('payment_intent.succeeded', { ...fake.intents.get(intent.id)! }))).status,
    ).toBe(200)
    expect(await usesOf('STRIPE-LATE')).toEqual({ used: 1, reserved: 1 })
  })

  test('a card declined on Stripe releases the use when its webhook arrives', async () => {
    const ad = await advertiserWithCode({ code: 'STRIPE-ONE', kind: 'percent', value: 30, maxUses: 1 })
    expect((await startPayment(ad, 20.3)).status).toBe(200)
    expect(await usesOf('STRIPE-ONE')).toEqual({ used: 0, reserved: 1 })
    const intent = fake.intentByEvent(ad.event.eventID)!
    fake.decline(intent.id)
    expect(
      (await deliver(fake.event('payment_intent.payment_failed', { ...fake.intents.get(intent.id)! })))
        .status,
    ).toBe(200)
    expect(await usesOf('STRIPE-ONE')).toEqual({ used: 0, reserved: 0 })
    // Pay pressed again with another card: the same PaymentIntent, the use held again.
    expect((await startPayment(ad, 20.3)).status).toBe(200)
    expect(fake.count('POST', '/v1/payment_intents')).toBe(1)
    expect(await usesOf('STRIPE-ONE')).toEqual({ used: 0, reserved: 1 })
  })

  test('a code that makes the ad free: checkout offers Confirm, no PaymentIntent is ever created, refunds ask nothing of Stripe', async () => {
    const { event, cookie } = await advertiserWithCode({ code: 'STRIPE-FREE', kind: 'fixed', value: 10_000 })
    const page = await callRoute(checkoutLoader, '/checkout', { headers: { Cookie: cookie } })
    expect(await page.json()).toMatchObject({ free: true, stripe: null, summary: { total: '0.00' } })

    const confirmed = await callRoute(checkoutAction, '/checkout', {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        intent: 'confirm-free',
        eventID: String(event.eventID),
        totalAmount: '0',
      }).toString(),
    })
    expect(confirmed.headers.get('Location')).toBe('/')
    expect(fake.requests.filter((r) => r.path.startsWith('/v1/payment_intents'))).toEqual([])
    const [row] = await db.select().from(events).where(eq(events.eventID, event.eventID))
    expect(row).toMatchObject({ paymentStatus: 'paid', eventStatus: 'pending' })

    expect(await refundEventPayment(event.eventID, 'Rejected in review')).toMatchObject({
      amountRefundedCents: 0,
    })
    expect(fake.requests).toEqual([])
  })
})
