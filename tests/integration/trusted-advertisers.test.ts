import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { getLiveEventsPage } from '#app/models/calendar/cached-listing.server.ts'
import { EMPTY_CALENDAR_FILTERS } from '#app/models/calendar/calendar-filters.ts'
import { action as reviewAction } from '#app/routes/admin.tsx'
import * as adminEventRoute from '#app/routes/admin_.events.$id.tsx'
import { loader as checkoutLoader } from '#app/routes/checkout.tsx'
import { changeTrust, trustOf } from '#app/services/moderation/trust.server.ts'
import { getEnv } from '#app/services/platform/env.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { outbox, type Business, type User } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { auditRowsOf, paidAdAwaitingReview, postForm } from '#tests/support/moderation.ts'
import { shownAfter } from '#tests/support/document-request.ts'
import { callRoute } from '#tests/support/routes.ts'
import { payForNewAd, withSamplePercent } from '#tests/support/trust.ts'

const today = platformToday()
let admin: User
let adminCookie: string

beforeAll(async () => {
  admin = await insertUser(db, { roles: ['admin'] })
  adminCookie = await sessionCookieFor({ user: admin })
  expect(getEnv().TRUSTED_AFTER_APPROVALS).toBe(3)
})

const review = (eventID: number, intent: string, reason = '') =>
  postForm(reviewAction, '/admin', { intent, eventID: String(eventID), reason }, { cookie: adminCookie })

/** An ad of `owner` approved by an administrator (through the review page). */
async function approvedAd(owner: Business) {
  const ad = await paidAdAwaitingReview(owner)
  expect((await review(ad.eventID, 'approve')).status).toBe(302)
  return ad
}

const shownIDs = async () =>
  (await getLiveEventsPage(EMPTY_CALENDAR_FILTERS, { today, limit: 100 })).map((e) => e.eventID)

describe('trust is earned and lost', () => {
  test('earned after 3 approvals, lost on a rejection', async () => {
    const owner = await insertBusiness(db)
    await approvedAd(owner)
    await approvedAd(owner)
    expect(await trustOf(owner.businessID)).toMatchObject({
      trusted: false,
      because: '2 of 3 approved ads needed',
    })
    await approvedAd(owner)
    expect((await trustOf(owner.businessID)).trusted).toBe(true)

    const rejected = await paidAdAwaitingReview(owner)
    await review(rejected.eventID, 'reject', 'Misleading price')
    expect(await trustOf(owner.businessID)).toMatchObject({
      trusted: false,
      because: 'a rejection or takedown in the last 90 days',
    })
  })

  test('an administrator grants or revokes it with a reason, recorded in the audit trail; a rejection overrides a grant', async () => {
    const owner = await insertBusiness(db)
    await changeTrust(owner.businessID, { granted: true, reason: 'Known venue', adminId: admin.id })
    expect(await trustOf(owner.businessID)).toMatchObject({
      trusted: true,
      because: 'granted by an administrator',
    })
    await changeTrust(owner.businessID, { granted: false, reason: 'Complaints by phone', adminId: admin.id })
    expect((await trustOf(owner.businessID)).trusted).toBe(false)
    await changeTrust(owner.businessID, { granted: true, reason: 'Sorted out', adminId: admin.id })
    const rejected = await paidAdAwaitingReview(owner)
    await review(rejected.eventID, 'reject', 'Offensive photo')
    expect((await trustOf(owner.businessID)).trusted).toBe(false)
  })
})

describe('at payment', () => {
  test('a trusted business’s ad is live at once, auto-approved, on the public pages, with no review notice', async () => {
    const owner = await insertBusiness(db)
    await changeTrust(owner.businessID, {
      granted: true,
      reason: 'Long-standing advertiser',
      adminId: admin.id,
    })
    const ad = await withSamplePercent(0, () => payForNewAd(owner, 'Trusted Gig'))
    expect(ad).toMatchObject({ eventStatus: 'approved', paymentStatus: 'paid', approvedDateByAdmin: today })
    expect(await shownIDs()).toContain(ad.eventID)
    expect((await auditRowsOf(ad.eventID)).map((r) => [r.action, r.actorUserId])).toEqual([
      ['auto_approve', null],
    ])
    const notices = await db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, 'review-waiting'), eq(outbox.toAddress, admin.email)))
    expect(notices.filter((m) => m.subject.endsWith(ad.eventTitle))).toEqual([])
    const approvedMail = await db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupeKey, `ad-approved:${ad.eventID}`))
    expect(approvedMail).toHaveLength(1)
  })

  test('any ad of an untrusted business waits in the queue', async () => {
    const untrusted = await insertBusiness(db)
    const ad = await withSamplePercent(0, () => payForNewAd(untrusted, 'New Venue Night'))
    expect(ad.eventStatus).toBe('pending')
    expect(ad.checkPendingSince).toBeNull()
    expect(await auditRowsOf(ad.eventID)).toEqual([])
  })

  test('a trusted business that gets a rejection is no longer auto-approved on its next payment', async () => {
    const owner = await insertBusiness(db)
    await approvedAd(owner)
    await approvedAd(owner)
    await approvedAd(owner)
    expect((await withSamplePercent(0, () => payForNewAd(owner, 'Still Trusted'))).eventStatus).toBe(
      'approved',
    )
    const rejected = await paidAdAwaitingReview(owner)
    expect((await review(rejected.eventID, 'reject', 'Misleading price')).status).toBe(302)
    const next = await withSamplePercent(0, () => payForNewAd(owner, 'After The Rejection'))
    expect(next.eventStatus).toBe('pending')
    expect(await auditRowsOf(next.eventID)).toEqual([])
  })
})

describe('the trust form on an ad’s admin page', () => {
  test('grant with a reason: recorded in the trail; no reason or another business’s id is a 400', async () => {
    const owner = await insertBusiness(db)
    const other = await insertBusiness(db)
    const ad = await paidAdAwaitingReview(owner)
    const id = String(ad.eventID)
    const post = (fields: Record<string, string>) =>
      postForm(adminEventRoute.action, `/admin/events/${id}`, fields, { cookie: adminCookie, params: { id } })

    const missing = await post({ intent: 'grant', businessID: String(owner.businessID), reason: '  ' })
    expect(missing.status).toBe(400)
    expect(
      ((await missing.json()) as { result: { error: Record<string, string[]> } }).result.error.reason,
    ).toEqual(['A reason is required to grant or revoke trust.'])
    // Posted without JavaScript, the page shows why at the reason.
    const refusedPage = await shownAfter(
      [{ path: '/admin/events/:id', ...adminEventRoute }],
      `/admin/events/${id}`,
      {
        method: 'POST',
        body: new URLSearchParams({ intent: 'grant', businessID: String(owner.businessID), reason: '  ' }),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: adminCookie },
      },
    )
    expect(refusedPage.status).toBe(400)
    expect(/<textarea[^>]*id="trust-reason"[^>]*>/.exec(refusedPage.html)?.[0]).toContain(
      'aria-invalid="true"',
    )
    expect(refusedPage.html).toMatch(
      /id="trust-reason-error"[^>]*>A reason is required to grant or revoke trust\.</,
    )
    const tampered = await post({ intent: 'grant', businessID: String(other.businessID), reason: 'x' })
    expect(tampered.status).toBe(400)
    expect((await trustOf(other.businessID)).trusted).toBe(false)

    const granted = await post({
      intent: 'grant',
      businessID: String(owner.businessID),
      reason: 'Known venue',
    })
    expect(granted.status).toBe(302)
    expect(await trustOf(owner.businessID)).toMatchObject({ trusted: true })
    const page = await callRoute(adminEventRoute.loader, `/admin/events/${id}`, {
      params: { id },
      headers: { Cookie: adminCookie },
    })
    expect(((await page.json()) as { trust: { trusted: boolean } }).trust.trusted).toBe(true)
  })
})

test('the checkout says before paying whether the ad goes live at once or after review', async () => {
  const owner = await insertBusiness(db)
  const ad = await insertTestEvent(owner, {
    eventStatus: 'pending',
    paymentStatus: 'pending',
    showAdOnDates: [addDaysIso(today, 2)],
  })
  const cookie = await sessionCookieFor({ business: owner })
  const checkout = async () =>
    (await (
      await callRoute(checkoutLoader, `/checkout?eventID=${ad.eventID}`, { headers: { Cookie: cookie } })
    ).json()) as { goesLiveAtPayment: boolean }
  expect((await checkout()).goesLiveAtPayment).toBe(false)
  await changeTrust(owner.businessID, { granted: true, reason: 'Regular', adminId: admin.id })
  expect((await checkout()).goesLiveAtPayment).toBe(true)
})
