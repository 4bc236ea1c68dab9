import { eq } from 'drizzle-orm'
import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { EMPTY_CALENDAR_FILTERS } from '#app/models/calendar/calendar-filters.ts'
import { zonedDayRange } from '#app/models/moderation/pending-review.server.ts'
import { EMPTY_PRACTICAL_FACTS } from '#app/models/ads/practical-facts.ts'
import { listLiveEvents } from '#app/models/calendar/calendar-listing.server.ts'
import { action as adminAction, loader as adminLoader } from '#app/routes/admin.tsx'
import { loader as pendingApi } from '#app/routes/api.admin.pending-events.ts'
import { action as reviewApi } from '#app/routes/api.admin.review-event.ts'
import { getEnv, resetEnvCache } from '#app/services/platform/env.server.ts'
import { BAD_REVIEW_DATE_MESSAGE } from '#app/services/moderation/review-queue.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { noPendingEventsText, pendingReviewList } from '#app/services/moderation/review-queue.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { eventRevisions, events, payments, type Business, type Event, type User } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { toastOf } from '#tests/support/cookie-jar.ts'
import { insertBusiness, insertPaidPayment, insertTestEvent } from '#tests/support/events.ts'
import { expectConsoleError } from '#tests/support/fail-on-console-error.ts'
import { callRoute } from '#tests/support/routes.ts'

const today = platformToday()
const timeZone = getEnv().APP_TIME_ZONE

let owner: Business
let admin: User
let adminCookie: string
let clinicianCookie: string
let businessCookie: string

beforeAll(async () => {
  expect(timeZone).toBe('America/New_York')
  owner = await insertBusiness(db, { businessName: 'Review Me Inc' })
  admin = await insertUser(db, { roles: ['admin'] })
  adminCookie = await sessionCookieFor({ user: admin })
  clinicianCookie = await sessionCookieFor({ user: await insertUser(db, { roles: ['clinician'] }) })
  businessCookie = await sessionCookieFor({ business: owner })
})

beforeEach(async () => {
  await db.delete(events)
})

/** A paid event awaiting review, uploaded at `createdDate`, with its payment. */
async function awaitingReview(createdDate: Date, overrides: Partial<Event> = {}) {
  const event = await insertTestEvent(owner, {
    eventTitle: 'Waiting',
    createdDate,
    eventStatus: 'pending',
    paymentStatus: 'paid',
    showAdOnDates: [addDaysIso(today, 2), addDaysIso(today, 3)],
    stillPhotoURL: '/api/media/2026-01-15_1.webp',
    videoURL: '/api/media/2026-01-15_1.mp4',
    ...overrides,
  })
  const payment = await insertPaidPayment(event.eventID)
  await db
    .update(events)
    .set({ payment_intent_id: payment.payment_intent_id })
    .where(eq(events.eventID, event.eventID))
  return { event, payment }
}

const titlesOn = async (date: string) =>
  (await pendingReviewList(date, { timeZone })).map((e) => e.eventTitle)

describe('pending events by upload date (platform time zone)', () => {
  test('the day boundaries are local midnights, not UTC ones', async () => {
    await awaitingReview(new Date('2026-01-15T04:59:59.999Z'), { eventTitle: 'Late on the 14th (local)' })
    await awaitingReview(new Date('2026-01-15T05:00:00.000Z'), { eventTitle: 'Midnight of the 15th' })
    await awaitingReview(new Date('2026-01-16T04:59:59.000Z'), { eventTitle: 'Last second of the 15th' })
    await awaitingReview(new Date('2026-01-16T05:00:00.000Z'), { eventTitle: 'Midnight of the 16th' })
    expect(await titlesOn('2026-01-14')).toEqual(['Late on the 14th (local)'])
    expect(await titlesOn('2026-01-15')).toEqual(['Midnight of the 15th', 'Last second of the 15th'])
    expect(await titlesOn('2026-01-16')).toEqual(['Midnight of the 16th'])
  })

  test('the day clocks spring forward is 23 hours long', async () => {
    expect(zonedDayRange('2026-03-08', timeZone)).toEqual({
      start: new Date('2026-03-08T05:00:00Z'),
      end: new Date('2026-03-09T04:00:00Z'),
    })
    await awaitingReview(new Date('2026-03-09T03:59:00Z'), { eventTitle: '23:59 EDT on the 8th' })
    await awaitingReview(new Date('2026-03-09T04:30:00Z'), { eventTitle: '00:30 EDT on the 9th' })
    expect(await titlesOn('2026-03-08')).toEqual(['23:59 EDT on the 8th'])
    expect(await titlesOn('2026-03-09')).toEqual(['00:30 EDT on the 9th'])
  })

  test('only paid events awaiting review; the spec’s pending-event shape', async () => {
    const uploaded = new Date('2026-01-20T15:00:00Z')
    const { event } = await awaitingReview(uploaded, {
      eventTitle: 'Paid, pending',
      category: ['Concert', 'Family'],
    })
    await insertTestEvent(owner, {
      eventTitle: 'Unpaid',
      createdDate: uploaded,
      eventStatus: 'pending',
      paymentStatus: 'pending',
    })
    await insertTestEvent(owner, { eventTitle: 'Approved', createdDate: uploaded })
    await insertTestEvent(owner, { eventTitle: 'Rejected', createdDate: uploaded, eventStatus: 'rejected' })
    const list = await pendingReviewList('2026-01-20', { timeZone })
    expect(list).toEqual([
      {
        eventID: event.eventID,
        eventTitle: 'Paid, pending',
        businessName: 'Review Me Inc',
        createdDate: uploaded.toISOString(),
        eventDescription: event.eventDescription,
        category: ['Concert', 'Family'],
        contactPerson: owner.businessContact,
        contactPhone: owner.businessPhone,
        contactEmail: owner.businessEmail,
        photoPath: '/api/media/2026-01-15_1.webp',
        videoPath: '/api/media/2026-01-15_1.mp4',
        ...EMPTY_PRACTICAL_FACTS,
        revision: false,
        changes: [],
        earlierRequest: '',
      },
    ])
  })
})

describe('/admin page', () => {
  function getAdmin(query: string, cookie: string | null = adminCookie) {
    return callRoute(adminLoader, `/admin${query}`, { headers: cookie ? { Cookie: cookie } : {} })
  }

  function review(fields: Record<string, string>, cookie: string = adminCookie) {
    return callRoute(adminAction, '/admin', {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    })
  }

  test('signed out → sign-in; an advertiser or a clinician → 403', async () => {
    const signedOut = await getAdmin('', null)
    expect(signedOut.status).toBe(302)
    expect(signedOut.headers.get('Location')).toBe(`/api/login?redirectTo=${encodeURIComponent('/admin')}`)
    expect((await getAdmin('', businessCookie)).status).toBe(403)
    expect((await getAdmin('', clinicianCookie)).status).toBe(403)
    expect((await review({ intent: 'approve', eventID: '1' }, clinicianCookie)).status).toBe(403)
  })

  test('defaults to today; lists the given date; the empty text names the date', async () => {
    const todays = await (await getAdmin('')).json()
    expect(todays).toMatchObject({ date: today, events: [], emptyText: `No pending events for ${today}` })
    expect(noPendingEventsText('2026-01-15')).toBe('No pending events for 2026-01-15')
    expect(await (await getAdmin('?date=all')).json()).toMatchObject({ emptyText: 'No pending events' })
    await awaitingReview(new Date('2026-01-15T17:30:00Z'))
    const body = (await (await getAdmin('?date=2026-01-15')).json()) as {
      date: string
      events: Array<{ uploadedAt: string }>
    }
    expect(body.date).toBe('2026-01-15')
    expect(body.events).toHaveLength(1)
    expect(body.events[0]!.uploadedAt).toBe('Jan 15, 2026 12:30 PM')
  })

  test('an invalid date is a 400 that shows today', async () => {
    const response = await getAdmin('?date=2026-02-30')
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ date: today, notice: expect.any(String) })
  })

  test('approve: the event goes live, with the admin’s date and the reviewer recorded; the item leaves the list', async () => {
    const { event } = await awaitingReview(new Date('2026-01-15T17:30:00Z'))
    const response = await review({ intent: 'approve', eventID: String(event.eventID), date: '2026-01-15' })
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/admin?date=2026-01-15')
    expect(await toastOf(response)).toMatchObject({ title: 'Event approved', variant: 'default' })
    const [after] = await db.select().from(events).where(eq(events.eventID, event.eventID))
    expect(after).toMatchObject({
      eventStatus: 'approved',
      paymentStatus: 'paid',
      approvedDateByAdmin: today,
      approvedDateByBusiness: event.approvedDateByBusiness,
      reviewedByUserId: admin.id,
    })
    expect(after!.reviewedAt).toBeInstanceOf(Date)
    const live = await listLiveEvents(EMPTY_CALENDAR_FILTERS, { today, limit: 10 })
    expect(live.map((e) => e.eventID)).toContain(event.eventID)
    expect(await titlesOn('2026-01-15')).toEqual([])
  })

  test('reject: rejected with the reason, and the payment refunded', async () => {
    const { event, payment } = await awaitingReview(new Date('2026-01-15T17:30:00Z'))
    const response = await review({
      intent: 'reject',
      eventID: String(event.eventID),
      reason: '  Blurry photo  ',
      date: '2026-01-15',
    })
    expect(response.status).toBe(302)
    expect(await toastOf(response)).toMatchObject({ title: 'Event rejected' })
    const [after] = await db.select().from(events).where(eq(events.eventID, event.eventID))
    expect(after).toMatchObject({
      eventStatus: 'rejected',
      rejectionReason: 'Blurry photo',
      reviewedByUserId: admin.id,
    })
    expect(after!.paymentStatus).toBe('refunded')
    const [refunded] = await db.select().from(payments).where(eq(payments.paymentID, payment.paymentID))
    expect(refunded).toMatchObject({
      payment_status: 'refunded',
      amount_refunded_cents: payment.amount_paid_cents,
    })
    expect(await titlesOn('2026-01-15')).toEqual([])
  })

  test('a second review is refused (409) and shown as a failure toast', async () => {
    const { event } = await awaitingReview(new Date('2026-01-15T17:30:00Z'))
    await review({ intent: 'approve', eventID: String(event.eventID) })
    const again = await review({ intent: 'reject', eventID: String(event.eventID), reason: 'Late' })
    expect(await toastOf(again)).toMatchObject({ title: 'Review failed', variant: 'destructive' })
    const [after] = await db.select().from(events).where(eq(events.eventID, event.eventID))
    expect(after!.eventStatus).toBe('approved')
  })

  test('an unknown intent is a 400', async () => {
    const { event } = await awaitingReview(new Date('2026-01-15T17:30:00Z'))
    expect((await review({ intent: 'delete', eventID: String(event.eventID) })).status).toBe(400)
    expect((await review({ intent: 'approve', eventID: 'x' })).status).toBe(400)
  })

  test('a refund that fails leaves the event pending, so the review can be repeated', async () => {
    expectConsoleError()
    const { event } = await awaitingReview(new Date('2026-01-15T17:30:00Z'))
    // In production without card provider keys there is no provider to refund through.
    process.env.APP_ENV = 'production'
    process.env.ALLOW_NO_IDENTITY_PROVIDER = 'true'
    process.env.PUBLIC_URL = 'https://events.example'
    resetEnvCache()
    let response: Response
    try {
      response = await review({ intent: 'reject', eventID: String(event.eventID), reason: 'Off topic' })
    } finally {
      process.env.APP_ENV = 'test'
      delete process.env.ALLOW_NO_IDENTITY_PROVIDER
      delete process.env.PUBLIC_URL
      resetEnvCache()
    }
    expect(await toastOf(response)).toMatchObject({ title: 'Review failed', variant: 'destructive' })
    const [after] = await db.select().from(events).where(eq(events.eventID, event.eventID))
    expect(after).toMatchObject({ eventStatus: 'pending', paymentStatus: 'paid', reviewedByUserId: null })
  })
})

describe('JSON API', () => {
  function getPending(query: string, cookie: string | null = adminCookie) {
    return callRoute(pendingApi, `/api/admin/pending-events${query}`, {
      headers: cookie ? { Cookie: cookie } : {},
    })
  }

  function postReview(
    body: unknown,
    { cookie = adminCookie as string | null, contentType = 'application/json' } = {},
  ) {
    return callRoute(reviewApi, '/api/admin/review-event', {
      method: 'POST',
      headers: { 'Content-Type': contentType, ...(cookie ? { Cookie: cookie } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
  }

  test('GET /api/admin/pending-events?date= lists that upload date', async () => {
    const { event } = await awaitingReview(new Date('2026-01-15T17:30:00Z'))
    const response = await getPending('?date=2026-01-15')
    expect(response.status).toBe(200)
    expect(((await response.json()) as Array<{ eventID: number }>).map((e) => e.eventID)).toEqual([
      event.eventID,
    ])
    expect(await (await getPending('?date=2026-01-16')).json()).toEqual([])
  })

  test('?date=all lists every pending ad and every pending edit of a live ad, as /admin does', async () => {
    const first = await awaitingReview(new Date('2026-01-10T17:30:00Z'), { eventTitle: 'Older upload' })
    const second = await awaitingReview(new Date('2026-01-15T17:30:00Z'), {
      eventTitle: 'Sent back and resubmitted',
      reviewedAt: new Date('2026-01-14T12:00:00Z'),
      rejectionReason: 'Please add the start time',
    })
    await insertTestEvent(owner, { eventTitle: 'Unpaid', eventStatus: 'pending', paymentStatus: 'pending' })
    const live = await insertTestEvent(owner, {
      eventTitle: 'Live Jazz Night',
      contactPhone: '2175550100',
      showAdOnDates: [addDaysIso(today, 2)],
    })
    await insertTestEvent(owner, { eventTitle: 'Live, not edited', showAdOnDates: [addDaysIso(today, 2)] })
    await db.insert(eventRevisions).values({
      eventID: live.eventID,
      submittedAt: new Date('2026-01-12T15:00:00Z'),
      eventTitle: 'Live Jazz Night — now with a brass band',
      eventDescription: live.eventDescription,
      category: live.category,
      contactPerson: live.contactPerson,
      contactPhone: live.contactPhone,
      contactEmail: live.contactEmail,
    })

    const response = await getPending('?date=all')
    expect(response.status).toBe(200)
    expect(response.headers.get('Cache-Control')).toBe('no-store')
    const list = (await response.json()) as Array<Record<string, unknown>>
    expect(list.map((item) => [item.eventID, item.eventTitle, item.revision])).toEqual([
      [first.event.eventID, 'Older upload', false],
      [live.eventID, 'Live Jazz Night — now with a brass band', true],
      [second.event.eventID, 'Sent back and resubmitted', false],
    ])
    expect(list[0]).toMatchObject({
      changes: [],
      earlierRequest: '',
      createdDate: '2026-01-10T17:30:00.000Z',
    })
    expect(list[1]).toMatchObject({
      createdDate: '2026-01-12T15:00:00.000Z',
      businessName: 'Review Me Inc',
      contactPhone: '2175550100',
      earlierRequest: '',
      changes: [
        {
          field: 'eventTitle',
          label: 'Title',
          kind: 'text',
          old: 'Live Jazz Night',
          new: 'Live Jazz Night — now with a brass band',
        },
      ],
    })
    expect(list[2]).toMatchObject({ changes: [], earlierRequest: 'Please add the start time' })

    const page = (await (
      await callRoute(adminLoader, '/admin?date=all', { headers: { Cookie: adminCookie } })
    ).json()) as {
      events: Array<{ eventID: number; eventTitle: string }>
    }
    expect(page.events.map((e) => [e.eventID, e.eventTitle]).sort()).toEqual(
      list.map((item) => [item.eventID, item.eventTitle]).sort(),
    )
  })

  test('?date= lists the edits of live ads sent for review that day, and only that day', async () => {
    const live = await insertTestEvent(owner, {
      eventTitle: 'Farmers Market',
      showAdOnDates: [addDaysIso(today, 3)],
    })
    await db.insert(eventRevisions).values({
      eventID: live.eventID,
      submittedAt: new Date('2026-01-15T17:30:00Z'),
      eventTitle: live.eventTitle,
      eventDescription: 'Now every Saturday.',
      category: live.category,
      stillPhotoURL: '/api/media/market-new.webp',
    })
    const onDay = (await (await getPending('?date=2026-01-15')).json()) as Array<Record<string, unknown>>
    expect(onDay).toHaveLength(1)
    expect(onDay[0]).toMatchObject({
      eventID: live.eventID,
      revision: true,
      eventDescription: 'Now every Saturday.',
      photoPath: '/api/media/market-new.webp',
    })
    expect((onDay[0]!.changes as Array<{ field: string }>).map((c) => c.field)).toEqual(
      expect.arrayContaining(['eventDescription', 'photo']),
    )
    expect(await (await getPending('?date=2026-01-16')).json()).toEqual([])
  })

  test('bad date → 400; signed out → 401 JSON; not an admin → 403', async () => {
    for (const bad of ['2026-13-01', '2026-02-30', 'today', 'ALL', 'all,2026-01-15', '15/01/2026']) {
      const response = await getPending(`?date=${encodeURIComponent(bad)}`)
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ message: BAD_REVIEW_DATE_MESSAGE })
    }
    expect(BAD_REVIEW_DATE_MESSAGE).toMatch(/yyyy-mm-dd.*all/)
    const signedOut = await getPending('?date=2026-01-15', null)
    expect(signedOut.status).toBe(401)
    expect(await signedOut.json()).toEqual({ message: 'Unauthorized' })
    expect((await getPending('?date=2026-01-15', businessCookie)).status).toBe(403)
    expect((await getPending('?date=2026-01-15', clinicianCookie)).status).toBe(403)
  })

  test('POST /api/admin/review-event approves, then a second review is 409', async () => {
    const { event } = await awaitingReview(new Date('2026-01-15T17:30:00Z'))
    const response = await postReview({ eventID: event.eventID, action: 'approve' })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ eventID: event.eventID, eventStatus: 'approved' })
    const again = await postReview({ eventID: event.eventID, action: 'approve' })
    expect(again.status).toBe(409)
    expect(await again.json()).toEqual({ message: expect.stringContaining('not awaiting review') })
  })

  test('POST /api/admin/review-event rejects with a reason and refunds', async () => {
    const { event, payment } = await awaitingReview(new Date('2026-01-15T17:30:00Z'))
    const response = await postReview({
      eventID: String(event.eventID),
      action: 'reject',
      reason: 'Duplicate',
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ eventStatus: 'rejected', refund: { refunded: true } })
    const [row] = await db.select().from(payments).where(eq(payments.paymentID, payment.paymentID))
    expect(row!.payment_status).toBe('refunded')
  })

  test('bad action, bad id, bad JSON → 400; not JSON → 415; unknown event → 404', async () => {
    const { event } = await awaitingReview(new Date('2026-01-15T17:30:00Z'))
    expect((await postReview({ eventID: event.eventID, action: 'publish' })).status).toBe(400)
    expect((await postReview({ eventID: event.eventID })).status).toBe(400)
    expect((await postReview({ eventID: 'abc', action: 'approve' })).status).toBe(400)
    expect((await postReview('{not json')).status).toBe(400)
    expect(
      (await postReview({ eventID: event.eventID, action: 'approve' }, { contentType: 'text/plain' })).status,
    ).toBe(415)
    const unknown = await postReview({ eventID: 999_999, action: 'approve' })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ message: 'Event not found' })
    const [after] = await db.select().from(events).where(eq(events.eventID, event.eventID))
    expect(after!.eventStatus).toBe('pending')
  })

  test('signed out → 401; not an admin → 403 (nothing changes)', async () => {
    const { event } = await awaitingReview(new Date('2026-01-15T17:30:00Z'))
    expect((await postReview({ eventID: event.eventID, action: 'approve' }, { cookie: null })).status).toBe(
      401,
    )
    expect(
      (await postReview({ eventID: event.eventID, action: 'approve' }, { cookie: businessCookie })).status,
    ).toBe(403)
    const [after] = await db.select().from(events).where(eq(events.eventID, event.eventID))
    expect(after!.eventStatus).toBe('pending')
  })
})
