/**
 * The moderation loop with reasons: an administrator approves, rejects (refunded) or requests changes with a reason;
 * the advertiser reads the reason, fixes the paid ad and resubmits it into the queue without paying again.
 */
import { eq } from 'drizzle-orm'
import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { DATES_LOCKED_MESSAGE } from '#app/models/ads/event-schema.ts'
import { BAD_ACTION_MESSAGE, REASON_REQUIRED_MESSAGE } from '#app/models/moderation/moderation-schema.ts'
import { action as adminAction, loader as adminLoader } from '#app/routes/admin.tsx'
import { action as reviewApi } from '#app/routes/api.admin.review-event.ts'
import { action as approveEvent } from '#app/routes/api.approve-event.ts'
import { loader as dashboardLoader } from '#app/routes/dashboard.tsx'
import { action as editAction, loader as editLoader } from '#app/routes/dashboard.events.$id.edit.tsx'
import { action as previewAction, loader as previewLoader } from '#app/routes/dashboard.events.preview.tsx'
import { action as eventPageAction, loader as eventPageLoader } from '#app/routes/event.$id.tsx'
import { getEventPaymentData } from '#app/services/payments/payment-data.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { sessionStorage } from '#app/services/http/session.server.ts'
import { otherDaysText } from '#app/services/moderation/review-queue.server.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { events, outbox, payments, type Business, type Event } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { toastOf } from '#tests/support/cookie-jar.ts'
import { approveBody, days, plainEventForm, solidPng, useUploadFolder } from '#tests/support/ad-submission.ts'
import { insertBusiness, insertPaidPayment, insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'

useUploadFolder('review-loop-it')

const today = platformToday()
let owner: Business
let stranger: Business
let ownerCookie: string
let strangerCookie: string
let adminCookie: string
let clinicianCookie: string

beforeAll(async () => {
  owner = await insertBusiness(db, { businessName: 'Fix Me Cafe', businessPhone: '2175550148' })
  stranger = await insertBusiness(db, { businessName: 'Not The Owner' })
  ownerCookie = await sessionCookieFor({ business: owner })
  strangerCookie = await sessionCookieFor({ business: stranger })
  adminCookie = await sessionCookieFor({ user: await insertUser(db, { roles: ['admin'] }) })
  clinicianCookie = await sessionCookieFor({ user: await insertUser(db, { roles: ['clinician'] }) })
})

beforeEach(async () => {
  await db.delete(events)
  await db.delete(outbox)
})

/** The emails queued for the advertiser, oldest first. */
async function mailsToOwner() {
  return db.select().from(outbox).where(eq(outbox.toAddress, owner.businessEmail)).orderBy(outbox.id)
}

/** A paid ad of the owner's awaiting review, uploaded now, with its payment. */
async function paidAwaitingReview(overrides: Partial<Event> = {}) {
  const event = await insertTestEvent(owner, {
    eventTitle: 'Needs Work Night',
    eventStatus: 'pending',
    paymentStatus: 'paid',
    contactPhone: '2175550199',
    showAdOnDates: days(3),
    totalCost: 29,
    ...overrides,
  })
  const payment = await insertPaidPayment(event.eventID)
  await db
    .update(events)
    .set({ payment_intent_id: payment.payment_intent_id })
    .where(eq(events.eventID, event.eventID))
  return { event, payment }
}

async function row(eventID: number) {
  const [found] = await db.select().from(events).where(eq(events.eventID, eventID))
  return found!
}

function postReview(body: unknown, cookie = adminCookie) {
  return callRoute(reviewApi, '/api/admin/review-event', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: cookie },
    body: JSON.stringify(body),
  })
}

function reviewForm(fields: Record<string, string>, cookie = adminCookie) {
  return callRoute(adminAction, '/admin', {
    method: 'POST',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  })
}

async function adminPage(query = '') {
  const response = await callRoute(adminLoader, `/admin${query}`, { headers: { Cookie: adminCookie } })
  return (await response.json()) as {
    date: string
    otherDays: Array<{ date: string; count: number }>
    otherDaysTotal: number
    otherDaysSummary: string | null
    events: Array<{
      eventID: number
      contactPhone: string
      earlierRequest: string
      card: { eventTitle: string; stillPhotoPath: string; videoPath: string; businessPhone: string }
    }>
  }
}

function ownerGet(handler: Parameters<typeof callRoute>[0], url: string, cookie = ownerCookie, id?: number) {
  return callRoute(handler, url, {
    headers: { Cookie: cookie },
    ...(id === undefined ? {} : { params: { id: String(id) } }),
  })
}

function ownerPost(
  handler: Parameters<typeof callRoute>[0],
  url: string,
  body: FormData,
  { cookie = ownerCookie, id }: { cookie?: string; id?: number } = {},
) {
  return callRoute(handler, url, {
    method: 'POST',
    body,
    headers: { Cookie: cookie },
    ...(id === undefined ? {} : { params: { id: String(id) } }),
  })
}

async function paymentsOf(eventID: number) {
  return db.select().from(payments).where(eq(payments.eventID, eventID))
}

describe('decisions with reasons (POST /api/admin/review-event)', () => {
  test('request_changes keeps the payment, stores the reason and takes the ad out of the queue', async () => {
    const { event, payment } = await paidAwaitingReview()
    const response = await postReview({
      eventID: event.eventID,
      action: 'request_changes',
      reason: '  Please use a sharper photo  ',
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      eventID: event.eventID,
      eventStatus: 'changes_requested',
      message: 'Changes requested',
    })
    expect(await row(event.eventID)).toMatchObject({
      eventStatus: 'changes_requested',
      paymentStatus: 'paid',
      rejectionReason: 'Please use a sharper photo',
    })
    expect(await paymentsOf(event.eventID)).toEqual([
      expect.objectContaining({
        payment_status: 'paid',
        amount_refunded_cents: 0,
        paymentID: payment.paymentID,
      }),
    ])
    expect((await adminPage()).events).toEqual([])
    // The advertiser's email is queued with the decision.
    expect(await mailsToOwner()).toEqual([
      expect.objectContaining({
        kind: 'changes-requested',
        subject: 'Changes requested for your ad: Needs Work Night',
        textBody: expect.stringContaining('Please use a sharper photo'),
      }),
    ])
    // A decision that does not apply (not awaiting review any more) queues nothing.
    expect(
      (await postReview({ eventID: event.eventID, action: 'request_changes', reason: 'Again' })).status,
    ).toBe(409)
    expect(await mailsToOwner()).toHaveLength(1)
  })

  test('reject with a reason refunds; the spec’s reject without a reason keeps working', async () => {
    const { event: withReason } = await paidAwaitingReview()
    const { event: bare } = await paidAwaitingReview({ eventTitle: 'Bare Reject' })
    const first = await postReview({ eventID: withReason.eventID, action: 'reject', reason: 'Not an event' })
    expect(await first.json()).toMatchObject({ eventStatus: 'rejected', refund: { refunded: true } })
    expect(await row(withReason.eventID)).toMatchObject({
      eventStatus: 'rejected',
      paymentStatus: 'refunded',
      rejectionReason: 'Not an event',
    })
    const second = await postReview({ eventID: bare.eventID, action: 'reject' })
    expect(second.status).toBe(200)
    expect((await paymentsOf(bare.eventID))[0]).toMatchObject({ payment_status: 'refunded' })
  })

  test('approve makes the ad live; a request for changes after it is a 409', async () => {
    const { event } = await paidAwaitingReview()
    expect((await postReview({ eventID: event.eventID, action: 'approve' })).status).toBe(200)
    expect(await row(event.eventID)).toMatchObject({ eventStatus: 'approved', approvedDateByAdmin: today })
    const late = await postReview({ eventID: event.eventID, action: 'request_changes', reason: 'Too late' })
    expect(late.status).toBe(409)
  })

  test('a missing or blank reason for request_changes, or an unknown action, is a 400 saying so; nothing changes', async () => {
    const { event } = await paidAwaitingReview()
    for (const body of [
      { eventID: event.eventID, action: 'request_changes' },
      { eventID: event.eventID, action: 'request_changes', reason: '   ' },
    ]) {
      const response = await postReview(body)
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ message: `reason: ${REASON_REQUIRED_MESSAGE}` })
    }
    const bad = await postReview({ eventID: event.eventID, action: 'publish', reason: 'x' })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ message: `action: ${BAD_ACTION_MESSAGE}` })
    const tooLong = await postReview({ eventID: event.eventID, action: 'reject', reason: 'x'.repeat(501) })
    expect(tooLong.status).toBe(400)
    expect(await row(event.eventID)).toMatchObject({ eventStatus: 'pending', paymentStatus: 'paid' })
  })

  test('advertisers and clinicians get 403; nothing changes', async () => {
    const { event } = await paidAwaitingReview()
    const body = { eventID: event.eventID, action: 'request_changes', reason: 'Mine now' }
    expect((await postReview(body, ownerCookie)).status).toBe(403)
    expect((await postReview(body, clinicianCookie)).status).toBe(403)
    expect(
      (
        await reviewForm(
          { intent: 'request_changes', eventID: String(event.eventID), reason: 'x' },
          ownerCookie,
        )
      ).status,
    ).toBe(403)
    expect((await row(event.eventID)).eventStatus).toBe('pending')
  })
})

describe('the moderation page', () => {
  test('request changes with a reason; reject and request changes without one are a 400 naming the reason', async () => {
    const { event } = await paidAwaitingReview()
    for (const intent of ['request_changes', 'reject']) {
      const refused = await reviewForm({ intent, eventID: String(event.eventID), reason: ' ' })
      expect(refused.status).toBe(400)
      expect(await refused.json()).toMatchObject({
        eventID: String(event.eventID),
        result: { error: { reason: [REASON_REQUIRED_MESSAGE] } },
      })
    }
    const sent = await reviewForm({
      intent: 'request_changes',
      eventID: String(event.eventID),
      reason: 'Add the start time',
      date: 'all',
    })
    expect(sent.status).toBe(302)
    expect(sent.headers.get('Location')).toBe('/admin?date=all')
    expect(await toastOf(sent)).toMatchObject({ title: 'Changes requested' })
    expect(await row(event.eventID)).toMatchObject({
      eventStatus: 'changes_requested',
      rejectionReason: 'Add the start time',
    })
  })

  test('each ad as its customer card (media, formatted phone); other days counted and linked; ?date=all lists all', async () => {
    const { event: todays } = await paidAwaitingReview({
      stillPhotoURL: '/api/media/2026-01-15_1.webp?v=1',
      videoURL: '/api/media/2026-01-15_1.mp4',
    })
    const older = new Date(Date.now() - 3 * 24 * 3600 * 1000)
    const { event: old1 } = await paidAwaitingReview({ eventTitle: 'Old One', createdDate: older })
    await paidAwaitingReview({ eventTitle: 'Old Two', createdDate: older })
    await insertTestEvent(owner, {
      eventTitle: 'Unpaid',
      eventStatus: 'pending',
      paymentStatus: 'pending',
      createdDate: older,
    })

    const page = await adminPage()
    expect(page.date).toBe(today)
    expect(page.events.map((e) => e.eventID)).toEqual([todays.eventID])
    expect(page.events[0]).toMatchObject({
      contactPhone: '(217) 555-0199',
      card: {
        eventTitle: 'Needs Work Night',
        stillPhotoPath: '/api/media/2026-01-15_1.webp?v=1',
        videoPath: '/api/media/2026-01-15_1.mp4',
        businessPhone: '2175550148',
      },
    })
    const olderDay = platformToday(older)
    expect(page.otherDays).toEqual([{ date: olderDay, count: 2 }])
    expect(page.otherDaysTotal).toBe(2)
    expect(page.otherDaysSummary).toBe('2 paid ads wait from other days')
    expect(otherDaysText(1)).toBe('1 paid ad waits from other days')

    const thatDay = await adminPage(`?date=${olderDay}`)
    expect(thatDay.events.map((e) => e.eventID)).toContain(old1.eventID)
    expect(thatDay.otherDays).toEqual([{ date: today, count: 1 }])

    const all = await adminPage('?date=all')
    expect(all.date).toBe('all')
    expect(all.events).toHaveLength(3)
    expect(all.otherDays).toEqual([])
    expect(all.otherDaysSummary).toBeNull()
  })
})

describe('the advertiser reads the reason, fixes the ad and resubmits it without paying again', () => {
  async function sentBack(reason = 'Please add the start time') {
    const { event } = await paidAwaitingReview()
    const response = await postReview({ eventID: event.eventID, action: 'request_changes', reason })
    expect(response.status).toBe(200)
    return event
  }

  test('the dashboard card and the ad’s own page show the reason and the way to fix it; nobody else sees it', async () => {
    const event = await sentBack()
    const dashboard = (await (await ownerGet(dashboardLoader, '/dashboard')).json()) as {
      events: Array<{ eventID: number; statusLabel: string; reviewReason: string; resubmitHref: string }>
    }
    expect(dashboard.events.find((e) => e.eventID === event.eventID)).toMatchObject({
      statusLabel: 'Changes requested',
      reviewReason: 'Please add the start time',
      resubmitHref: `/dashboard/events/${event.eventID}/edit`,
    })
    for (const url of [`/event/${event.eventID}`, `/event/${event.eventID}?viewMode=true`]) {
      const page = await ownerGet(eventPageLoader, url, ownerCookie, event.eventID)
      expect(await page.json()).toMatchObject({ reviewReason: 'Please add the start time', editable: true })
    }
    const strangers = await ownerGet(
      eventPageLoader,
      `/event/${event.eventID}?viewMode=true`,
      strangerCookie,
      event.eventID,
    )
    expect(strangers.status).toBe(404)
    expect(JSON.stringify(await strangers.json())).not.toContain('start time')
  })

  test('with JavaScript: the edit is saved in place and back in the queue; no second payment', async () => {
    const event = await sentBack()
    const form = await ownerGet(
      editLoader,
      `/dashboard/events/${event.eventID}/edit`,
      ownerCookie,
      event.eventID,
    )
    expect(form.status).toBe(200)
    expect(await form.json()).toMatchObject({ paid: true, reviewReason: 'Please add the start time' })

    const photo = await solidPng(40, 30, '#13a')
    const res = await ownerPost(
      approveEvent,
      '/api/approve-event',
      approveBody({
        eventID: String(event.eventID),
        eventData: { eventTitle: 'Needs Work Night, 7 pm' },
        selectedDates: days(3),
        totalAmount: '29.00',
        image: photo,
      }),
    )
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ eventID: event.eventID, resubmitted: true })
    const session = await sessionStorage.getSession(res.headers.get('Set-Cookie'))
    expect(getEventPaymentData(session)).toBeNull()
    const after = await row(event.eventID)
    expect(after).toMatchObject({
      eventTitle: 'Needs Work Night, 7 pm',
      eventStatus: 'pending',
      paymentStatus: 'paid',
      showAdOnDates: days(3),
      totalCost: 29,
    })
    expect(after.stillPhotoURL).toMatch(/^\/api\/media\/.+_\d+\.webp\?v=/)
    expect((await adminPage()).events).toEqual([
      expect.objectContaining({ eventID: event.eventID, earlierRequest: 'Please add the start time' }),
    ])
    expect(await paymentsOf(event.eventID)).toHaveLength(1)
    // Checkout refuses it: it is paid for.
    const confirm = new FormData()
    confirm.set('intent', 'confirm')
    const pay = await ownerPost(eventPageAction, `/event/${event.eventID}`, confirm, { id: event.eventID })
    expect(pay.headers.get('Location')).toBe(`/event/${event.eventID}?viewMode=true`)
    expect(await toastOf(pay)).toMatchObject({ title: expect.stringMatching(/paid/i) })
  })

  test('other dates or another cost are refused with a 400 saying why; the ad stays as it was', async () => {
    const event = await sentBack()
    const moved = await ownerPost(
      approveEvent,
      '/api/approve-event',
      approveBody({
        eventID: String(event.eventID),
        eventData: { eventTitle: 'Moved' },
        selectedDates: days(5),
      }),
    )
    expect(moved.status).toBe(400)
    expect(await moved.json()).toMatchObject({ message: DATES_LOCKED_MESSAGE })
    const newDay = await ownerPost(
      approveEvent,
      '/api/approve-event',
      approveBody({
        eventID: String(event.eventID),
        eventData: { eventTitle: 'Moved', eventDate: days(1, 9)[0] },
        selectedDates: days(3),
      }),
    )
    expect(newDay.status).toBe(400)
    expect(await newDay.json()).toMatchObject({ message: DATES_LOCKED_MESSAGE })
    const cheaper = await ownerPost(
      approveEvent,
      '/api/approve-event',
      approveBody({ eventID: String(event.eventID), selectedDates: days(3), totalAmount: '1.00' }),
    )
    expect(cheaper.status).toBe(400)
    expect(await row(event.eventID)).toMatchObject({
      eventTitle: 'Needs Work Night',
      eventStatus: 'changes_requested',
    })
  })

  test('another business cannot edit it (404, as for any ad not theirs) and nothing changes', async () => {
    const event = await sentBack()
    expect(
      (await ownerGet(editLoader, `/dashboard/events/${event.eventID}/edit`, strangerCookie, event.eventID))
        .status,
    ).toBe(404)
    const res = await ownerPost(
      approveEvent,
      '/api/approve-event',
      approveBody({
        eventID: String(event.eventID),
        eventData: { eventTitle: 'Hijacked' },
        selectedDates: days(3),
      }),
      { cookie: strangerCookie },
    )
    expect(res.status).toBe(404)
    expect(await row(event.eventID)).toMatchObject({
      eventTitle: 'Needs Work Night',
      eventStatus: 'changes_requested',
    })
  })

  test('without JavaScript: edit form → preview ("Send for review") → back in the queue, no checkout', async () => {
    const event = await sentBack()
    const staged = await ownerPost(
      editAction,
      `/dashboard/events/${event.eventID}/edit`,
      plainEventForm({
        eventTitle: 'Fixed Without Scripts',
        eventDescription: 'Doors at 7 pm.',
        eventCategory: ['Community'],
        showAdDates: days(3),
        eventDate: '',
      }),
      { id: event.eventID },
    )
    expect(staged.status).toBe(302)
    expect(staged.headers.get('Location')).toBe('/dashboard/events/preview')
    const preview = await ownerGet(previewLoader, '/dashboard/events/preview')
    expect(await preview.json()).toMatchObject({
      afterPayment: true,
      card: { eventTitle: 'Fixed Without Scripts' },
    })
    const approve = new FormData()
    approve.set('intent', 'approve')
    const done = await ownerPost(previewAction, '/dashboard/events/preview', approve)
    expect(done.status).toBe(302)
    expect(done.headers.get('Location')).toBe(`/event/${event.eventID}`)
    expect(await toastOf(done)).toMatchObject({ title: 'Sent for review' })
    expect(await row(event.eventID)).toMatchObject({
      eventTitle: 'Fixed Without Scripts',
      eventStatus: 'pending',
      paymentStatus: 'paid',
    })
    expect(await paymentsOf(event.eventID)).toHaveLength(1)

    // Moved dates from the plain form are refused beside the field.
    await postReview({ eventID: event.eventID, action: 'request_changes', reason: 'Once more' })
    const moved = await ownerPost(
      editAction,
      `/dashboard/events/${event.eventID}/edit`,
      plainEventForm({
        eventTitle: 'Moved',
        eventDescription: 'Other days.',
        eventCategory: ['Community'],
        showAdDates: days(2),
      }),
      { id: event.eventID },
    )
    expect(moved.status).toBe(400)
    const { result } = (await moved.json()) as {
      result: { error: unknown; initialValue: { eventTitle: string } }
    }
    expect(result.error).toEqual({ showAdDates: [DATES_LOCKED_MESSAGE] })
    expect(result.initialValue.eventTitle).toBe('Moved')
  })

  test('then the administrator approves it and it is live', async () => {
    const event = await sentBack()
    await ownerPost(
      approveEvent,
      '/api/approve-event',
      approveBody({
        eventID: String(event.eventID),
        eventData: { eventTitle: 'Fixed' },
        selectedDates: days(3),
      }),
    )
    const approved = await reviewForm({ intent: 'approve', eventID: String(event.eventID) })
    expect(await toastOf(approved)).toMatchObject({ title: 'Event approved' })
    const visitor = await callRoute(eventPageLoader, `/event/${event.eventID}?viewMode=true`, {
      params: { id: String(event.eventID) },
    })
    expect(visitor.status).toBe(200)
    expect(await visitor.json()).toMatchObject({ card: { eventTitle: 'Fixed' }, reviewReason: null })
    expect((await mailsToOwner()).map((m) => m.kind)).toEqual(['changes-requested', 'ad-approved'])
  })
})
