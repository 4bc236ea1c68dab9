import { and, desc, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { MAX_PROMO_YEARS, PROMO_HOLD_MINUTES, PROMO_TEXT } from '#app/models/payments/promo-code.ts'
import * as promoRoute from '#app/routes/admin_.promo-codes.tsx'
import { action as createPayment } from '#app/routes/api.create-event-payment.ts'
import { action as checkoutAction, loader as checkoutLoader } from '#app/routes/checkout.tsx'
import { loader as receiptLoader } from '#app/routes/dashboard_.receipts.$id.tsx'
import { refundEventPayment } from '#app/services/payments/payment-refunds.server.ts'
import { getEnv } from '#app/services/platform/env.server.ts'
import { TOTAL_MISMATCH_MESSAGE } from '#app/utils/pricing.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness, insertUser } from '#db/factories.ts'
import {
  events,
  outbox,
  payments,
  priceLists,
  promoCodeChanges,
  promoCodes,
  promoRedemptions,
  type Business,
  type User,
} from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { toastOf } from '#tests/support/cookie-jar.ts'
import { browse, textOf } from '#tests/support/document-request.ts'
import { callRoute } from '#tests/support/routes.ts'
import {
  cookieWithPaymentData,
  insertUnpaidEvent,
  useTestPaymentProvider,
} from '#tests/support/stripe-checkout.ts'

useTestPaymentProvider()

let admin: User
let adminCookie: string

beforeAll(async () => {
  admin = await insertUser(db, { roles: ['admin'] })
  adminCookie = await sessionCookieFor({ user: admin })
})

const PROMO_PAGE = [{ path: '/admin/promo-codes', ...promoRoute }]
const today = () => todayInZone(getEnv().APP_TIME_ZONE)
const nextYear = String((new Date().getFullYear() + 1) % 100).padStart(2, '0')
let codeNumber = 0
/** A code name no other test uses. */
const newCodeName = (prefix = 'SAVE') => `${prefix}-${++codeNumber}`

function postForm(
  action: typeof checkoutAction,
  path: string,
  cookie: string,
  fields: Record<string, string>,
) {
  return callRoute(action, path, {
    method: 'POST',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  })
}

async function createCode(fields: Record<string, string>) {
  const res = await postForm(promoRoute.action, '/admin/promo-codes', adminCookie, {
    intent: 'create',
    kind: 'percent',
    value: '20',
    ...fields,
  })
  expect(res.status).toBe(302)
  const [row] = await db.select().from(promoCodes).where(eq(promoCodes.code, fields.code!.toUpperCase()))
  return row!
}

/** A business with an unpaid 3-day ad ($29.00 list price) at checkout. */
async function advertiser(owner?: Business) {
  const business = owner ?? (await insertBusiness(db))
  const dates = [1, 2, 3].map((n) => addDaysIso(today(), n))
  const event = await insertUnpaidEvent(business, dates, today())
  return { owner: business, event, cookie: await cookieWithPaymentData(business, event) }
}
type Advertiser = Awaited<ReturnType<typeof advertiser>>

const applyCode = (ad: Advertiser, code: string) =>
  postForm(checkoutAction, '/checkout', ad.cookie, { intent: 'apply-code', code })

async function checkoutPage(ad: Advertiser) {
  const res = await callRoute(checkoutLoader, '/checkout', { headers: { Cookie: ad.cookie } })
  expect(res.status).toBe(200)
  return (await res.json()) as {
    summary: { total: string; promo: { code: string; listTotal: string; discount: string } | null }
    promoNotice: string | null
    free: boolean
    setupError: string | null
  }
}

const pay = (ad: Advertiser, totalAmount: string, cardNumber = '4242 4242 4242 4242') =>
  postForm(checkoutAction, '/checkout', ad.cookie, {
    intent: 'pay',
    eventID: String(ad.event.eventID),
    totalAmount,
    cardNumber,
    expiry: `12/${nextYear}`,
    cvc: '123',
  })

/** The ad's card payment started, as Stripe's card form does when Pay is pressed: its code's use is held. */
const startPayment = (ad: Advertiser, totalAmount: number) =>
  callRoute(createPayment, '/api/create-event-payment', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: ad.cookie },
    body: JSON.stringify({ businessID: ad.owner.businessID, eventID: ad.event.eventID, totalAmount }),
  })

/** The ad's hold on its code as it is once its minutes have passed. */
async function lapseHold(eventID: number) {
  await db.execute(
    sql`UPDATE promo_redemptions SET "reservedUntil" = now() - interval '1 second' WHERE "eventID" = ${eventID}`,
  )
}

/** The promo codes page as the administrator reads it. */
async function promoCodesText() {
  const [page] = await browse(PROMO_PAGE, '/admin/promo-codes', { headers: { Cookie: adminCookie } })
  expect(page!.status).toBe(200)
  return textOf(page!.html)
}

const confirmFree = (ad: Advertiser, totalAmount = '0.00') =>
  postForm(checkoutAction, '/checkout', ad.cookie, {
    intent: 'confirm-free',
    eventID: String(ad.event.eventID),
    totalAmount,
  })

async function eventRow(eventID: number) {
  const [row] = await db.select().from(events).where(eq(events.eventID, eventID))
  return row!
}

const paymentsOf = (eventID: number) => db.select().from(payments).where(eq(payments.eventID, eventID))
const paidPaymentsOf = async (eventID: number) =>
  (await paymentsOf(eventID)).filter((p) => p.payment_status === 'paid')

async function redemptionsOf(promoCodeId: number) {
  return db.select().from(promoRedemptions).where(eq(promoRedemptions.promoCodeId, promoCodeId))
}

/** An ad with the code applied, paid by card at the discounted total. */
async function payWithCode(code: string, total: string, owner?: Business) {
  const ad = await advertiser(owner)
  expect((await applyCode(ad, code)).status).toBe(302)
  const res = await pay(ad, total)
  expect(res.headers.get('Location')).toBe('/')
  return ad
}

describe('/admin/promo-codes', () => {
  test('an administrator makes a code without JavaScript: stored upper-case, listed, and its creation audited', async () => {
    const pages = await browse(PROMO_PAGE, '/admin/promo-codes', {
      method: 'POST',
      headers: { Cookie: adminCookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        intent: 'create',
        code: ' spring-25 ',
        kind: 'fixed',
        value: '7.50',
        expiresOn: addDaysIso(today(), 30),
        maxUses: '10',
        firstAdOnly: 'on',
      }),
    })
    expect(pages[0]).toMatchObject({ status: 302, location: '/admin/promo-codes' })
    expect(await toastOf(pages[0]!.response!)).toMatchObject({ title: 'Promo code created' })
    const text = textOf(pages.at(-1)!.html)
    expect(text).toContain('SPRING-25 $7.50 off 0 of 10 used')
    expect(text).toContain(admin.email)
    expect(text).toContain(
      `Created — SPRING-25: $7.50 off, until ${addDaysIso(today(), 30)}, 10 uses, a business's first paid ad only, once per business`,
    )
    const [code] = await db.select().from(promoCodes).where(eq(promoCodes.code, 'SPRING-25'))
    expect(code).toMatchObject({ kind: 'fixed', value: 750, maxUses: 10, firstAdOnly: true, active: true })
    expect(code!.createdByUserId).toBe(admin.id)
    const changes = await db.select().from(promoCodeChanges).where(eq(promoCodeChanges.promoCodeId, code!.id))
    expect(changes).toMatchObject([
      { change: 'created', changedByUserId: admin.id, changedByEmail: admin.email },
    ])
  })

  test.each([
    ['a code of another format', { code: 'no spaces!' }, 'code', PROMO_TEXT.format],
    ['a code too short', { code: 'AB' }, 'code', PROMO_TEXT.format],
    ['a code of 1 MB', { code: 'A'.repeat(1_000_000) }, 'code', PROMO_TEXT.format],
    ['a percentage over 100', { value: '101' }, 'value', PROMO_TEXT.percent],
    ['a percentage of 0', { value: '0' }, 'value', PROMO_TEXT.percent],
    ['a fractional percentage', { value: '12.5' }, 'value', PROMO_TEXT.percent],
    ['a fixed amount of $0', { kind: 'fixed', value: '0' }, 'value', PROMO_TEXT.fixed],
    ['a fixed amount over the maximum', { kind: 'fixed', value: '10000.01' }, 'value', PROMO_TEXT.fixed],
    ['another kind', { kind: 'free' }, 'kind', PROMO_TEXT.kind],
    ['no uses', { maxUses: '0' }, 'maxUses', PROMO_TEXT.maxUses],
    ['a last day that is not a date', { expiresOn: '2026-02-30' }, 'expiresOn', PROMO_TEXT.expiry],
    ['the last day of the calendar', { expiresOn: '9999-12-31' }, 'expiresOn', PROMO_TEXT.expiry],
    [
      'a last day past the years a code may run',
      { expiresOn: addDaysIso(today(), 366 * MAX_PROMO_YEARS) },
      'expiresOn',
      PROMO_TEXT.expiry,
    ],
  ])('%s is refused with 400 at its field; nothing is saved', async (_, change, field, message) => {
    const before = await db.select({ n: sql<number>`count(*)::int` }).from(promoCodes)
    const res = await postForm(promoRoute.action, '/admin/promo-codes', adminCookie, {
      intent: 'create',
      code: newCodeName(),
      kind: 'percent',
      value: '20',
      ...change,
    })
    expect(res.status).toBe(400)
    const { result } = (await res.json()) as { result: { error: Record<string, string[]> } }
    expect(result.error[field]).toEqual([message])
    expect(JSON.stringify(result).length).toBeLessThan(10_000)
    expect(await db.select({ n: sql<number>`count(*)::int` }).from(promoCodes)).toEqual(before)
  })

  test('a last day in the past is refused; a second code of the same name (any case) is a conflict', async () => {
    const past = await postForm(promoRoute.action, '/admin/promo-codes', adminCookie, {
      intent: 'create',
      code: newCodeName(),
      kind: 'percent',
      value: '20',
      expiresOn: addDaysIso(today(), -1),
    })
    expect(past.status).toBe(400)
    expect(
      ((await past.json()) as { result: { error: Record<string, string[]> } }).result.error.expiresOn,
    ).toEqual([PROMO_TEXT.expiry])
    const name = newCodeName()
    await createCode({ code: name })
    const again = await postForm(promoRoute.action, '/admin/promo-codes', adminCookie, {
      intent: 'create',
      code: name.toLowerCase(),
      kind: 'percent',
      value: '30',
    })
    expect(again.status).toBe(409)
    expect(
      ((await again.json()) as { result: { error: Record<string, string[]> } }).result.error.code,
    ).toEqual([PROMO_TEXT.exists])
  })

  test('turning a code off is audited; an unknown id is 404', async () => {
    const code = await createCode({ code: newCodeName() })
    const res = await postForm(promoRoute.action, '/admin/promo-codes', adminCookie, {
      intent: 'turn-off',
      id: String(code.id),
    })
    expect(res.status).toBe(302)
    const [row] = await db.select().from(promoCodes).where(eq(promoCodes.id, code.id))
    expect(row!.active).toBe(false)
    const changes = await db
      .select()
      .from(promoCodeChanges)
      .where(eq(promoCodeChanges.promoCodeId, code.id))
      .orderBy(desc(promoCodeChanges.id))
    expect(changes[0]).toMatchObject({ change: 'turned_off', changedByEmail: admin.email })
    const missing = await postForm(promoRoute.action, '/admin/promo-codes', adminCookie, {
      intent: 'turn-off',
      id: '2147483647',
    })
    expect(missing.status).toBe(404)
  })
})

describe('a promo code at checkout', () => {
  test('applied without JavaScript (any case): the page shows list price, discount, code and the new total; the card pays that; the receipt shows it all', async () => {
    const name = newCodeName()
    const code = await createCode({ code: name, value: '20' })
    const ad = await advertiser()
    const applied = await applyCode(ad, ` ${name.toLowerCase()} `)
    expect(applied.status).toBe(302)
    expect(applied.headers.get('Location')).toBe('/checkout')
    expect(await toastOf(applied)).toMatchObject({ title: PROMO_TEXT.applied })

    const page = await checkoutPage(ad)
    expect(page.summary).toMatchObject({
      total: '23.20',
      promo: { code: name, listTotal: '29.00', discount: '5.80' },
    })
    expect((await eventRow(ad.event.eventID)).totalCost).toBe(23.2)

    const paid = await pay(ad, '23.20')
    expect(paid.headers.get('Location')).toBe('/')
    const [payment] = await paidPaymentsOf(ad.event.eventID)
    expect(payment).toMatchObject({ amount_due_cents: 2320, amount_paid_cents: 2320 })
    expect(await eventRow(ad.event.eventID)).toMatchObject({ paymentStatus: 'paid', totalCost: 23.2 })
    expect(await redemptionsOf(code.id)).toMatchObject([
      {
        status: 'redeemed',
        paymentID: payment!.paymentID,
        discountCents: 580,
        businessID: ad.owner.businessID,
      },
    ])

    const receipt = await callRoute(receiptLoader, `/dashboard/receipts/${payment!.paymentID}`, {
      headers: { Cookie: ad.cookie },
      params: { id: String(payment!.paymentID) },
    })
    expect(await receipt.json()).toMatchObject({
      amount: '$23.20',
      promo: { code: name, listPrice: '$29.00', discount: '$5.80' },
    })
    const [mail] = await db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupeKey, `payment-received:${payment!.paymentID}`))
    expect(mail!.textBody).toContain('List price: $29.00')
    expect(mail!.textBody).toContain(`Discount: −$5.80 (promo code ${name})`)
    expect(mail!.textBody).toContain('Amount: $23.20')
  })

  test('Remove puts the ad back at its list price', async () => {
    const name = newCodeName()
    await createCode({ code: name, kind: 'fixed', value: '4' })
    const ad = await advertiser()
    await applyCode(ad, name)
    expect((await checkoutPage(ad)).summary.total).toBe('25.00')
    const removed = await postForm(checkoutAction, '/checkout', ad.cookie, { intent: 'remove-code' })
    expect(removed.status).toBe(302)
    const page = await checkoutPage(ad)
    expect(page.summary).toMatchObject({ total: '29.00', promo: null })
    expect((await eventRow(ad.event.eventID)).promoCodeId).toBeNull()
  })

  test.each([
    ['an unknown code', 'NOPE-NOPE', 400, PROMO_TEXT.notFound],
    ['a code of another format', 'no spaces!', 400, PROMO_TEXT.format],
    ['a code of 1 MB', 'A'.repeat(1_000_000), 400, PROMO_TEXT.format],
  ])('%s is refused with %s and its message at the field', async (_, typed, status, message) => {
    const ad = await advertiser()
    const res = await applyCode(ad, typed)
    expect(res.status).toBe(status)
    const { result } = (await res.json()) as { result: { error: Record<string, string[]> } }
    expect(result.error.code).toEqual([message])
    expect(JSON.stringify(result).length).toBeLessThan(10_000)
    expect((await eventRow(ad.event.eventID)).promoCodeId).toBeNull()
  })

  test('the rules: expired, used up, first paid ad only, once per business, turned off — each refused with its message', async () => {
    // Expired: its last day was yesterday.
    const expired = await createCode({ code: newCodeName() })
    await db
      .update(promoCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(promoCodes.id, expired.id))
    // Used up: one use, taken.
    const once = await createCode({ code: newCodeName(), maxUses: '1' })
    await payWithCode(once.code, '23.20')
    // First paid ad only: this business has a paid ad.
    const firstOnly = await createCode({ code: newCodeName(), firstAdOnly: 'on' })
    // Once per business: the same business used this one on an earlier ad.
    const usedCode = await createCode({ code: newCodeName() })
    const regular = await payWithCode(usedCode.code, '23.20')
    const off = await createCode({ code: newCodeName() })
    await postForm(promoRoute.action, '/admin/promo-codes', adminCookie, {
      intent: 'turn-off',
      id: String(off.id),
    })

    const cases: Array<[string, string, Business | undefined]> = [
      [expired.code, PROMO_TEXT.expired, undefined],
      [once.code, PROMO_TEXT.usedUp, undefined],
      [firstOnly.code, PROMO_TEXT.firstAdOnly, regular.owner],
      [usedCode.code, PROMO_TEXT.usedBefore, regular.owner],
      [off.code, PROMO_TEXT.turnedOff, undefined],
    ]
    for (const [code, message, owner] of cases) {
      const ad = await advertiser(owner)
      const res = await applyCode(ad, code)
      expect(res.status, code).toBe(409)
      const { result } = (await res.json()) as { result: { error: Record<string, string[]> } }
      expect(result.error.code).toEqual([message])
      expect((await eventRow(ad.event.eventID)).promoCodeId).toBeNull()
    }
    // A new business may use the first-paid-ad code.
    expect((await applyCode(await advertiser(), firstOnly.code)).status).toBe(302)
  })

  test('a code turned off mid-checkout: the payment is refused, nothing is charged, and checkout shows the ad without it', async () => {
    const code = await createCode({ code: newCodeName() })
    const ad = await advertiser()
    await applyCode(ad, code.code)
    expect((await checkoutPage(ad)).summary.total).toBe('23.20')
    await postForm(promoRoute.action, '/admin/promo-codes', adminCookie, {
      intent: 'turn-off',
      id: String(code.id),
    })

    const refused = await pay(ad, '23.20')
    expect(refused.headers.get('Location')).toBe('/checkout')
    expect((await toastOf(refused))?.description).toBe(PROMO_TEXT.turnedOff)
    const setUp = await callRoute(createPayment, '/api/create-event-payment', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: ad.cookie },
      body: JSON.stringify({ businessID: ad.owner.businessID, eventID: ad.event.eventID, totalAmount: 23.2 }),
    })
    expect(setUp.status).toBe(409)
    expect(((await setUp.json()) as { message: string }).message).toBe(PROMO_TEXT.turnedOff)
    expect(await paidPaymentsOf(ad.event.eventID)).toEqual([])
    expect((await paymentsOf(ad.event.eventID)).every((p) => p.amount_paid_cents === 0)).toBe(true)
    expect((await eventRow(ad.event.eventID)).paymentStatus).toBe('pending')

    const page = await checkoutPage(ad)
    expect(page.summary).toMatchObject({ total: '29.00', promo: null })
    expect(page.promoNotice).toBe(PROMO_TEXT.droppedNotice(PROMO_TEXT.turnedOff))
    expect(await redemptionsOf(code.id)).toEqual([])
  })

  test('tampered amounts are refused and nothing is charged: a lower card total, a $0 confirmation of a paying ad', async () => {
    const code = await createCode({ code: newCodeName() })
    const ad = await advertiser()
    await applyCode(ad, code.code)
    const lower = await pay(ad, '1.00')
    expect((await toastOf(lower))?.description).toBe(`${TOTAL_MISMATCH_MESSAGE} The total is now $23.20.`)
    const free = await confirmFree(ad)
    expect(free.headers.get('Location')).toBe('/checkout')
    expect((await toastOf(free))?.description).toBe(`${TOTAL_MISMATCH_MESSAGE} The total is now $23.20.`)
    const notANumber = await confirmFree(ad, '-1')
    expect(notANumber.status).toBe(400)
    expect(await paidPaymentsOf(ad.event.eventID)).toEqual([])
    expect(
      (await paymentsOf(ad.event.eventID)).filter((p) => p.payment_intent_id?.startsWith('free_')),
    ).toEqual([])
    expect((await eventRow(ad.event.eventID)).paymentStatus).toBe('pending')
  })

  test('a price changed during checkout: the payment at the total shown is refused with the new total, never charged a third amount', async () => {
    const code = await createCode({ code: newCodeName(), kind: 'fixed', value: '5' })
    const ad = await advertiser()
    await applyCode(ad, code.code)
    expect((await checkoutPage(ad)).summary.total).toBe('24.00')
    const [current] = await db.select().from(priceLists).orderBy(desc(priceLists.id)).limit(1)
    await db.insert(priceLists).values({
      tiers: [
        { upToDays: 7, cents: 3500 },
        { upToDays: 21, cents: 6900 },
      ],
      note: 'Raised during a checkout',
    })
    try {
      const refused = await pay(ad, '24.00')
      expect((await toastOf(refused))?.description).toBe(`${TOTAL_MISMATCH_MESSAGE} The total is now $30.00.`)
      expect(await paidPaymentsOf(ad.event.eventID)).toEqual([])
      expect((await checkoutPage(ad)).summary.total).toBe('30.00')
      expect((await pay(ad, '30.00')).headers.get('Location')).toBe('/')
      expect((await paidPaymentsOf(ad.event.eventID)).map((p) => p.amount_paid_cents)).toEqual([3000])
    } finally {
      await db.insert(priceLists).values({ tiers: current!.tiers, note: 'Back' })
    }
  })
})

describe('a code that brings the total to $0', () => {
  test('Confirm completes checkout without a card or the provider: a $0 payment, the ad paid and waiting for review, a $0 receipt', async () => {
    const code = await createCode({ code: newCodeName('FREE'), value: '100' })
    const ad = await advertiser()
    await applyCode(ad, code.code)
    const page = await checkoutPage(ad)
    expect(page).toMatchObject({ free: true, setupError: null, summary: { total: '0.00' } })
    // No intent is set up for a total of $0.
    expect(await paymentsOf(ad.event.eventID)).toEqual([])

    const res = await confirmFree(ad)
    expect(res.headers.get('Location')).toBe('/')
    expect(await eventRow(ad.event.eventID)).toMatchObject({
      paymentStatus: 'paid',
      eventStatus: 'pending',
      totalCost: 0,
    })
    const [payment] = await paidPaymentsOf(ad.event.eventID)
    expect(payment).toMatchObject({ amount_due_cents: 0, amount_paid_cents: 0, card_last4: null })
    expect(payment!.payment_intent_id).toMatch(/^free_/)
    expect(await redemptionsOf(code.id)).toMatchObject([{ status: 'redeemed', discountCents: 2900 }])

    const receipt = await callRoute(receiptLoader, `/dashboard/receipts/${payment!.paymentID}`, {
      headers: { Cookie: ad.cookie },
      params: { id: String(payment!.paymentID) },
    })
    expect(await receipt.json()).toMatchObject({
      amount: '$0.00',
      card: 'None (nothing to charge)',
      providerReference: null,
      promo: { code: code.code, listPrice: '$29.00', discount: '$29.00' },
    })
    // A second Confirm (another tab) is told the ad is paid.
    const again = await confirmFree(ad)
    expect(again.headers.get('Location')).toBe('/dashboard')
    expect(await paidPaymentsOf(ad.event.eventID)).toHaveLength(1)
  })

  test('a card payment of a $0 ad is refused: nothing to charge', async () => {
    const code = await createCode({ code: newCodeName('FREE'), kind: 'fixed', value: '50' })
    const ad = await advertiser()
    await applyCode(ad, code.code)
    const setUp = await callRoute(createPayment, '/api/create-event-payment', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: ad.cookie },
      body: JSON.stringify({ businessID: ad.owner.businessID, eventID: ad.event.eventID, totalAmount: 0 }),
    })
    expect(setUp.status).toBe(409)
    expect(await paymentsOf(ad.event.eventID)).toEqual([])
  })
})

describe('refunds of a discounted ad', () => {
  test('refund what was paid: the discounted amount, and $0 for a free ad', async () => {
    const code = await createCode({ code: newCodeName(), value: '50' })
    const ad = await payWithCode(code.code, '14.50')
    const refund = await refundEventPayment(ad.event.eventID, 'Rejected in review')
    expect(refund).toMatchObject({ refunded: true, changed: true, amountRefundedCents: 1450 })
    const [payment] = await paymentsOf(ad.event.eventID)
    expect(payment).toMatchObject({
      payment_status: 'refunded',
      amount_paid_cents: 1450,
      amount_refunded_cents: 1450,
    })

    const free = await createCode({ code: newCodeName('FREE'), value: '100' })
    const freeAd = await advertiser()
    await applyCode(freeAd, free.code)
    expect((await confirmFree(freeAd)).headers.get('Location')).toBe('/')
    const freeRefund = await refundEventPayment(freeAd.event.eventID, 'Rejected in review')
    expect(freeRefund).toMatchObject({ refunded: true, amountRefundedCents: 0 })
    expect((await eventRow(freeAd.event.eventID)).paymentStatus).toBe('refunded')
  })
})

describe('a use held only while its payment is under way', () => {
  test('opening checkout with the code and not paying takes no use: another business still gets the last one', async () => {
    const code = await createCode({ code: newCodeName('LAST'), maxUses: '1' })
    const looker = await advertiser()
    expect((await applyCode(looker, code.code)).status).toBe(302)
    expect((await checkoutPage(looker)).summary.total).toBe('23.20')
    expect((await checkoutPage(looker)).setupError).toBeNull()
    expect(await redemptionsOf(code.id)).toEqual([])

    const buyer = await payWithCode(code.code, '23.20')
    expect(await redemptionsOf(code.id)).toMatchObject([{ eventID: buyer.event.eventID, status: 'redeemed' }])
    // The one who only looked is told at payment that the last use went; nothing is charged.
    const late = await pay(looker, '23.20')
    expect(late.headers.get('Location')).toBe('/checkout')
    expect((await toastOf(late))?.description).toBe(PROMO_TEXT.usedUp)
    expect(await paidPaymentsOf(looker.event.eventID)).toEqual([])
  })

  test('a payment under way holds the use for its minutes, renewed while it is still paying; the host sees it; once they pass the use is free again', async () => {
    const code = await createCode({ code: newCodeName('HOLD'), maxUses: '1' })
    const holder = await advertiser()
    await applyCode(holder, code.code)
    expect((await startPayment(holder, 23.2)).status).toBe(200)
    const [held] = await redemptionsOf(code.id)
    expect(held).toMatchObject({ eventID: holder.event.eventID, status: 'reserved' })
    expect(held!.reservedUntil!.getTime() - held!.createdAt.getTime()).toBe(PROMO_HOLD_MINUTES * 60_000)
    expect(await promoCodesText()).toContain(
      `${code.code} 20% off 0 of 1 used · 1 held by a payment under way — No Used up`,
    )
    const other = await advertiser()
    const refused = await applyCode(other, code.code)
    expect(refused.status).toBe(409)

    // Its minutes passed, then the same checkout pays again: held again, as nobody took it meanwhile.
    await lapseHold(holder.event.eventID)
    expect(await promoCodesText()).toContain(`${code.code} 20% off 0 of 1 used — No Active`)
    expect((await startPayment(holder, 23.2)).status).toBe(200)
    const [renewed] = await redemptionsOf(code.id)
    expect(renewed!.reservedUntil!.getTime()).toBeGreaterThan(held!.reservedUntil!.getTime())
    expect((await applyCode(other, code.code)).status).toBe(409)

    // Left for its minutes again: another business takes the use, and the holder's payment is refused.
    await lapseHold(holder.event.eventID)
    expect((await applyCode(other, code.code)).status).toBe(302)
    expect((await pay(other, '23.20')).headers.get('Location')).toBe('/')
    const late = await pay(holder, '23.20')
    expect((await toastOf(late))?.description).toBe(PROMO_TEXT.usedUp)
    expect(await paidPaymentsOf(holder.event.eventID)).toEqual([])
    expect(await redemptionsOf(code.id)).toMatchObject([{ eventID: other.event.eventID, status: 'redeemed' }])
    expect(await promoCodesText()).toContain(`${code.code} 20% off 1 of 1 used — No Used up`)
  })

  test('a declined card releases the use at once; a code without a limit shows its uses and holds too', async () => {
    const code = await createCode({ code: newCodeName('ONCE'), maxUses: '1' })
    const declined = await advertiser()
    await applyCode(declined, code.code)
    const refused = await pay(declined, '23.20', '4000 0000 0000 0002')
    expect((await toastOf(refused))?.description).toBe('Your card was declined.')
    expect(await redemptionsOf(code.id)).toEqual([])
    const buyer = await payWithCode(code.code, '23.20')
    expect(await redemptionsOf(code.id)).toMatchObject([{ eventID: buyer.event.eventID, status: 'redeemed' }])

    const open = await createCode({ code: newCodeName('OPEN') })
    await payWithCode(open.code, '23.20')
    const paying = [await advertiser(), await advertiser()]
    for (const ad of paying) {
      await applyCode(ad, open.code)
      expect((await startPayment(ad, 23.2)).status).toBe(200)
    }
    expect(await promoCodesText()).toContain(`${open.code} 20% off 1 used · 2 held by payments under way`)
  })
})

describe('money under races', () => {
  test('30 checkouts at once for the last use, after one that only looked and one whose hold lapsed: exactly one discounted payment', async () => {
    const code = await createCode({ code: newCodeName('LAST'), value: '50', maxUses: '2' })
    await payWithCode(code.code, '14.50')
    const looker = await advertiser()
    expect((await applyCode(looker, code.code)).status).toBe(302)
    expect((await checkoutPage(looker)).summary.total).toBe('14.50')
    const stale = await advertiser()
    await applyCode(stale, code.code)
    expect((await startPayment(stale, 14.5)).status).toBe(200)
    await lapseHold(stale.event.eventID)
    const ads: Advertiser[] = []
    for (let i = 0; i < 30; i++) {
      const ad = await advertiser()
      expect((await applyCode(ad, code.code)).status).toBe(302)
      ads.push(ad)
    }
    const answers = await Promise.all(ads.map((ad) => pay(ad, '14.50')))
    const winners = answers.filter((res) => res.headers.get('Location') === '/')
    expect(winners).toHaveLength(1)
    for (const res of answers.filter((r) => r.headers.get('Location') !== '/')) {
      expect(res.headers.get('Location')).toBe('/checkout')
      expect((await toastOf(res))?.description).toBe(PROMO_TEXT.usedUp)
    }
    const discounted = await db
      .select()
      .from(payments)
      .where(and(eq(payments.payment_status, 'paid'), sql`${payments.metadata}->>'promoCode' = ${code.code}`))
    expect(discounted.map((p) => p.amount_paid_cents)).toEqual([1450, 1450])
    const uses = await redemptionsOf(code.id)
    expect(uses.filter((u) => u.status === 'redeemed')).toHaveLength(2)
    // The lapsed hold went with the winner's; the refused ones held nothing.
    expect(uses).toHaveLength(2)
    // 33 ads set up and 31 payments: minutes on a busy machine, not a budget.
  }, 240_000)
})
