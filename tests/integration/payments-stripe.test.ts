import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { action as completeAction } from '#app/routes/api.complete-event-payment.ts'
import { action as createAction } from '#app/routes/api.create-event-payment.ts'
import { action as webhookAction } from '#app/routes/api.stripe.webhook.ts'
import { loader as checkoutLoader } from '#app/routes/checkout.tsx'
import { getEnv } from '#app/services/platform/env.server.ts'
import { getEventPaymentData } from '#app/services/payments/payment-data.server.ts'
import { PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import { refundEventPayment } from '#app/services/payments/payment-refunds.server.ts'
import { sessionStorage } from '#app/services/http/session.server.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { events, payments, type Business } from '#db/schema.ts'
import { toastOf } from '#tests/support/cookie-jar.ts'
import { expectConsoleError } from '#tests/support/fail-on-console-error.ts'
import { callRoute } from '#tests/support/routes.ts'
import {
  cookieWithPaymentData,
  insertUnpaidEvent as insertStripeUnpaidEvent,
} from '#tests/support/stripe-checkout.ts'
import { signedWebhook, StripeFake, useStripeSettings } from '#tests/support/stripe-fake.ts'

const WEBHOOK_SECRET = 'whsec_test_secret_for_the_fake'
const fake = new StripeFake()
let restoreStripeSettings = () => {}

beforeAll(async () => {
  await fake.start()
  restoreStripeSettings = useStripeSettings({ fake, webhookSecret: WEBHOOK_SECRET })
  // Counts every write of paid_at, so "paid fields set once" is measured rather than assumed.
  await db.execute(sql`create table if not exists paid_at_writes (payment_id integer not null)`)
  await db.execute(sql`
    create or replace function log_paid_at_write() returns trigger language plpgsql as $$
    begin
      insert into paid_at_writes values (new."paymentID");
      return new;
    end $$`)
  await db.execute(sql`
    create trigger payments_paid_at_write after update of paid_at on payments
    for each row when (new.paid_at is not null) execute function log_paid_at_write()`)
})

afterAll(async () => {
  restoreStripeSettings()
  await fake.stop()
})

beforeEach(() => fake.reset())

const today = todayInZone(getEnv().APP_TIME_ZONE)

async function insertUnpaidEvent(owner: Business, days = 3) {
  return insertStripeUnpaidEvent(
    owner,
    Array.from({ length: days }, (_, i) => addDaysIso(today, i + 1)),
    today,
  )
}

async function setUp(days = 3) {
  const owner = await insertBusiness(db)
  const event = await insertUnpaidEvent(owner, days)
  return { owner, event, cookie: await cookieWithPaymentData(owner, event) }
}

function postJson(handler: typeof createAction, path: string, body: unknown, cookie?: string) {
  return callRoute(handler, path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
    body: JSON.stringify(body),
  })
}

function createPayment(
  {
    owner,
    event,
    cookie,
  }: { owner: Business; event: { eventID: number; showAdOnDates: string[] }; cookie: string },
  overrides: Record<string, unknown> = {},
) {
  return postJson(
    createAction,
    '/api/create-event-payment',
    {
      businessID: owner.businessID,
      selectedDates: event.showAdOnDates,
      eventData: { eventTitle: 'Summer Sale' },
      totalAmount: 29,
      eventID: event.eventID,
      ...overrides,
    },
    cookie,
  )
}

function completePayment(owner: Business, cookie: string, paymentIntentId: string) {
  return postJson(
    completeAction,
    '/api/complete-event-payment',
    { paymentIntentId, businessID: owner.businessID, selectedDates: [], eventData: {} },
    cookie,
  )
}

function deliver(event: object, secret = WEBHOOK_SECRET) {
  const { payload, signature } = signedWebhook(event as Record<string, unknown>, secret)
  return callRoute(webhookAction, '/api/stripe/webhook', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
    body: payload,
  })
}

function succeededEvent(intentId: string, eventId?: string) {
  return fake.event('payment_intent.succeeded', { ...fake.intents.get(intentId)! }, eventId)
}

async function paymentRows(eventID: number) {
  return db.select().from(payments).where(eq(payments.eventID, eventID))
}

async function eventRow(eventID: number) {
  const [row] = await db.select().from(events).where(eq(events.eventID, eventID))
  return row!
}

async function paidAtWrites(paymentID: number) {
  const rows = await db.execute(
    sql`select count(*)::int as n from paid_at_writes where payment_id = ${paymentID}`,
  )
  const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as Array<{ n: number }>
  return Number(list[0]!.n)
}

async function sessionPaymentData(cookie: string) {
  return getEventPaymentData(await sessionStorage.getSession(cookie))
}

describe('set-up: POST /api/create-event-payment', () => {
  test('creates one PaymentIntent for the amount of the event row, with metadata and a payments row', async () => {
    const ctx = await setUp(3)
    const res = await createPayment(ctx)
    expect(res.status).toBe(200)
    const body = (await res.json()) as {
      clientSecret: string
      totalAmount: number
      selectedDatesCount: number
    }
    expect(body.totalAmount).toBe(29)
    expect(body.selectedDatesCount).toBe(3)
    const intent = fake.intentByEvent(ctx.event.eventID)!
    expect(body.clientSecret).toBe(intent.client_secret)
    expect(intent.amount).toBe(2900)
    expect(intent.currency).toBe('usd')
    expect(intent.metadata).toEqual({
      eventID: String(ctx.event.eventID),
      businessID: String(ctx.owner.businessID),
    })
    const created = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents')
    expect(created.map((r) => r.idempotencyKey)).toEqual([
      `event-${ctx.event.eventID}-${ctx.event.createdDate.getTime()}-2900`,
    ])

    const [row] = await paymentRows(ctx.event.eventID)
    expect(row).toMatchObject({
      currency: 'usd',
      amount_due_cents: 2900,
      totalCost: 29,
      idempotency_key: `event-${ctx.event.eventID}-${ctx.event.createdDate.getTime()}-2900`,
      payment_intent_id: intent.id,
      payment_status: 'pending',
    })
    expect(row!.payment_expires_at!.getTime()).toBe(ctx.event.createdDate.getTime() + 24 * 60 * 60 * 1000)
    expect(row!.created_at).toBeInstanceOf(Date)
    expect(row!.updated_at).toBeInstanceOf(Date)
  })

  test('a retry reuses the open PaymentIntent instead of creating another', async () => {
    const ctx = await setUp()
    const first = (await (await createPayment(ctx)).json()) as { clientSecret: string }
    const second = (await (await createPayment(ctx)).json()) as { clientSecret: string }
    expect(second.clientSecret).toBe(first.clientSecret)
    expect(fake.intents.size).toBe(1)
    expect(await paymentRows(ctx.event.eventID)).toHaveLength(1)
  })

  test('amount tampering is refused (400) and nothing is created', async () => {
    const ctx = await setUp(3)
    const res = await createPayment(ctx, { totalAmount: 1 })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { message: string }).message).toMatch(/total does not match/i)
    expect(fake.count('POST', '/v1/payment_intents')).toBe(0)
    expect(await paymentRows(ctx.event.eventID)).toHaveLength(0)
  })

  test("another business's event or id is 403; signed out is 401", async () => {
    const ctx = await setUp()
    const stranger = await insertBusiness(db)
    const strangerCookie = await cookieWithPaymentData(stranger, ctx.event)

    const foreignEvent = await postJson(
      createAction,
      '/api/create-event-payment',
      {
        businessID: stranger.businessID,
        eventID: ctx.event.eventID,
        totalAmount: 29,
        selectedDates: [],
        eventData: {},
      },
      strangerCookie,
    )
    expect(foreignEvent.status).toBe(403)

    const foreignBusiness = await createPayment(ctx, { businessID: stranger.businessID })
    expect(foreignBusiness.status).toBe(403)

    const signedOut = await postJson(createAction, '/api/create-event-payment', {
      businessID: ctx.owner.businessID,
      eventID: ctx.event.eventID,
    })
    expect(signedOut.status).toBe(401)
    expect(fake.count('POST', '/v1/payment_intents')).toBe(0)
  })
})

describe('completion: POST /api/complete-event-payment', () => {
  test('success: paid only once the provider says so, with the card details, in both rows', async () => {
    const ctx = await setUp()
    await createPayment(ctx)
    const intent = fake.intentByEvent(ctx.event.eventID)!

    const early = await completePayment(ctx.owner, ctx.cookie, intent.id)
    expect(early.status).toBe(402)
    expect(((await early.json()) as { success: boolean }).success).toBe(false)
    expect((await eventRow(ctx.event.eventID)).paymentStatus).toBe('pending')

    fake.succeed(intent.id, { last4: '4242', brand: 'visa', expMonth: 4, expYear: 2031 })
    const res = await completePayment(ctx.owner, ctx.cookie, intent.id)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ success: true, message: PAYMENT_TEXT.success.description })

    const [row] = await paymentRows(ctx.event.eventID)
    const charge = fake.chargeOf(intent.id)!
    expect(row).toMatchObject({
      payment_status: 'paid',
      amount_paid_cents: 2900,
      totalPaid: 29,
      card_brand: 'visa',
      card_last4: '4242',
      card_exp_month: 4,
      card_exp_year: 2031,
      receipt_url: charge.receipt_url,
      stripe_charge_id: charge.id,
      payment_method_id: intent.payment_method,
    })
    expect(row!.paid_at).toBeInstanceOf(Date)
    expect(row!.datePaid).toBeInstanceOf(Date)
    const event = await eventRow(ctx.event.eventID)
    expect(event.paymentStatus).toBe('paid')
    expect(event.payment_intent_id).toBe(intent.id)
    expect(await sessionPaymentData(ctx.cookie)).toBeNull()

    const again = await completePayment(ctx.owner, ctx.cookie, intent.id)
    expect(((await again.json()) as { success: boolean }).success).toBe(true)
    const [after] = await paymentRows(ctx.event.eventID)
    expect(after!.paid_at).toEqual(row!.paid_at)
    expect(await paidAtWrites(row!.paymentID)).toBe(1)

    const paidAgain = await createPayment(ctx)
    expect(paidAgain.status).toBe(409)
    expect(((await paidAgain.json()) as { message: string }).message).toBe(
      PAYMENT_TEXT.alreadyPaid.description,
    )
  })

  test('decline: not paid, the message is the provider’s, and a retry pays with the same intent', async () => {
    const ctx = await setUp()
    await createPayment(ctx)
    const intent = fake.intentByEvent(ctx.event.eventID)!
    fake.decline(intent.id, 'Your card was declined.')

    const res = await completePayment(ctx.owner, ctx.cookie, intent.id)
    expect(res.status).toBe(402)
    expect(await res.json()).toMatchObject({ success: false, message: 'Your card was declined.' })
    const [row] = await paymentRows(ctx.event.eventID)
    expect(row).toMatchObject({
      payment_status: 'failed',
      error_message: 'Your card was declined.',
      paid_at: null,
    })
    expect((await eventRow(ctx.event.eventID)).paymentStatus).toBe('pending')
    expect(await sessionPaymentData(ctx.cookie)).not.toBeNull()

    const retry = (await (await createPayment(ctx)).json()) as { clientSecret: string }
    expect(retry.clientSecret).toBe(intent.client_secret)
    fake.succeed(intent.id)
    expect((await completePayment(ctx.owner, ctx.cookie, intent.id)).status).toBe(200)
    expect((await eventRow(ctx.event.eventID)).paymentStatus).toBe('paid')
  })

  test('3-D Secure pending (requires_action) is not paid; the return to /checkout then finishes it', async () => {
    const ctx = await setUp()
    await createPayment(ctx)
    const intent = fake.intentByEvent(ctx.event.eventID)!
    fake.setStatus(intent.id, 'requires_action')

    const res = await completePayment(ctx.owner, ctx.cookie, intent.id)
    expect(res.status).toBe(402)
    expect(((await res.json()) as { success: boolean }).success).toBe(false)
    expect((await paymentRows(ctx.event.eventID))[0]!.payment_status).toBe('pending')
    expect((await eventRow(ctx.event.eventID)).paymentStatus).toBe('pending')

    // Coming back from the bank's page while the check is still open: not paid, data kept.
    const stillOpen = await callRoute(
      checkoutLoader,
      `/checkout?payment_intent=${intent.id}&redirect_status=succeeded`,
      { headers: { Cookie: ctx.cookie } },
    )
    expect(stillOpen.headers.get('Location')).toBe('/checkout')
    expect(await toastOf(stillOpen)).toMatchObject({
      title: PAYMENT_TEXT.failed.title,
      variant: 'destructive',
    })
    expect(await sessionPaymentData(ctx.cookie)).not.toBeNull()

    fake.succeed(intent.id)
    const back = await callRoute(
      checkoutLoader,
      `/checkout?payment_intent=${intent.id}&redirect_status=succeeded`,
      { headers: { Cookie: ctx.cookie } },
    )
    expect(back.headers.get('Location')).toBe('/')
    expect(await toastOf(back)).toMatchObject(PAYMENT_TEXT.success)
    expect((await eventRow(ctx.event.eventID)).paymentStatus).toBe('paid')
    expect(await sessionPaymentData(ctx.cookie)).toBeNull()
  })

  test("someone else's PaymentIntent is 403", async () => {
    const ctx = await setUp()
    await createPayment(ctx)
    const intent = fake.intentByEvent(ctx.event.eventID)!
    fake.succeed(intent.id)
    const stranger = await insertBusiness(db)
    const strangerCookie = await cookieWithPaymentData(stranger, ctx.event)
    const res = await completePayment(stranger, strangerCookie, intent.id)
    expect(res.status).toBe(403)
    expect((await eventRow(ctx.event.eventID)).paymentStatus).toBe('pending')
  })
  test('a charge for an ad that is gone: 500 with event_creation_failed in the same shape, logged with the request id', async () => {
    const ctx = await setUp()
    await createPayment(ctx)
    const intent = fake.intentByEvent(ctx.event.eventID)!
    fake.succeed(intent.id)
    await db.delete(events).where(eq(events.eventID, ctx.event.eventID))

    expectConsoleError()
    const res = await callRoute(completeAction, '/api/complete-event-payment', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: ctx.cookie, 'X-Request-Id': 'req-gone-ad' },
      body: JSON.stringify({ paymentIntentId: intent.id, businessID: ctx.owner.businessID }),
    })
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({
      success: false,
      message: PAYMENT_TEXT.eventCreationFailed.description,
      code: 'event_creation_failed',
    })
    const lines = vi.mocked(console.error).mock.calls.map((call) => JSON.parse(String(call[0])))
    expect(lines).toEqual([
      expect.objectContaining({
        requestId: 'req-gone-ad',
        msg: `Payment ${intent.id} succeeded for a missing event ${ctx.event.eventID}`,
      }),
    ])
  })
})

describe('webhook: POST /api/stripe/webhook', () => {
  test('payment_intent.succeeded marks the payment paid and records the event', async () => {
    const ctx = await setUp()
    await createPayment(ctx)
    const intent = fake.intentByEvent(ctx.event.eventID)!
    fake.succeed(intent.id)
    const event = succeededEvent(intent.id)

    const res = await deliver(event)
    expect(res.status).toBe(200)
    const [row] = await paymentRows(ctx.event.eventID)
    expect(row).toMatchObject({
      payment_status: 'paid',
      card_last4: '4242',
      webhook_last_event_id: event.id,
      latest_provider_event: expect.objectContaining({ id: event.id, type: 'payment_intent.succeeded' }),
    })
    expect(row!.webhook_last_received_at).toBeInstanceOf(Date)
    expect((await eventRow(ctx.event.eventID)).paymentStatus).toBe('paid')
  })

  test('a replayed event id changes nothing the second time', async () => {
    const ctx = await setUp()
    await createPayment(ctx)
    const intent = fake.intentByEvent(ctx.event.eventID)!
    fake.decline(intent.id, 'Your card has insufficient funds.', 'insufficient_funds')
    const failed = fake.event('payment_intent.payment_failed', { ...intent })

    expect((await deliver(failed)).status).toBe(200)
    const [first] = await paymentRows(ctx.event.eventID)
    expect(first).toMatchObject({
      payment_status: 'failed',
      error_message: 'Your card has insufficient funds.',
    })

    const replay = await deliver(failed)
    expect(replay.status).toBe(200)
    expect(await replay.json()).toMatchObject({ received: true, duplicate: true })
    const [second] = await paymentRows(ctx.event.eventID)
    expect(second!.updated_at).toEqual(first!.updated_at)
    expect(second!.webhook_last_received_at).toEqual(first!.webhook_last_received_at)

    fake.succeed(intent.id)
    const succeeded = succeededEvent(intent.id)
    await deliver(succeeded)
    await deliver(succeeded)
    // The old failure arriving late again must not undo the payment.
    await deliver(failed)
    const [row] = await paymentRows(ctx.event.eventID)
    expect(row!.payment_status).toBe('paid')
    expect(row!.webhook_last_event_id).toBe(succeeded.id)
    expect(await paidAtWrites(row!.paymentID)).toBe(1)
  })

  test('a forged or missing signature is 400 and changes nothing', async () => {
    const ctx = await setUp()
    await createPayment(ctx)
    const intent = fake.intentByEvent(ctx.event.eventID)!
    fake.succeed(intent.id)
    const event = succeededEvent(intent.id)

    const forged = await deliver(event, 'whsec_not_the_secret')
    expect(forged.status).toBe(400)

    const { payload, signature } = signedWebhook(event, WEBHOOK_SECRET)
    const tampered = await callRoute(webhookAction, '/api/stripe/webhook', {
      method: 'POST',
      headers: { 'Stripe-Signature': signature },
      body: payload.replace('"livemode":false', '"livemode":true'),
    })
    expect(tampered.status).toBe(400)

    const unsigned = await callRoute(webhookAction, '/api/stripe/webhook', { method: 'POST', body: payload })
    expect(unsigned.status).toBe(400)

    const [row] = await paymentRows(ctx.event.eventID)
    expect(row).toMatchObject({ payment_status: 'pending', webhook_last_event_id: null })
  })

  test('a webhook refused at verification is answered as not received, with the reason', async () => {
    const unsigned = await callRoute(webhookAction, '/api/stripe/webhook', { method: 'POST', body: '{}' })
    expect(unsigned.status).toBe(400)
    expect(await unsigned.json()).toEqual({ received: false, message: 'Missing signature' })
  })

  test('completion and webhook racing: exactly one paid record, paid fields written once (20 rounds)', async () => {
    for (let round = 0; round < 20; round++) {
      const ctx = await setUp()
      await createPayment(ctx)
      const intent = fake.intentByEvent(ctx.event.eventID)!
      fake.succeed(intent.id)
      const event = succeededEvent(intent.id)

      const [completed, webhook, webhookAgain] = await Promise.all([
        completePayment(ctx.owner, ctx.cookie, intent.id),
        deliver(event),
        deliver(event),
      ])
      expect(completed.status).toBe(200)
      expect(webhook.status).toBe(200)
      expect(webhookAgain.status).toBe(200)

      const rows = await paymentRows(ctx.event.eventID)
      expect(rows.filter((r) => r.payment_status === 'paid')).toHaveLength(1)
      expect(rows[0]!.amount_paid_cents).toBe(2900)
      expect(await paidAtWrites(rows[0]!.paymentID)).toBe(1)
      expect((await eventRow(ctx.event.eventID)).paymentStatus).toBe('paid')
    }
  })
})

describe('refunds', () => {
  test('refundEventPayment refunds in full through Stripe, once', async () => {
    const ctx = await setUp()
    await createPayment(ctx)
    const intent = fake.intentByEvent(ctx.event.eventID)!
    fake.succeed(intent.id)
    await completePayment(ctx.owner, ctx.cookie, intent.id)

    const result = await refundEventPayment(ctx.event.eventID, 'Rejected by moderation')
    expect(result).toMatchObject({ refunded: true, changed: true, amountRefundedCents: 2900 })
    const refunds = [...fake.refunds.values()]
    expect(refunds).toHaveLength(1)
    expect(refunds[0]).toMatchObject({ payment_intent: intent.id, amount: 2900 })
    const [row] = await paymentRows(ctx.event.eventID)
    expect(row).toMatchObject({ payment_status: 'refunded', amount_refunded_cents: 2900 })
    expect((await eventRow(ctx.event.eventID)).paymentStatus).toBe('refunded')

    const again = await refundEventPayment(ctx.event.eventID, 'Rejected by moderation')
    expect(again).toMatchObject({ refunded: true, changed: false })
    expect(fake.refunds.size).toBe(1)

    // Stripe's own report of the refund arrives afterwards and changes nothing.
    const refundedEvent = fake.event('charge.refunded', { ...fake.chargeOf(intent.id)! })
    expect((await deliver(refundedEvent)).status).toBe(200)
    const [after] = await paymentRows(ctx.event.eventID)
    expect(after).toMatchObject({ payment_status: 'refunded', amount_refunded_cents: 2900 })
  })

  test('after the database starts over (ids used again), a refund still reaches Stripe for its own payment', async () => {
    async function paidAd() {
      const ctx = await setUp()
      await createPayment(ctx)
      const intent = fake.intentByEvent(ctx.event.eventID)!
      fake.succeed(intent.id)
      await completePayment(ctx.owner, ctx.cookie, intent.id)
      return { ctx, intent }
    }
    const first = await paidAd()
    await refundEventPayment(first.ctx.event.eventID, 'Rejected by moderation')
    const [firstRow] = await paymentRows(first.ctx.event.eventID)

    // An empty database against the same Stripe account: the next ad and its payment get the same ids.
    await db.delete(events).where(eq(events.eventID, first.ctx.event.eventID))
    await db.execute(
      sql`SELECT setval(pg_get_serial_sequence('events', 'eventID'), ${first.ctx.event.eventID}, false)`,
    )
    await db.execute(
      sql`SELECT setval(pg_get_serial_sequence('payments', 'paymentID'), ${firstRow!.paymentID}, false)`,
    )
    const second = await paidAd()
    const [secondRow] = await paymentRows(second.ctx.event.eventID)
    expect([second.ctx.event.eventID, secondRow!.paymentID]).toEqual([
      first.ctx.event.eventID,
      firstRow!.paymentID,
    ])

    const before = fake.refunds.size
    await refundEventPayment(second.ctx.event.eventID, 'Rejected by moderation')
    const refunds = [...fake.refunds.values()]
    expect(refunds).toHaveLength(before + 1)
    expect(refunds.at(-1)).toMatchObject({ payment_intent: second.intent.id, amount: 2900 })
  })

  test('a charge.refunded webhook alone records the refund', async () => {
    const ctx = await setUp()
    await createPayment(ctx)
    const intent = fake.intentByEvent(ctx.event.eventID)!
    fake.succeed(intent.id)
    await completePayment(ctx.owner, ctx.cookie, intent.id)
    const charge = fake.chargeOf(intent.id)!
    Object.assign(charge, { amount_refunded: charge.amount, refunded: true })

    expect((await deliver(fake.event('charge.refunded', { ...charge }))).status).toBe(200)
    const [row] = await paymentRows(ctx.event.eventID)
    expect(row).toMatchObject({ payment_status: 'refunded', amount_refunded_cents: 2900 })
    expect((await eventRow(ctx.event.eventID)).paymentStatus).toBe('refunded')
  })

  test('an unpaid event has nothing to refund', async () => {
    const ctx = await setUp()
    expect(await refundEventPayment(ctx.event.eventID, 'Rejected')).toMatchObject({
      refunded: false,
      changed: false,
    })
    expect(fake.count('POST', '/v1/refunds')).toBe(0)
  })
})

describe('checkout page with Stripe', () => {
  test('the loader hands the island the publishable key and the server-priced payment data', async () => {
    const ctx = await setUp(10)
    const res = await callRoute(checkoutLoader, '/checkout', { headers: { Cookie: ctx.cookie } })
    expect(res.status).toBe(200)
    const body = (await res.json()) as {
      mode: string
      summary: { total: string; dates: string[] }
      stripe: { publishableKey: string; paymentData: { totalAmount: number; eventID: number } }
    }
    expect(body.mode).toBe('stripe')
    expect(body.summary.total).toBe('49.00')
    expect(body.summary.dates).toHaveLength(10)
    expect(body.stripe.publishableKey).toBe('pk_test_fake')
    expect(body.stripe.paymentData).toMatchObject({ totalAmount: 49, eventID: ctx.event.eventID })
    // Stripe set-up happens in the browser through /api/create-event-payment, not on page load.
    expect(fake.count('POST', '/v1/payment_intents')).toBe(0)
  })
})

describe('a sponsored ad', () => {
  test('the PaymentIntent carries the surcharge, a total without it is refused, and the webhook reconciles it', async () => {
    const ctx = await setUp(3)
    // "Make it sponsored" ticked at checkout: $5.00 a day for 3 days on top of $29.00.
    await db.update(events).set({ sponsored: true }).where(eq(events.eventID, ctx.event.eventID))

    const short = await createPayment(ctx, { totalAmount: 29 })
    expect(short.status).toBe(400)
    expect(fake.count('POST', '/v1/payment_intents')).toBe(0)
    expect(await paymentRows(ctx.event.eventID)).toEqual([])

    expect((await createPayment(ctx, { totalAmount: 44 })).status).toBe(200)
    const intent = fake.intentByEvent(ctx.event.eventID)!
    expect(intent.amount).toBe(4400)

    fake.succeed(intent.id, { last4: '4242', brand: 'visa', expMonth: 4, expYear: 2031 })
    expect((await deliver(succeededEvent(intent.id))).status).toBe(200)
    const [row] = await paymentRows(ctx.event.eventID)
    expect(row).toMatchObject({ payment_status: 'paid', amount_due_cents: 4400, amount_paid_cents: 4400 })
    const paid = await eventRow(ctx.event.eventID)
    expect(paid).toMatchObject({ paymentStatus: 'paid', sponsored: true, totalCost: 44 })
    expect(paid.sponsoredAt).toBeInstanceOf(Date)
  })
})
