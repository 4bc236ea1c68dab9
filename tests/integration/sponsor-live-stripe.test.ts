import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { SPONSORSHIP_PURPOSE } from '#app/models/payments/sponsorship.ts'
import { loader as sponsorLoader } from '#app/routes/dashboard_.events.$id_.sponsor.tsx'
import { action as sponsorPaymentAction } from '#app/routes/api.sponsor-payment.ts'
import { action as webhookAction } from '#app/routes/api.stripe.webhook.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { events, payments, type Business, type Event } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'
import { toastOf } from '#tests/support/cookie-jar.ts'
import { signedWebhook, StripeFake, useStripeSettings } from '#tests/support/stripe-fake.ts'

const WEBHOOK_SECRET = 'whsec_sponsor_live_secret'
const fake = new StripeFake()
let restore = () => {}

beforeAll(async () => {
  await fake.start()
  restore = useStripeSettings({ fake, webhookSecret: WEBHOOK_SECRET })
})

afterAll(async () => {
  restore()
  await fake.stop()
})

const today = platformToday()
let owner: Business
let cookie: string

beforeEach(async () => {
  fake.reset()
  owner = await insertBusiness(db)
  cookie = await sessionCookieFor({ business: owner })
})

/** A live ad shown today and the next three days: four days left, $20.00 at the default $5.00 a day. */
function liveAd() {
  return insertTestEvent(owner, { showAdOnDates: [0, 1, 2, 3].map((n) => addDaysIso(today, n)) })
}

/** What Stripe's form on the sponsor page asks first: the payment set up for the total (cents) the page showed. */
function start(ad: Pick<Event, 'eventID'>, totalCents: number, as = cookie) {
  return callRoute(sponsorPaymentAction, '/api/sponsor-payment', {
    method: 'POST',
    headers: { Cookie: as, 'Content-Type': 'application/json' },
    body: JSON.stringify({ businessID: owner.businessID, eventID: ad.eventID, totalCents }),
  })
}

function returnFromStripe(ad: Pick<Event, 'eventID'>, paymentIntentId: string) {
  return callRoute(
    sponsorLoader,
    `/dashboard/events/${ad.eventID}/sponsor?payment_intent=${paymentIntentId}`,
    {
      headers: { Cookie: cookie },
      params: { id: String(ad.eventID) },
    },
  )
}

async function adRow(eventID: number) {
  const [row] = await db.select().from(events).where(eq(events.eventID, eventID))
  return row!
}

describe("a live ad's sponsorship through Stripe (its local stand-in)", () => {
  test("the page offers Stripe's form; the PaymentIntent carries the surcharge; back from Stripe the ad is sponsored", async () => {
    const ad = await liveAd()
    const page = await callRoute(sponsorLoader, `/dashboard/events/${ad.eventID}/sponsor`, {
      headers: { Cookie: cookie },
      params: { id: String(ad.eventID) },
    })
    expect(await page.json()).toMatchObject({
      mode: 'stripe',
      publishableKey: 'pk_test_fake',
      total: '20.00',
    })

    const res = await start(ad, 2000)
    expect(res.status).toBe(200)
    const { clientSecret, totalAmount } = (await res.json()) as { clientSecret: string; totalAmount: string }
    expect(totalAmount).toBe('20.00')
    const intent = fake.intentByEvent(ad.eventID)!
    expect(clientSecret).toBe(intent.client_secret)
    expect(intent.amount).toBe(2000)
    expect(intent.metadata).toMatchObject({
      businessID: String(owner.businessID),
      purpose: SPONSORSHIP_PURPOSE,
    })
    // A second start (a reload) hands back the same intent.
    await start(ad, 2000)
    expect(fake.count('POST', '/v1/payment_intents')).toBe(1)
    expect(fake.intents.size).toBe(1)

    // Not paid yet: back to the sponsor page, told why; nothing changes.
    const early = await returnFromStripe(ad, intent.id)
    expect(early.status).toBe(302)
    expect(early.headers.get('Location')).toBe(`/dashboard/events/${ad.eventID}/sponsor`)
    expect(await toastOf(early)).toMatchObject({ variant: 'destructive', description: expect.any(String) })
    expect((await adRow(ad.eventID)).sponsored).toBe(false)

    fake.succeed(intent.id)
    const back = await returnFromStripe(ad, intent.id)
    expect(back.status).toBe(302)
    expect(back.headers.get('Location')).toBe(`/dashboard/events/${ad.eventID}`)
    expect(await adRow(ad.eventID)).toMatchObject({
      sponsored: true,
      sponsoredCents: 2000,
      paymentStatus: 'paid',
    })
    const [payment] = await db.select().from(payments).where(eq(payments.payment_intent_id, intent.id))
    expect(payment).toMatchObject({ payment_status: 'paid', amount_paid_cents: 2000 })
  })

  test('the webhook alone reconciles a paid sponsorship (the browser closed before the return)', async () => {
    const ad = await liveAd()
    await start(ad, 2000)
    const intent = fake.intentByEvent(ad.eventID)!
    fake.succeed(intent.id)
    const { payload, signature } = signedWebhook(
      fake.event('payment_intent.succeeded', { ...fake.intents.get(intent.id)! }) as Record<string, unknown>,
      WEBHOOK_SECRET,
    )
    const delivered = await callRoute(webhookAction, '/api/stripe/webhook', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
      body: payload,
    })
    expect(delivered.status).toBe(200)
    expect(await adRow(ad.eventID)).toMatchObject({ sponsored: true, sponsoredCents: 2000 })
    // The return afterwards changes nothing more.
    expect((await returnFromStripe(ad, intent.id)).status).toBe(302)
    expect((await adRow(ad.eventID)).sponsoredCents).toBe(2000)
  })

  test('a sponsorship refunded in full (charge.refunded) takes the ad out of the slots; the ad stays live and paid', async () => {
    const ad = await liveAd()
    await start(ad, 2000)
    const intent = fake.intentByEvent(ad.eventID)!
    fake.succeed(intent.id)
    expect((await returnFromStripe(ad, intent.id)).status).toBe(302)
    const charge = fake.chargeOf(intent.id)!
    Object.assign(charge, { amount_refunded: charge.amount, refunded: true })
    const { payload, signature } = signedWebhook(
      fake.event('charge.refunded', { ...charge }) as Record<string, unknown>,
      WEBHOOK_SECRET,
    )
    const delivered = await callRoute(webhookAction, '/api/stripe/webhook', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
      body: payload,
    })
    expect(delivered.status).toBe(200)
    expect(await adRow(ad.eventID)).toMatchObject({
      sponsored: false,
      sponsoredCents: 0,
      paymentStatus: 'paid',
      eventStatus: 'approved',
    })
    const [payment] = await db.select().from(payments).where(eq(payments.payment_intent_id, intent.id))
    expect(payment).toMatchObject({ payment_status: 'refunded', amount_refunded_cents: 2000 })
  })

  test("a tampered total creates no PaymentIntent; another ad's intent or a malformed one is not found", async () => {
    const ad = await liveAd()
    const tampered = await start(ad, 50)
    expect(tampered.status).toBe(400)
    expect(((await tampered.json()) as { message: string }).message).toContain('The total is now $20.00.')
    expect(fake.intents.size).toBe(0)
    // Another business's ad (its own id in the body, or the owner's): refused, nothing set up.
    const stranger = await insertBusiness(db)
    const strangerCookie = await sessionCookieFor({ business: stranger })
    const foreign = await callRoute(sponsorPaymentAction, '/api/sponsor-payment', {
      method: 'POST',
      headers: { Cookie: strangerCookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({ businessID: stranger.businessID, eventID: ad.eventID, totalCents: 2000 }),
    })
    expect(foreign.status).toBe(403)
    expect((await start(ad, 2000, strangerCookie)).status).toBe(403)
    expect(fake.intents.size).toBe(0)

    const other = await liveAd()
    await start(other, 2000)
    const otherIntent = fake.intentByEvent(other.eventID)!
    expect((await returnFromStripe(ad, otherIntent.id)).status).toBe(404)
    expect((await returnFromStripe(ad, 'pi_<script>')).status).toBe(404)
    expect((await adRow(ad.eventID)).sponsored).toBe(false)
  })
})
