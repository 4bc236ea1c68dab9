import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { db } from '#db/client.server.ts'
import { payments } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { BUILD_TIMEOUT_MS, builtRequestHandler } from '#tests/support/built-app.ts'
import { insertBusiness, insertPaidPayment, insertTestEvent } from '#tests/support/events.ts'

let request: Awaited<ReturnType<typeof builtRequestHandler>>

beforeAll(async () => {
  request = await builtRequestHandler()
}, BUILD_TIMEOUT_MS)

/** The receipt's rows as label → value, from the rendered page. */
function receiptRows(html: string) {
  const list = /<dl[^>]*data-testid="receipt"[^>]*>([\s\S]*?)<\/dl>/.exec(html)?.[1] ?? ''
  const text = (s: string) => s.replace(/<!--.*?-->/g, '').replace(/<[^>]+>/g, '').replace(/&amp;/g, '&').trim()
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
      ? { card_brand: 'visa', card_last4: '4242', receipt_url: 'https://pay.stripe.com/receipts/acct_1/rcpt_1' }
      : {}
  await db
    .update(payments)
    .set({ ...card, metadata: { provider } })
    .where(eq(payments.paymentID, payment.paymentID))
  return { owner, event, payment, cookie: await sessionCookieFor({ business: owner }) }
}

describe('/dashboard/receipts/{paymentID}', () => {
  test('the test provider: the business, the ad, its dates, the amount and "test mode"', async () => {
    const { payment, cookie } = await paidAd('Receipt Cafe', 'test')
    const response = await request(`/dashboard/receipts/${payment.paymentID}`, { headers: { Cookie: cookie } })
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
    const response = await request(`/dashboard/receipts/${payment.paymentID}`, { headers: { Cookie: cookie } })
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
    const forbidden = await request(`/dashboard/receipts/${payment.paymentID}`, { headers: { Cookie: other } })
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
    const response = await request(`/dashboard/receipts/${payment.paymentID}`, { headers: { Cookie: cookie } })
    expect(response.status).toBe(404)
  })
})
