/**
 * The sample of a trusted business's auto-approved ads: live at payment like the others, and listed on /admin as
 * "Auto-approved — check" until an administrator confirms it or takes it down.
 */
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { getLiveEventsPage } from '#app/models/calendar/cached-listing.server.ts'
import { EMPTY_CALENDAR_FILTERS } from '#app/models/calendar/calendar-filters.ts'
import { loader as adminLoader } from '#app/routes/admin.tsx'
import * as checksRoute from '#app/routes/admin_.checks.tsx'
import { changeTrust } from '#app/services/moderation/trust.server.ts'
import { NO_CHECK_WAITING } from '#app/services/moderation/auto-approval-checks.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { events, outbox, type Business, type User } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { insertBusiness } from '#tests/support/events.ts'
import { auditRowsOf, mailTo, postForm } from '#tests/support/moderation.ts'
import { shownAfter, textOf } from '#tests/support/document-request.ts'
import { callRoute } from '#tests/support/routes.ts'
import { payForNewAd, withSamplePercent } from '#tests/support/trust.ts'

/** A refused decision: the one form recipe's reply, messages per field ('' = the form's own). */
type Refused = { result: { error: Record<string, string[]> } }

const today = platformToday()
let admin: User
let adminCookie: string
let trusted: Business

beforeAll(async () => {
  admin = await insertUser(db, { roles: ['admin'] })
  adminCookie = await sessionCookieFor({ user: admin })
  trusted = await trustedBusiness()
})

/** A business an administrator trusts (a fresh one where a test takes an ad down, which ends trust). */
async function trustedBusiness() {
  const owner = await insertBusiness(db)
  await changeTrust(owner.businessID, { granted: true, reason: 'Long-standing venue', adminId: admin.id })
  return owner
}

interface AdminPage {
  checks: { total: number; ads: { eventID: number; eventTitle: string; live: boolean }[] }
  health: { waiting: number; checks: number }
}

async function adminPage(cookie = adminCookie) {
  const res = await callRoute(adminLoader, '/admin?date=all', { headers: { Cookie: cookie } })
  expect(res.status).toBe(200)
  return (await res.json()) as AdminPage
}

const listedIDs = async () => (await adminPage()).checks.ads.map((ad) => ad.eventID)

const shownIDs = async () =>
  (await getLiveEventsPage(EMPTY_CALENDAR_FILTERS, { today, limit: 100 })).map((e) => e.eventID)

const check = (fields: Record<string, string>, cookie = adminCookie) =>
  postForm(checksRoute.action, '/admin/checks', fields, { cookie })

const adRow = async (eventID: number) =>
  (await db.select().from(events).where(eq(events.eventID, eventID)))[0]!

describe('at payment', () => {
  test('a sampled ad is live at once, audited and emailed like the others, and listed for a check', async () => {
    const ad = await withSamplePercent(100, () => payForNewAd(trusted, 'Sampled Quiz Night'))
    expect(ad).toMatchObject({ eventStatus: 'approved', paymentStatus: 'paid', approvedDateByAdmin: today })
    expect(ad.checkPendingSince).toBeInstanceOf(Date)
    expect(await shownIDs()).toContain(ad.eventID)
    expect((await auditRowsOf(ad.eventID)).map((r) => [r.action, r.actorUserId])).toEqual([
      ['auto_approve', null],
    ])
    expect(
      await db
        .select()
        .from(outbox)
        .where(eq(outbox.dedupeKey, `ad-approved:${ad.eventID}`)),
    ).toHaveLength(1)

    const page = await adminPage()
    expect(page.checks.ads).toContainEqual(
      expect.objectContaining({ eventID: ad.eventID, eventTitle: 'Sampled Quiz Night', live: true }),
    )
    expect(page.health.checks).toBe(page.checks.total)
    expect(page.health.waiting).toBeGreaterThanOrEqual(page.checks.total)
  })

  test('a trusted ad that is not sampled is live and not listed', async () => {
    const ad = await withSamplePercent(0, () => payForNewAd(trusted, 'Unsampled Quiz Night'))
    expect(ad.eventStatus).toBe('approved')
    expect(ad.checkPendingSince).toBeNull()
    expect(await listedIDs()).not.toContain(ad.eventID)
  })
})

describe('the administrator’s check', () => {
  test('confirming removes it from the list, with a "checked" audit row; a second confirmation is a 409', async () => {
    const ad = await withSamplePercent(100, () => payForNewAd(trusted, 'Confirmed Gig'))
    const res = await check({ intent: 'confirm', eventID: String(ad.eventID) })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/admin')
    expect(await listedIDs()).not.toContain(ad.eventID)
    expect((await auditRowsOf(ad.eventID)).map((r) => [r.action, r.actorUserId])).toEqual([
      ['auto_approve', null],
      ['checked', admin.id],
    ])
    expect(await shownIDs()).toContain(ad.eventID)

    const again = await check({ intent: 'confirm', eventID: String(ad.eventID) })
    expect(again.status).toBe(409)
    expect(((await again.json()) as Refused).result.error['']).toEqual([NO_CHECK_WAITING])
  })

  test('taking it down removes it from the public pages and the list; the advertiser is told; no refund', async () => {
    const owner = await trustedBusiness()
    const ad = await withSamplePercent(100, () => payForNewAd(owner, 'Taken Down Gig'))
    const res = await check({ intent: 'takedown', eventID: String(ad.eventID), reason: 'Fake venue address' })
    expect(res.status).toBe(302)
    expect(await shownIDs()).not.toContain(ad.eventID)
    expect(await listedIDs()).not.toContain(ad.eventID)
    expect(await adRow(ad.eventID)).toMatchObject({
      eventStatus: 'taken_down',
      paymentStatus: 'paid',
      rejectionReason: 'Fake venue address',
      checkPendingSince: null,
    })
    expect((await auditRowsOf(ad.eventID)).map((r) => [r.action, r.reason])).toContainEqual([
      'takedown',
      'Fake venue address',
    ])
    expect((await mailTo(owner.businessEmail)).map((m) => m.kind)).toContain('ad-taken-down')
  })

  test('hostile input: no reason, a tampered intent or id, another ad, huge values are refused without change', async () => {
    const ad = await withSamplePercent(100, () => payForNewAd(trusted, 'Guarded Gig'))
    const id = String(ad.eventID)
    const noReason = await check({ intent: 'takedown', eventID: id, reason: '   ' })
    expect(noReason.status).toBe(400)
    expect(((await noReason.json()) as Refused).result.error.reason).toEqual([
      'A reason is required to take an ad down (the advertiser reads it).',
    ])
    expect((await check({ intent: 'approve', eventID: id })).status).toBe(400)
    expect((await check({ intent: 'confirm', eventID: 'DROP TABLE events' })).status).toBe(400)
    expect((await check({ intent: 'confirm', eventID: '99999999999999999999' })).status).toBe(400)
    expect((await check({ intent: 'takedown', eventID: id, reason: 'x'.repeat(5000) })).status).toBe(400)

    // Posted without JavaScript, the refusal's page says why.
    const refusedPage = await shownAfter([{ path: '/admin/checks', ...checksRoute }], '/admin/checks', {
      method: 'POST',
      body: new URLSearchParams({ intent: 'takedown', eventID: id, reason: '   ' }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: adminCookie },
    })
    expect(refusedPage.status).toBe(400)
    expect(textOf(refusedPage.html)).toContain(
      'A reason is required to take an ad down (the advertiser reads it).',
    )

    const other = await insertBusiness(db)
    const unsampled = await withSamplePercent(100, () => payForNewAd(other, 'Untrusted Gig'))
    expect(unsampled.eventStatus).toBe('pending')
    expect((await check({ intent: 'confirm', eventID: String(unsampled.eventID) })).status).toBe(409)
    expect((await auditRowsOf(unsampled.eventID)).map((r) => r.action)).toEqual([])

    expect(await listedIDs()).toContain(ad.eventID)
    expect((await adRow(ad.eventID)).eventStatus).toBe('approved')
  })

  test('an advertiser (even the ad’s own) and an anonymous visitor cannot check an ad', async () => {
    const ad = await withSamplePercent(100, () => payForNewAd(trusted, 'Owner Tries Gig'))
    const ownerCookie = await sessionCookieFor({ business: trusted })
    const byOwner = await check({ intent: 'confirm', eventID: String(ad.eventID) }, ownerCookie).catch(
      (thrown: unknown) => thrown as Response,
    )
    expect([401, 403]).toContain(byOwner.status)
    const anonymous = await postForm(checksRoute.action, '/admin/checks', {
      intent: 'confirm',
      eventID: String(ad.eventID),
    }).catch((thrown: unknown) => thrown as Response)
    expect(anonymous.status).toBe(302)
    expect(await listedIDs()).toContain(ad.eventID)
  })
})
