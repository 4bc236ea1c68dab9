/**
 * Each step of an advertiser's way sends its email: the change is made through the app's own routes, the outbox is
 * delivered to a real SMTP server on loopback, and what arrives is read.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { enqueueChangesRequestedEmail } from '#app/models/mail/notifications.server.ts'
import { action as registerApi } from '#app/routes/api.business.ts'
import { action as reviewApi } from '#app/routes/api.admin.review-event.ts'
import { action as checkoutAction } from '#app/routes/checkout.tsx'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { sessionStorage } from '#app/services/http/session.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { events, outbox, payments, type Business, type User } from '#db/schema.ts'
import { businessSessionCopy, sessionCookieFor } from '#tests/support/auth.ts'
import { insertBusiness, insertPaidPayment, insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'
import { TestSmtpServer } from '#tests/support/smtp-server.ts'

const smtp = new TestSmtpServer()
const today = platformToday()
const nextYear = String((new Date().getFullYear() + 1) % 100).padStart(2, '0')
let owner: Business
let admin: User
let otherAdmin: User
let clinician: User
let adminCookie: string

beforeAll(async () => {
  await smtp.start()
  owner = await insertBusiness(db, { businessName: 'Mail Me Cafe', businessEmail: 'owner@mailme.example' })
  admin = await insertUser(db, { roles: ['admin'] })
  otherAdmin = await insertUser(db, { roles: ['admin', 'clinician'] })
  clinician = await insertUser(db, { roles: ['clinician'] })
  adminCookie = await sessionCookieFor({ user: admin })
})

afterAll(async () => {
  await smtp.stop()
})

beforeEach(async () => {
  await db.delete(outbox)
  smtp.received.length = 0
})

async function paidAwaitingReview(title = 'Jazz Brunch') {
  const event = await insertTestEvent(owner, {
    eventTitle: title,
    eventStatus: 'pending',
    paymentStatus: 'paid',
    showAdOnDates: [addDaysIso(today, 2), addDaysIso(today, 3)],
  })
  const payment = await insertPaidPayment(event.eventID)
  await db
    .update(events)
    .set({ payment_intent_id: payment.payment_intent_id })
    .where(eq(events.eventID, event.eventID))
  return event
}

function review(body: unknown) {
  return callRoute(reviewApi, '/api/admin/review-event', {
    method: 'POST',
    headers: { Cookie: adminCookie, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
}

describe('the advertiser’s emails', () => {
  test('a new business account gets a welcome with the sign-in link', async () => {
    const res = await callRoute(registerApi, '/api/business', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        businessName: 'Brand New Bakery',
        businessAddress: '1 Oven Lane',
        businessCity: 'Springfield',
        businessState: 'IL',
        businessZip: '62701',
        businessPhone: '2175550100',
        businessEmail: 'Hello@NewBakery.example',
        businessPassword: 'secret123',
        verifyPassword: 'secret123',
        businessContact: 'Bea Baker',
      }),
    })
    expect(res.status).toBe(201)
    await smtp.deliverOutbox()
    const [mail, ...more] = smtp.to('hello@newbakery.example')
    expect(more).toEqual([])
    expect(mail!.subject).toBe('Welcome to EventShout, Brand New Bakery')
    expect(mail!.text).toContain('http://localhost/login')
  })

  test('a refused registration sends nothing', async () => {
    const res = await callRoute(registerApi, '/api/business', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ businessName: 'Half', businessEmail: 'half@example.com' }),
    })
    expect(res.status).toBe(400)
    expect(await db.select().from(outbox)).toEqual([])
  })

  test('paying with the test card: a receipt to the advertiser and a review notice to each administrator', async () => {
    const event = await insertTestEvent(owner, {
      eventTitle: 'Pancake <Breakfast> & Friends',
      showAdOnDates: [addDaysIso(today, 1), addDaysIso(today, 2), addDaysIso(today, 3)],
      paymentStatus: 'pending',
      eventStatus: 'pending',
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
        eventDate: '1989-01-01',
        contactPerson: '',
        contactPhone: '',
        contactEmail: '',
      },
      totalAmount: 29,
      eventID: event.eventID,
    })
    const cookie = (await sessionStorage.commitSession(session)).split(';')[0]!
    const res = await callRoute(checkoutAction, '/checkout', {
      method: 'POST',
      headers: { Cookie: cookie },
      body: new URLSearchParams({
        intent: 'pay',
        // What checkout shows for its three days.
        totalAmount: '29.00',
        cardNumber: '4242424242424242',
        expiry: `12/${nextYear}`,
        cvc: '123',
      }),
    })
    expect(res.status).toBe(302)
    const [payment] = await db.select().from(payments).where(eq(payments.eventID, event.eventID))
    expect(payment!.payment_status).toBe('paid')

    await smtp.deliverOutbox()
    const [receipt, ...more] = smtp.to('owner@mailme.example')
    expect(more).toEqual([])
    expect(receipt!.subject).toBe('Payment received: Pancake <Breakfast> & Friends')
    for (const line of [
      'Ad: Pancake <Breakfast> & Friends',
      'Amount: $29.00',
      'Card: Test mode — no real charge',
      `Payment ID: ${payment!.paymentID}`,
      `Reference: ${payment!.payment_intent_id}`,
      `http://localhost/dashboard/receipts/${payment!.paymentID}`,
    ])
      expect(receipt!.text).toContain(line)
    expect(receipt!.text).toMatch(/Display dates: \w{3} \d+, \w{3} \d+, \w{3} \d+/)
    // User text is escaped in the HTML.
    expect(receipt!.html).toContain('Pancake &lt;Breakfast&gt; &amp; Friends')
    expect(receipt!.html).not.toContain('<Breakfast>')

    for (const staff of [admin, otherAdmin]) {
      const [notice, ...again] = smtp.to(staff.email)
      expect(again).toEqual([])
      expect(notice!.subject).toBe('Ad waiting for review: Pancake <Breakfast> & Friends')
      expect(notice!.text).toContain('Mail Me Cafe paid for the ad')
      expect(notice!.text).toMatch(/http:\/\/localhost\/admin\?date=\d{4}-\d{2}-\d{2}/)
    }
    expect(smtp.to(clinician.email)).toEqual([])
    expect(smtp.received).toHaveLength(3)
  })

  test('approval: the link to the ad’s public page', async () => {
    const event = await paidAwaitingReview('Jazz Brunch')
    expect((await review({ eventID: event.eventID, action: 'approve' })).status).toBe(200)
    await smtp.deliverOutbox()
    const [mail, ...more] = smtp.to('owner@mailme.example')
    expect(more).toEqual([])
    expect(mail!.subject).toBe('Your ad is live: Jazz Brunch')
    expect(mail!.text).toContain(`http://localhost/event/${event.eventID}-jazz-brunch`)
    expect(mail!.html).toContain(`href="http://localhost/event/${event.eventID}-jazz-brunch"`)
  })

  test('rejection: the administrator’s reason (escaped in HTML), the refund and the link to edit', async () => {
    const event = await paidAwaitingReview('Mystery Night')
    const reason = 'Not an <em>event</em> & "spammy"'
    const res = await review({ eventID: event.eventID, action: 'reject', reason })
    expect(await res.json()).toMatchObject({ eventStatus: 'rejected', refund: { refunded: true } })
    await smtp.deliverOutbox()
    const [mail, ...more] = smtp.to('owner@mailme.example')
    expect(more).toEqual([])
    expect(mail!.subject).toBe('Your ad was not approved: Mystery Night')
    expect(mail!.text).toContain(reason)
    expect(mail!.text).toContain('Your payment of $29.00 has been refunded')
    expect(mail!.text).toContain(`http://localhost/dashboard/events/${event.eventID}/edit`)
    expect(mail!.html).toContain('Not an &lt;em&gt;event&lt;/em&gt; &amp; &quot;spammy&quot;')
    expect(mail!.html).not.toContain('<em>')
  })

  test('changes requested: the reason and the link to edit', async () => {
    const event = await paidAwaitingReview('Blurry Photo Fair')
    const res = await review({
      eventID: event.eventID,
      action: 'request_changes',
      reason: 'Please use a sharper photo',
    })
    expect(res.status).toBe(200)
    await smtp.deliverOutbox()
    const [mail, ...more] = smtp.to('owner@mailme.example')
    expect(more).toEqual([])
    expect(mail!.subject).toBe('Changes requested for your ad: Blurry Photo Fair')
    expect(mail!.text).toContain('Please use a sharper photo')
    expect(mail!.text).toContain(`http://localhost/dashboard/events/${event.eventID}/edit`)
  })

  test('enqueueChangesRequestedEmail in a transaction that rolls back queues nothing', async () => {
    const event = await paidAwaitingReview('Rolled Back')
    await expect(
      db.transaction(async (tx) => {
        await enqueueChangesRequestedEmail(tx, {
          eventID: event.eventID,
          reason: 'x',
          origin: 'http://localhost',
        })
        throw new Error('the review failed')
      }),
    ).rejects.toThrow('the review failed')
    expect(await db.select().from(outbox)).toEqual([])
  })

  test('a review that does not apply (409) queues nothing', async () => {
    const event = await paidAwaitingReview('Reviewed Twice')
    expect((await review({ eventID: event.eventID, action: 'approve' })).status).toBe(200)
    expect((await review({ eventID: event.eventID, action: 'reject', reason: 'late' })).status).toBe(409)
    expect((await review({ eventID: 2_000_000_000, action: 'approve' })).status).toBe(404)
    expect((await db.select().from(outbox)).map((m) => m.kind)).toEqual(['ad-approved'])
  })
})
