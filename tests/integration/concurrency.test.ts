/**
 * Twenty requests at once on one ad: on a PostgreSQL server (DATABASE_URL) they run on separate connections, so only
 * what the database enforces keeps them from each writing a row.
 */
import fs from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { action as createPayment } from '#app/routes/api.create-event-payment.ts'
import { action as checkout } from '#app/routes/checkout.tsx'
import { action as trackBounce } from '#app/routes/api.events.$id.track-bounce.ts'
import { action as trackClick } from '#app/routes/api.events.$id.track-click.ts'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { sessionStorage } from '#app/services/http/session.server.ts'
import { PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { clickCount, events, payments } from '#db/schema.ts'
import { businessSessionCopy, sessionCookieFor } from '#tests/support/auth.ts'
import { toastOf } from '#tests/support/cookie-jar.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const PARALLEL = 20
const today = platformToday()
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36'
const dataDir = path.join(TMP_DIR, `concurrency-it-${process.pid}-${Date.now().toString(36)}`)
const STRIPE_VARS = ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'] as const
const saved: Record<string, string | undefined> = {}

beforeAll(() => {
  for (const name of [...STRIPE_VARS, 'DATA_DIR']) saved[name] = process.env[name]
  for (const name of STRIPE_VARS) delete process.env[name]
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

describe(`${PARALLEL} parallel POST /api/create-event-payment for one new ad`, () => {
  test('create one payment intent and one payment row, and all get its client secret', async () => {
    const owner = await insertBusiness(db, { businessName: 'Racing Cafe' })
    const event = await insertTestEvent(owner, {
      eventStatus: 'draft',
      paymentStatus: 'pending',
      showAdOnDates: [addDaysIso(today, 1), addDaysIso(today, 2)],
    })
    const cookie = await sessionCookieFor({ business: owner })
    const responses = await Promise.all(
      // Spread over a few milliseconds, as requests arrive in practice: some read before and some after the first insert.
      Array.from({ length: PARALLEL }, async (_, i) => {
        await new Promise((resolve) => setTimeout(resolve, i))
        return callRoute(createPayment, '/api/create-event-payment', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Cookie: cookie },
          // The total checkout shows for its two days.
          body: JSON.stringify({ businessID: owner.businessID, eventID: event.eventID, totalAmount: 29 }),
        })
      }),
    )
    const bodies = (await Promise.all(responses.map((r) => r.json()))) as { clientSecret?: string }[]
    expect(responses.map((r) => r.status)).toEqual(Array(PARALLEL).fill(200))
    expect(new Set(bodies.map((b) => b.clientSecret)).size).toBe(1)
    const rows = await db.select().from(payments).where(eq(payments.eventID, event.eventID))
    expect(rows).toHaveLength(1)
    expect(bodies[0]!.clientSecret).toContain(rows[0]!.payment_intent_id)
  })
})

describe(`${PARALLEL} parallel POST /checkout paying one ad with a good card`, () => {
  test('one payment is made; every other payer is told the ad is already paid, none sees an error', async () => {
    const owner = await insertBusiness(db, { businessName: 'Queueing Cafe' })
    const event = await insertTestEvent(owner, {
      eventStatus: 'draft',
      paymentStatus: 'pending',
      showAdOnDates: [addDaysIso(today, 1), addDaysIso(today, 2)],
    })
    const session = await sessionStorage.getSession()
    session.set('business', businessSessionCopy(owner))
    session.set('eventPaymentData', {
      businessID: owner.businessID,
      selectedDates: event.showAdOnDates,
      eventData: {
        eventTitle: event.eventTitle,
        eventDescription: event.eventDescription,
        eventCategory: event.category,
        showAdDates: event.showAdOnDates,
        eventDate: event.eventDate,
        contactPerson: '',
        contactPhone: '',
        contactEmail: '',
      },
      totalAmount: 19,
      eventID: event.eventID,
    })
    const cookie = (await sessionStorage.commitSession(session)).split(';')[0]!
    const nextYear = String((new Date().getFullYear() + 1) % 100).padStart(2, '0')
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, async (_, i) => {
        await new Promise((resolve) => setTimeout(resolve, i))
        return callRoute(checkout, '/checkout', {
          method: 'POST',
          headers: { Cookie: cookie },
          // The card form names its ad: whoever comes after the first payment cleared checkout is told it is paid.
          body: new URLSearchParams({
            intent: 'pay',
            eventID: String(event.eventID),
            totalAmount: '29.00',
            cardNumber: '4242424242424242',
            expiry: `12/${nextYear}`,
            cvc: '123',
          }),
        })
      }),
    )
    const toasts = await Promise.all(responses.map(async (r) => (await toastOf(r))?.title))
    expect(toasts.filter((t) => t === PAYMENT_TEXT.success.title)).toHaveLength(1)
    expect(toasts.filter((t) => t === PAYMENT_TEXT.alreadyPaid.title)).toHaveLength(PARALLEL - 1)
    const rows = await db.select().from(payments).where(eq(payments.eventID, event.eventID))
    expect(rows.map((r) => r.payment_status)).toEqual(['paid'])
    const [paid] = await db.select().from(events).where(eq(events.eventID, event.eventID))
    expect(paid!.paymentStatus).toBe('paid')
  })
})

describe(`${PARALLEL} simultaneous visits by one visitor on one live ad`, () => {
  test.each([
    ['bounces', trackBounce, 'track-bounce'],
    ['clicks', trackClick, 'track-click'],
  ] as const)('%s store one row', async (_kind, action, segment) => {
    const owner = await insertBusiness(db, { businessName: `Bounced Cafe ${segment}` })
    const live = await insertTestEvent(owner, { showAdOnDates: [today, addDaysIso(today, 3)] })
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, () =>
        callRoute(action, `/api/events/${live.eventID}/${segment}`, {
          method: 'POST',
          params: { id: String(live.eventID) },
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': BROWSER,
            'X-Forwarded-For': '203.0.113.9',
          },
          body: '{}',
        }),
      ),
    )
    expect(responses.map((r) => r.status)).toEqual(Array(PARALLEL).fill(204))
    expect(await db.select().from(clickCount).where(eq(clickCount.eventID, live.eventID))).toHaveLength(1)
  })
})
