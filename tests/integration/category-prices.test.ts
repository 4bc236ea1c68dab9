/**
 * Prices by category: on /admin/pricing a category may have tiers of its own (audited with the prices); an ad in
 * several categories pays the highest of their prices, the same amount on the form, the preview, checkout, the
 * payment and the receipt; GET /api/charges/{n} takes an optional category.
 */
import { desc, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  DAYS_NOT_INCREASING,
  DOLLARS_MESSAGE,
  HIGHEST_PRICE_NOTE,
  OWN_PRICES_TICK_MESSAGE,
  PRICED_CATEGORY_MESSAGE,
  tierPriceTooHigh,
} from '#app/models/payments/price-list.ts'
import * as pricingRoute from '#app/routes/admin_.pricing.tsx'
import { action as approveEvent } from '#app/routes/api.approve-event.ts'
import { loader as chargesLoader } from '#app/routes/api.charges.$days.ts'
import { action as checkoutAction, loader as checkoutLoader } from '#app/routes/checkout.tsx'
import { loader as receiptLoader } from '#app/routes/dashboard_.receipts.$id.tsx'
import { action as newEventAction, loader as newEventLoader } from '#app/routes/dashboard.events.new.tsx'
import { loader as previewLoader } from '#app/routes/dashboard.events.preview.tsx'
import { categoryNotOfferedMessage, ONE_CATEGORY_MESSAGE } from '#app/services/payments/pricing.server.ts'
import { TOTAL_MISMATCH_MESSAGE } from '#app/utils/pricing.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { categoryList, events, payments, priceLists, type User } from '#db/schema.ts'
import { approveBody, days, plainEventForm, useUploadFolder } from '#tests/support/ad-submission.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { CookieJar, toastOf } from '#tests/support/cookie-jar.ts'
import { browse, textOf } from '#tests/support/document-request.ts'
import { insertBusiness } from '#tests/support/events.ts'
import { postForm } from '#tests/support/moderation.ts'
import { callRoute } from '#tests/support/routes.ts'
import { useTestPaymentProvider } from '#tests/support/stripe-checkout.ts'

useUploadFolder('category-prices')
useTestPaymentProvider()

let admin: User
let adminCookie: string
let special: number
let fundraiser: number
let retired: number

const PRICING_PAGE = [{ path: '/admin/pricing', ...pricingRoute }]

/** A full price list form at the first prices (29 / 49 / 69), with `fields`. */
const pricesForm = (fields: Record<string, string> = {}) => ({
  upToDays1: '7',
  price1: '29',
  upToDays2: '14',
  price2: '49',
  upToDays3: '21',
  price3: '69',
  sponsoredPerDay: '5',
  sponsoredSlots: '2',
  ...fields,
})

/** Specials: $15 up to a week, $99 beyond. */
const specialPrices = () => ({
  [`ownPrices${special}`]: 'on',
  [`cat${special}UpToDays1`]: '7',
  [`cat${special}Price1`]: '15',
  [`cat${special}UpToDays2`]: '21',
  [`cat${special}Price2`]: '99',
})

const postPrices = (fields: Record<string, string>) =>
  postForm(pricingRoute.action, '/admin/pricing', fields, { cookie: adminCookie })

async function versionCount() {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(priceLists)
  return row!.n
}

function charges(days: number, query = '') {
  return callRoute(chargesLoader, `/api/charges/${days}${query}`, { params: { days: String(days) } })
}

async function chargeFor(days: number, query = '') {
  const res = await charges(days, query)
  expect(res.status).toBe(200)
  return ((await res.json()) as { chargeAmount: number }).chargeAmount
}

beforeAll(async () => {
  admin = await insertUser(db, { roles: ['admin'] })
  adminCookie = await sessionCookieFor({ user: admin })
  const rows = await db.select().from(categoryList)
  special = rows.find((c) => c.categoryName === 'Special')!.categoryID
  fundraiser = rows.find((c) => c.categoryName === 'Fundraiser')!.categoryID
  const [hidden] = await db
    .insert(categoryList)
    .values({ categoryName: 'Retired Category', hidden: true })
    .returning()
  retired = hidden!.categoryID
})

describe('/admin/pricing: a category’s own prices', () => {
  test('saved without JavaScript: the page lists them, the history says who and old → new, the form starts from them', async () => {
    const before = await versionCount()
    const pages = await browse(PRICING_PAGE, '/admin/pricing', {
      method: 'POST',
      headers: { Cookie: adminCookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(pricesForm({ ...specialPrices(), note: 'Specials apart' })),
    })
    expect(pages[0]).toMatchObject({ status: 302, location: '/admin/pricing' })
    expect(await toastOf(pages[0]!.response!)).toMatchObject({ title: 'Prices saved' })
    expect(await versionCount()).toBe(before + 1)
    const [newest] = await db.select().from(priceLists).orderBy(desc(priceLists.id)).limit(1)
    expect(newest).toMatchObject({
      changedByUserId: admin.id,
      tiers: [
        { upToDays: 7, cents: 2900 },
        { upToDays: 14, cents: 4900 },
        { upToDays: 21, cents: 6900 },
      ],
      categoryTiers: {
        [String(special)]: [
          { upToDays: 7, cents: 1500 },
          { upToDays: 21, cents: 9900 },
        ],
      },
    })

    const shown = pages.at(-1)!
    expect(shown.status).toBe(200)
    const text = textOf(shown.html)
    expect(text).toContain('Special: 1–7 days: $15.00, 8–21 days: $99.00')
    expect(text).toContain('Prices in Special: the default prices → 1–7 days: $15.00, 8–21 days: $99.00')
    expect(text).toContain(admin.email)
    expect(text).toContain('Note: Specials apart')
    expect(shown.html).toMatch(new RegExp(`name="ownPrices${special}"[^>]*checked`))
    expect(shown.html).not.toMatch(new RegExp(`name="ownPrices${fundraiser}"[^>]*checked`))
    expect(shown.html).toMatch(new RegExp(`name="cat${special}Price2"[^>]*value="99.00"`))
    // A hidden category not priced apart is not offered.
    expect(shown.html).not.toContain(`ownPrices${retired}`)
  })

  test.each([
    [
      'a category that does not exist',
      { ownPrices999999: 'on', cat999999UpToDays1: '21', cat999999Price1: '5' },
      'ownPrices999999',
      PRICED_CATEGORY_MESSAGE,
    ],
    [
      'a hidden category',
      () => ({
        [`ownPrices${retired}`]: 'on',
        [`cat${retired}UpToDays1`]: '21',
        [`cat${retired}Price1`]: '5',
      }),
      () => `ownPrices${retired}`,
      PRICED_CATEGORY_MESSAGE,
    ],
    [
      'a negative price',
      () => ({ ...specialPrices(), [`cat${special}Price1`]: '-1' }),
      () => `cat${special}Price1`,
      DOLLARS_MESSAGE,
    ],
    [
      'a huge price',
      () => ({ ...specialPrices(), [`cat${special}Price2`]: '99999999' }),
      () => `cat${special}Price2`,
      tierPriceTooHigh,
    ],
    [
      'tiers not increasing',
      () => ({ ...specialPrices(), [`cat${special}UpToDays2`]: '7' }),
      () => `cat${special}UpToDays2`,
      DAYS_NOT_INCREASING,
    ],
    [
      'a tampered box',
      () => ({ ...specialPrices(), [`ownPrices${special}`]: 'yes' }),
      () => `ownPrices${special}`,
      OWN_PRICES_TICK_MESSAGE,
    ],
  ] as const)(
    '%s is refused with 400 and the message at its field; nothing saved',
    async (_, change, field, message) => {
      const before = await versionCount()
      const fields = typeof change === 'function' ? change() : change
      const res = await postPrices(pricesForm(fields))
      expect(res.status).toBe(400)
      const { result } = (await res.json()) as { result: { error: Record<string, string[]> } }
      expect(result.error[typeof field === 'function' ? field() : field]).toEqual([message])
      expect(await versionCount()).toBe(before)
      expect(await chargeFor(3, '?category=Special')).toBe(15)
    },
  )
})

describe('GET /api/charges/{n}?category=', () => {
  test('the default prices without a category; a category’s own, or the default ones, by its name (any case) or id', async () => {
    expect(await chargeFor(3)).toBe(29)
    expect(await chargeFor(10)).toBe(49)
    expect(await chargeFor(3, '?category=Special')).toBe(15)
    expect(await chargeFor(10, '?category=special')).toBe(99)
    expect(await chargeFor(10, `?category=${special}`)).toBe(99)
    expect(await chargeFor(10, '?category=Fundraiser')).toBe(49)
    expect(await chargeFor(0, '?category=Special')).toBe(0)
  })

  test.each([
    ['?category=Nope', 404, categoryNotOfferedMessage('Nope')],
    ['?category=999999', 404, categoryNotOfferedMessage('999999')],
    ['?category=Retired%20Category', 404, categoryNotOfferedMessage('Retired Category')],
    ['?category=', 400, ONE_CATEGORY_MESSAGE],
    ['?category=Special&category=Fundraiser', 400, ONE_CATEGORY_MESSAGE],
    [`?category=${'x'.repeat(5000)}`, 400, ONE_CATEGORY_MESSAGE],
  ])('%s is %i with a message', async (query, status, message) => {
    const res = await charges(3, query)
    expect(res.status).toBe(status)
    expect(((await res.json()) as { message: string }).message).toBe(message)
  })

  test('a hidden category by its id is not found either', async () => {
    const res = await charges(3, `?category=${retired}`)
    expect(res.status).toBe(404)
  })
})

/** The business's session, kept across calls as a browser keeps it. */
async function advertiser() {
  const owner = await insertBusiness(db)
  return { owner, jar: new CookieJar(await sessionCookieFor({ business: owner })) }
}

const nextYear = String((new Date().getFullYear() + 1) % 100).padStart(2, '0')

describe('an ad in several categories pays the highest of their prices', () => {
  test('the form’s prices, then save → checkout → payment → receipt: shown = charged = receipted', async () => {
    const { jar } = await advertiser()
    const form = await callRoute(newEventLoader, '/dashboard/events/new', { headers: jar.headers() })
    expect(((await form.json()) as { prices: unknown }).prices).toEqual({
      tiers: [
        { upToDays: 7, cents: 2900 },
        { upToDays: 14, cents: 4900 },
        { upToDays: 21, cents: 6900 },
      ],
      byCategory: {
        Special: [
          { upToDays: 7, cents: 1500 },
          { upToDays: 21, cents: 9900 },
        ],
      },
    })

    // Ten days: Fundraiser's $49.00, Special's $99.00: the ad pays $99.00.
    const ad = {
      eventData: { eventTitle: 'Spring Sale', eventCategory: ['Fundraiser', 'Special'] },
      selectedDates: days(10),
    }
    const lower = await callRoute(approveEvent, '/api/approve-event', {
      method: 'POST',
      headers: jar.headers(),
      body: approveBody({ ...ad, totalAmount: '49.00' }),
    })
    expect(lower.status).toBe(400)
    expect(((await lower.json()) as { message: string }).message).toBe(TOTAL_MISMATCH_MESSAGE)
    const saved = jar.store(
      await callRoute(approveEvent, '/api/approve-event', {
        method: 'POST',
        headers: jar.headers(),
        body: approveBody({ ...ad, totalAmount: '99.00' }),
      }),
    )
    expect(saved.status).toBe(200)
    const { eventID } = (await saved.json()) as { eventID: number }
    const [row] = await db.select().from(events).where(eq(events.eventID, eventID))
    expect(row).toMatchObject({ totalCost: 99, category: ['Fundraiser', 'Special'] })

    const checkout = await callRoute(checkoutLoader, '/checkout', { headers: jar.headers() })
    expect(checkout.status).toBe(200)
    expect(((await checkout.json()) as { summary: { total: string } }).summary.total).toBe('99.00')

    const card = {
      intent: 'pay',
      eventID: String(eventID),
      cardNumber: '4242 4242 4242 4242',
      expiry: `12/${nextYear}`,
      cvc: '123',
    }
    const underpaid = await postForm(
      checkoutAction,
      '/checkout',
      { ...card, totalAmount: '49.00' },
      { cookie: jar.header() },
    )
    expect(underpaid.headers.get('Location')).toBe('/checkout')
    expect(await db.select().from(payments).where(eq(payments.eventID, eventID))).toSatisfy(
      (rows: Array<{ payment_status: string }>) => rows.every((p) => p.payment_status !== 'paid'),
    )
    const paid = await postForm(
      checkoutAction,
      '/checkout',
      { ...card, totalAmount: '99.00' },
      { cookie: jar.header() },
    )
    expect(paid.headers.get('Location')).toBe('/')
    const charged = (await db.select().from(payments).where(eq(payments.eventID, eventID))).filter(
      (p) => p.payment_status === 'paid',
    )
    expect(charged.map((p) => [p.amount_due_cents, p.amount_paid_cents])).toEqual([[9900, 9900]])
    const receipt = await callRoute(receiptLoader, `/dashboard/receipts/${charged[0]!.paymentID}`, {
      headers: jar.headers(),
      params: { id: String(charged[0]!.paymentID) },
    })
    expect(receipt.status).toBe(200)
    expect(await receipt.json()).toMatchObject({ amount: '$99.00' })
  })

  test('without JavaScript the preview prices the chosen categories and says the highest applies', async () => {
    const { jar } = await advertiser()
    const fields = {
      eventTitle: 'Happy Hour',
      eventDescription: 'Half-price drinks from five to seven.',
      eventDate: '',
    }
    async function preview(eventCategory: string[], count: number) {
      const staged = jar.store(
        await callRoute(newEventAction, '/dashboard/events/new', {
          method: 'POST',
          headers: jar.headers(),
          body: plainEventForm({ ...fields, eventCategory, showAdDates: days(count) }),
        }),
      )
      expect(staged.headers.get('Location')).toBe('/dashboard/events/preview')
      const shown = await callRoute(previewLoader, '/dashboard/events/preview', { headers: jar.headers() })
      return (await shown.json()) as { cost: string; priceNote: string | null }
    }
    // Three days: Special's $15.00 is the lower, Fundraiser's $29.00 applies.
    expect(await preview(['Special', 'Fundraiser'], 3)).toMatchObject({
      cost: '29.00',
      priceNote: HIGHEST_PRICE_NOTE,
    })
    expect(await preview(['Special'], 3)).toMatchObject({ cost: '15.00', priceNote: null })
    expect(await preview(['Fundraiser', 'Family'], 3)).toMatchObject({ cost: '29.00', priceNote: null })
    expect(await preview(['Special', 'Family'], 15)).toMatchObject({
      cost: '99.00',
      priceNote: HIGHEST_PRICE_NOTE,
    })
  })

  test('the default prices change, a category priced apart keeps its own; back on the default it follows them', async () => {
    const res = await postPrices(pricesForm({ ...specialPrices(), price1: '35' }))
    expect(res.status).toBe(302)
    expect(await chargeFor(3)).toBe(35)
    expect(await chargeFor(3, '?category=Special')).toBe(15)
    const back = await postPrices(pricesForm({ price1: '35' }))
    expect(back.status).toBe(302)
    expect(await chargeFor(3, '?category=Special')).toBe(35)
    const [page] = await browse(PRICING_PAGE, '/admin/pricing', { headers: { Cookie: adminCookie } })
    expect(textOf(page!.html)).toContain(
      'Prices in Special: 1–7 days: $15.00, 8–21 days: $99.00 → the default prices',
    )
    expect(textOf(page!.html)).toContain('Every category has the prices above.')
  })
})
