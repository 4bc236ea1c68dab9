import fs from 'node:fs'
import path from 'node:path'
import { desc, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { showDateBounds } from '#app/models/ads/event-dates.ts'
import { action as createAction } from '#app/routes/api.create-event-payment.ts'
import { action, loader } from '#app/routes/checkout.tsx'
import { cleanupUnpaidEvents } from '#app/services/operations/cleanup.server.ts'
import { getEnv, resetEnvCache } from '#app/services/platform/env.server.ts'
import { getEventPaymentData } from '#app/services/payments/payment-data.server.ts'
import { mediaKey, mediaUrlFromKey } from '#app/utils/media-types.ts'
import { putStored, storedExists } from '#tests/support/media-storage.ts'
import { PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import { TOTAL_MISMATCH_MESSAGE } from '#app/utils/pricing.ts'
import {
  CARD_MESSAGES,
  checkTestCard,
  testProvider,
} from '#app/services/payments/payment-providers.server.ts'
import { refundEventPayment } from '#app/services/payments/payment-refunds.server.ts'
import { sessionStorage } from '#app/services/http/session.server.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { eventMedia, events, payments, priceLists, type Business, type NewEvent } from '#db/schema.ts'
import { businessSessionCopy } from '#tests/support/auth.ts'
import { toastOf } from '#tests/support/cookie-jar.ts'
import { callRoute } from '#tests/support/routes.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const dataDir = path.join(TMP_DIR, `payments-it-${process.pid}-${Date.now().toString(36)}`)
const ENV_VARS = [
  'DATA_DIR',
  'STRIPE_SECRET_KEY',
  'STRIPE_PUBLISHABLE_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_API_BASE',
  'APP_ENV',
  'ALLOW_NO_IDENTITY_PROVIDER',
] as const
const saved: Partial<Record<(typeof ENV_VARS)[number], string>> = {}

beforeAll(() => {
  for (const name of ENV_VARS) saved[name] = process.env[name]
  for (const name of ENV_VARS) delete process.env[name]
  process.env.APP_ENV = 'test'
  process.env.DATA_DIR = dataDir
  resetEnvCache()
})

afterAll(() => {
  restoreEnv()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

function restoreEnv() {
  for (const name of ENV_VARS) {
    if (saved[name] === undefined) delete process.env[name]
    else process.env[name] = saved[name]
  }
  resetEnvCache()
}

const today = todayInZone(getEnv().APP_TIME_ZONE)
const nextYear = String((new Date().getFullYear() + 1) % 100).padStart(2, '0')

async function insertEvent(owner: Business, overrides: Partial<NewEvent> = {}, days = 3) {
  const showAdOnDates = Array.from({ length: days }, (_, i) => addDaysIso(today, i + 1))
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
      daysOrdered: days,
      totalCost: 29,
      approvedDateByBusiness: today,
      ...overrides,
    })
    .returning()
  return row!
}

async function cookieFor(owner: Business, paymentData?: unknown) {
  const session = await sessionStorage.getSession()
  session.set('business', businessSessionCopy(owner))
  if (paymentData !== undefined) session.set('eventPaymentData', paymentData)
  return (await sessionStorage.commitSession(session)).split(';')[0]!
}

function paymentDataFor(owner: Business, event: { eventID: number; showAdOnDates: string[] }) {
  return {
    businessID: owner.businessID,
    selectedDates: event.showAdOnDates,
    eventData: {
      eventTitle: 'Pancake Breakfast',
      eventDescription: 'All you can eat, for a good cause.',
      eventCategory: ['Fundraiser'],
      showAdDates: event.showAdOnDates,
      eventDate: '1989-01-01',
      contactPerson: '',
      contactPhone: '',
      contactEmail: '',
    },
    totalAmount: 29,
    eventID: event.eventID,
  }
}

async function setUp() {
  const owner = await insertBusiness(db)
  const event = await insertEvent(owner)
  return { owner, event, cookie: await cookieFor(owner, paymentDataFor(owner, event)) }
}

async function storedData(cookie: string) {
  return getEventPaymentData(await sessionStorage.getSession(cookie))
}

function get(cookie: string, url = '/checkout') {
  return callRoute(loader, url, { headers: { Cookie: cookie } })
}

function post(cookie: string, fields: Record<string, string>) {
  return callRoute(action, '/checkout', {
    method: 'POST',
    headers: { Cookie: cookie },
    body: new URLSearchParams(fields),
  })
}

/** What the page shows for the 3-day ads of these tests, and so what its card form sends. */
const SHOWN_TOTAL = '29.00'

/** The card form as the page sends it: with the total the page showed. */
function pay(cookie: string, cardNumber: string, extra: Record<string, string> = {}) {
  return post(cookie, {
    intent: 'pay',
    totalAmount: SHOWN_TOTAL,
    cardNumber,
    expiry: `12/${nextYear}`,
    cvc: '123',
    ...extra,
  })
}

async function paymentRows(eventID: number) {
  return db.select().from(payments).where(eq(payments.eventID, eventID))
}

async function eventRow(eventID: number) {
  const [row] = await db.select().from(events).where(eq(events.eventID, eventID))
  return row
}

describe('/checkout loader', () => {
  test('no stored payment data → back to / with the "No Event Data" toast', async () => {
    const owner = await insertBusiness(db)
    const res = await get(await cookieFor(owner))
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/')
    expect(await toastOf(res)).toMatchObject({
      title: 'No Event Data',
      description: 'No event data found. Redirecting to create event.',
    })
  })

  test('signed out → the sign-in page, coming back here', async () => {
    const res = await callRoute(loader, '/checkout')
    expect(res.headers.get('Location')).toBe('/login?redirectTo=%2Fcheckout')
  })

  test('unreadable stored data → "Invalid Event Data", and it is cleared', async () => {
    const owner = await insertBusiness(db)
    const cookie = await cookieFor(owner, { eventID: 'not a number', selectedDates: 'x' })
    const res = await get(cookie)
    expect(res.headers.get('Location')).toBe('/')
    expect(await toastOf(res)).toMatchObject({
      title: 'Invalid Event Data',
      description: 'Unable to process event data. Please try again.',
    })
    expect(await storedData(cookie)).toBeNull()
  })

  test('with data: the summary and the test provider, the payment set up on the server', async () => {
    const { event, cookie } = await setUp()
    const res = await get(cookie)
    expect(res.status).toBe(200)
    const body = (await res.json()) as { mode: string; summary: unknown; setupError: string | null }
    expect(body.mode).toBe('test')
    expect(body.setupError).toBeNull()
    expect(body.summary).toEqual({
      eventID: event.eventID,
      eventTitle: 'Pancake Breakfast',
      dates: event.showAdOnDates,
      total: SHOWN_TOTAL,
      promo: null,
    })
    const rows = await paymentRows(event.eventID)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ amount_due_cents: 2900, currency: 'usd', payment_status: 'pending' })
    expect(rows[0]!.payment_intent_id).toMatch(/^pi_test_/)

    // A reload reuses the same attempt.
    await get(cookie)
    expect(await paymentRows(event.eventID)).toHaveLength(1)
  })

  test('?eventID= of an own unpaid event (Confirm Ad) stores its payment data', async () => {
    const owner = await insertBusiness(db)
    const event = await insertEvent(owner, {}, 9)
    const cookie = await cookieFor(owner)
    const res = await get(cookie, `/checkout?eventID=${event.eventID}`)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { summary: { total: string } }).summary.total).toBe('49.00')
    expect(await storedData(cookie)).toMatchObject({
      businessID: owner.businessID,
      eventID: event.eventID,
      selectedDates: event.showAdOnDates,
      totalAmount: 49,
      eventData: { eventTitle: 'Pancake Breakfast', eventCategory: ['Fundraiser'] },
    })

    const stranger = await insertBusiness(db)
    const foreign = await get(await cookieFor(stranger), `/checkout?eventID=${event.eventID}`)
    expect(foreign.status).toBe(404)

    const paid = await insertEvent(owner, { paymentStatus: 'paid' })
    const already = await get(cookie, `/checkout?eventID=${paid.eventID}`)
    expect(already.headers.get('Location')).toBe(`/event/${paid.eventID}?viewMode=true`)
  })

  test('in production without Stripe keys payments are not available (never the test provider)', async () => {
    process.env.APP_ENV = 'production'
    process.env.ALLOW_NO_IDENTITY_PROVIDER = 'true'
    process.env.PUBLIC_URL = 'https://events.example'
    resetEnvCache()
    try {
      const ctx = await setUp()
      const res = await get(ctx.cookie)
      expect(((await res.json()) as { mode: string }).mode).toBe('unavailable')
      const api = await callRoute(createAction, '/api/create-event-payment', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: ctx.cookie },
        body: JSON.stringify({
          businessID: ctx.owner.businessID,
          eventID: ctx.event.eventID,
          totalAmount: 29,
        }),
      })
      expect(api.status).toBe(503)
      const attempt = await pay(ctx.cookie, '4242 4242 4242 4242')
      expect(await toastOf(attempt)).toMatchObject({ title: PAYMENT_TEXT.setupFailed.title })
      expect(await paymentRows(ctx.event.eventID)).toHaveLength(0)
    } finally {
      process.env.APP_ENV = 'test'
      delete process.env.ALLOW_NO_IDENTITY_PROVIDER
      delete process.env.PUBLIC_URL
      resetEnvCache()
    }
  })
})

describe('/checkout action with the test provider', () => {
  test('4242… pays: event and payment paid, toast, stored data cleared, straight to / without JavaScript', async () => {
    const { owner, event, cookie } = await setUp()
    await get(cookie)
    const res = await pay(cookie, '4242 4242 4242 4242')
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/')
    expect(await toastOf(res)).toMatchObject({
      title: 'Payment Successful',
      description: 'Your ad will go live after administrator approval.',
    })
    expect(await storedData(cookie)).toBeNull()

    expect((await eventRow(event.eventID))!.paymentStatus).toBe('paid')
    const rows = await paymentRows(event.eventID)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      payment_status: 'paid',
      amount_paid_cents: 2900,
      totalPaid: 29,
      card_brand: 'visa',
      card_last4: '4242',
      card_exp_month: 12,
      receipt_url: null,
    })
    expect(rows[0]!.payment_intent_id).toMatch(/^pi_test_/)
    expect(rows[0]!.stripe_charge_id).toMatch(/^ch_test_/)
    expect(rows[0]!.paid_at).toBeInstanceOf(Date)

    // The same data again (another tab) cannot pay twice.
    const twice = await get(await cookieFor(owner, paymentDataFor(owner, event)))
    expect(twice.headers.get('Location')).toBe('/dashboard')
    expect(await toastOf(twice)).toMatchObject(PAYMENT_TEXT.alreadyPaid)
  })

  test('with JavaScript the page stays for the pause, with the toast set and the data cleared', async () => {
    const { event, cookie } = await setUp()
    const res = await pay(cookie, '4242424242424242', { js: '1' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ paid: true })
    expect(await toastOf(res)).toMatchObject(PAYMENT_TEXT.success)
    expect(await storedData(cookie)).toBeNull()
    expect((await eventRow(event.eventID))!.paymentStatus).toBe('paid')
  })

  test('a database started over (event ids used again) never hands a new ad the old ad’s payment', async () => {
    const first = await setUp()
    await pay(first.cookie, '4242424242424242', { js: '1' })
    const [paid] = await paymentRows(first.event.eventID)
    expect(paid!.payment_status).toBe('paid')

    // As after restoring an empty database against the same processor account: the next ad gets the same id.
    await db.delete(events).where(eq(events.eventID, first.event.eventID))
    await db.execute(
      sql`SELECT setval(pg_get_serial_sequence('events', 'eventID'), ${first.event.eventID}, false)`,
    )
    const second = await setUp()
    expect(second.event.eventID).toBe(first.event.eventID)

    const res = await pay(second.cookie, '4000 0000 0000 0002', { js: '1' })
    expect(await toastOf(res)).toMatchObject({ description: 'Your card was declined.' })
    const [open] = await paymentRows(second.event.eventID)
    expect(open!.payment_intent_id).not.toBe(paid!.payment_intent_id)
    expect(open!.idempotency_key).not.toBe(paid!.idempotency_key)
    expect((await eventRow(second.event.eventID))!.paymentStatus).toBe('pending')
  })

  test.each([
    ['4000 0000 0000 0002', 'Your card was declined.'],
    ['4000 0000 0000 9995', 'Your card has insufficient funds.'],
    ['4242 4242 4242 4241', 'Your card number is incorrect.'],
  ])('%s is refused with "%s"; the data is kept for a retry', async (cardNumber, message) => {
    const { event, cookie } = await setUp()
    const res = await pay(cookie, cardNumber)
    expect(res.headers.get('Location')).toBe('/checkout')
    expect(await toastOf(res)).toMatchObject({
      title: 'Payment Failed',
      description: message,
      variant: 'destructive',
    })
    expect(await storedData(cookie)).toMatchObject({ eventID: event.eventID })
    expect((await eventRow(event.eventID))!.paymentStatus).toBe('pending')
    const rows = await paymentRows(event.eventID)
    expect(rows[0]).toMatchObject({ payment_status: 'failed', error_message: message, paid_at: null })

    const retry = await pay(cookie, '4242 4242 4242 4242')
    expect(retry.headers.get('Location')).toBe('/')
    expect((await eventRow(event.eventID))!.paymentStatus).toBe('paid')
    expect(await paymentRows(event.eventID)).toHaveLength(1)
  })

  test('an expired card is refused', async () => {
    const { cookie } = await setUp()
    const res = await pay(cookie, '4242424242424242', { expiry: '01/20' })
    expect(await toastOf(res)).toMatchObject({
      title: 'Payment Failed',
      description: 'Your card has expired.',
    })
  })

  test('prices raised after the page was shown: a payment without the total it showed, or with the old one, is refused with the new total and nothing is charged', async () => {
    const { event, cookie } = await setUp()
    expect(((await (await get(cookie)).json()) as { summary: { total: string } }).summary.total).toBe(
      SHOWN_TOTAL,
    )
    const [current] = await db.select().from(priceLists).orderBy(desc(priceLists.id)).limit(1)
    await db.insert(priceLists).values({
      tiers: [
        { upToDays: 7, cents: 3500 },
        { upToDays: 21, cents: 6900 },
      ],
      note: 'Raised while a checkout was open',
    })
    try {
      const refusal = { description: `${TOTAL_MISMATCH_MESSAGE} The total is now $35.00.` }
      const withoutTotal = await post(cookie, {
        intent: 'pay',
        eventID: String(event.eventID),
        cardNumber: '4242424242424242',
        expiry: `12/${nextYear}`,
        cvc: '123',
      })
      expect(withoutTotal.headers.get('Location')).toBe('/checkout')
      expect(await toastOf(withoutTotal)).toMatchObject(refusal)
      const oldTotal = await pay(cookie, '4242424242424242', { totalAmount: '29.00' })
      expect(oldTotal.headers.get('Location')).toBe('/checkout')
      expect(await toastOf(oldTotal)).toMatchObject(refusal)
      expect(
        (await paymentRows(event.eventID)).filter(
          (p) => p.payment_status === 'paid' || p.amount_paid_cents > 0,
        ),
      ).toEqual([])
      expect((await eventRow(event.eventID))!.paymentStatus).toBe('pending')
      expect(await storedData(cookie)).toMatchObject({ eventID: event.eventID })

      // The page shows the new total; paying that is charged that.
      expect(((await (await get(cookie)).json()) as { summary: { total: string } }).summary.total).toBe(
        '35.00',
      )
      const paid = await pay(cookie, '4242424242424242', { totalAmount: '35.00' })
      expect(paid.headers.get('Location')).toBe('/')
      expect(
        (await paymentRows(event.eventID))
          .filter((p) => p.payment_status === 'paid')
          .map((p) => p.amount_paid_cents),
      ).toEqual([3500])
    } finally {
      await db.insert(priceLists).values({ tiers: current!.tiers, note: 'Back' })
    }
  })

  test('a card form without its fields is answered at the fields (400), the card number not sent back', async () => {
    const { event, cookie } = await setUp()
    const res = await post(cookie, { intent: 'pay', eventID: String(event.eventID), cardNumber: '4242' })
    expect(res.status).toBe(400)
    const { result } = (await res.json()) as {
      result: { error: Record<string, string[]>; initialValue: Record<string, unknown> }
    }
    expect(result.error).toEqual({
      expiry: ['Enter the expiry date as MM/YY.'],
      cvc: ['Enter the security code (CVC).'],
    })
    expect(result.initialValue).not.toHaveProperty('cardNumber')
    expect(await paymentRows(event.eventID)).toHaveLength(0)
    expect(await storedData(cookie)).toMatchObject({ eventID: event.eventID })
  })

  test('Cancel clears the stored data and returns to /', async () => {
    const { event, cookie } = await setUp()
    const res = await post(cookie, { intent: 'cancel' })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/')
    expect(await storedData(cookie)).toBeNull()
    expect((await eventRow(event.eventID))!.paymentStatus).toBe('pending')
  })

  test('paying with no stored data → "No Event Data"', async () => {
    const owner = await insertBusiness(db)
    const res = await pay(await cookieFor(owner), '4242424242424242')
    expect(res.headers.get('Location')).toBe('/')
    expect(await toastOf(res)).toMatchObject({ title: 'No Event Data' })
  })

  test('refundEventPayment works the same with the test provider', async () => {
    const { event, cookie } = await setUp()
    await pay(cookie, '4242424242424242')
    expect(await refundEventPayment(event.eventID, 'Rejected')).toMatchObject({
      refunded: true,
      changed: true,
    })
    expect(await refundEventPayment(event.eventID, 'Rejected')).toMatchObject({
      refunded: true,
      changed: false,
    })
    expect((await paymentRows(event.eventID))[0]).toMatchObject({
      payment_status: 'refunded',
      amount_refunded_cents: 2900,
    })
    expect((await eventRow(event.eventID))!.paymentStatus).toBe('refunded')
  })
})

describe('test cards', () => {
  test('messages match the provider’s wording', () => {
    const now = new Date('2030-06-15T00:00:00Z')
    const refused = (card: { number: string; expiry: string; cvc: string }) => {
      try {
        checkTestCard(card, now)
        return null
      } catch (error) {
        return (error as Error).message
      }
    }
    expect(refused({ number: '4242424242424242', expiry: '06/30', cvc: '1' })).toBe(CARD_MESSAGES.invalidCvc)
    expect(refused({ number: '4242424242424242', expiry: '05/30', cvc: '123' })).toBe(CARD_MESSAGES.expired)
    expect(refused({ number: '4242424242424242', expiry: '13/30', cvc: '123' })).toBe(
      CARD_MESSAGES.invalidExpiry,
    )
    expect(refused({ number: '1234', expiry: '06/30', cvc: '123' })).toBe(CARD_MESSAGES.incorrectNumber)
    expect(refused({ number: '4242 4242 4242 4242', expiry: '06/30', cvc: '9999' })).toBeNull()
  })
})

describe('cleanupUnpaidEvents', () => {
  async function writeMedia(kind: 'photo' | 'video', eventID: number, date: string) {
    const key = mediaKey({ kind, date, id: eventID, ext: kind === 'photo' ? 'webp' : 'mp4' })
    await putStored(key, 'media')
    return { url: `${mediaUrlFromKey(key)}?v=1`, key }
  }

  async function eventWithMedia(owner: Business, createdDate: Date, overrides: Partial<NewEvent> = {}) {
    const event = await insertEvent(owner, { createdDate, ...overrides })
    const date = createdDate.toISOString().slice(0, 10)
    const photo = await writeMedia('photo', event.eventID, date)
    const video = await writeMedia('video', event.eventID, date)
    await db
      .update(events)
      .set({ stillPhotoURL: photo.url, videoURL: video.url })
      .where(eq(events.eventID, event.eventID))
    await db.insert(eventMedia).values([
      { eventID: event.eventID, mediaType: 'photo', mediaUrl: photo.url },
      { eventID: event.eventID, mediaType: 'video', mediaUrl: video.url },
    ])
    return { event, keys: [photo.key, video.key] }
  }

  test('removes unpaid events older than 24 hours with their files; keeps paid and younger ones', async () => {
    const now = new Date()
    const hours = (h: number) => new Date(now.getTime() - h * 60 * 60 * 1000)
    const owner = await insertBusiness(db)
    const stale = await eventWithMedia(owner, hours(25))
    const staleWithAttempt = await eventWithMedia(owner, hours(30))
    const declined = await setUp()
    await db
      .update(events)
      .set({ createdDate: hours(48) })
      .where(eq(events.eventID, declined.event.eventID))
    await pay(declined.cookie, '4000000000000002')
    const young = await eventWithMedia(owner, hours(23))
    const paid = await eventWithMedia(owner, hours(72), { paymentStatus: 'paid' })
    const refunded = await eventWithMedia(owner, hours(72), { paymentStatus: 'refunded' })
    // An attempt the browser finished but never reported: it is recorded as paid, not deleted.
    const paidUnreported = await setUp()
    await get(paidUnreported.cookie)
    await db
      .update(events)
      .set({ createdDate: hours(26) })
      .where(eq(events.eventID, paidUnreported.event.eventID))
    const [attempt] = await paymentRows(paidUnreported.event.eventID)
    await testProvider().confirmCard(attempt!.payment_intent_id!, {
      number: '4242424242424242',
      expiry: `12/${nextYear}`,
      cvc: '123',
    })
    await get(await cookieFor(owner, paymentDataFor(owner, staleWithAttempt.event)))

    const result = await cleanupUnpaidEvents(now)

    for (const removed of [stale, staleWithAttempt]) {
      expect(result.removed).toContain(removed.event.eventID)
      expect(await eventRow(removed.event.eventID)).toBeUndefined()
      for (const key of removed.keys) expect(await storedExists(key)).toBe(false)
    }
    expect(result.removed).toContain(declined.event.eventID)
    expect(await paymentRows(staleWithAttempt.event.eventID)).toHaveLength(0)

    for (const kept of [young, paid, refunded]) {
      expect(result.removed).not.toContain(kept.event.eventID)
      expect(await eventRow(kept.event.eventID)).toBeDefined()
      for (const key of kept.keys) expect(await storedExists(key)).toBe(true)
    }
    expect(result.kept).toContain(paidUnreported.event.eventID)
    expect((await eventRow(paidUnreported.event.eventID))!.paymentStatus).toBe('paid')

    // Running again finds nothing more to do.
    const again = await cleanupUnpaidEvents(now)
    expect(again.removed).toEqual([])
  })
})
