import { eq, inArray } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { action as bulkApprove, loader as bulkApproveLoader } from '#app/routes/admin_.bulk-approve.tsx'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { events, moderationAudit, outbox, type Business, type User } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { toastOf } from '#tests/support/cookie-jar.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { paidAdAwaitingReview, postForm } from '#tests/support/moderation.ts'
import { browse } from '#tests/support/document-request.ts'
import { callRoute } from '#tests/support/routes.ts'

const BULK_APPROVE_PAGE = [{ path: '/admin/bulk-approve', loader: bulkApproveLoader, action: bulkApprove }]
const UNREADABLE = 'The selection could not be read: reload the moderation page and tick the ads again.'

let owner: Business
let admin: User
let adminCookie: string

beforeAll(async () => {
  owner = await insertBusiness(db, { businessName: 'Many Ads Co' })
  admin = await insertUser(db, { roles: ['admin'] })
  adminCookie = await sessionCookieFor({ user: admin })
})

const approve = (fields: Record<string, string | string[]>) =>
  postForm(bulkApprove, '/admin/bulk-approve', fields, { cookie: adminCookie })

describe('POST /admin/bulk-approve', () => {
  test('20 ticked ads: 20 decisions, 20 emails, 20 audit rows, and back to the queue’s day', async () => {
    const ads = await Promise.all(Array.from({ length: 20 }, () => paidAdAwaitingReview(owner)))
    const ids = ads.map((a) => a.eventID)
    const res = await approve({ eventID: ids.map(String), date: '2026-01-15' })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/admin?date=2026-01-15')
    expect(await toastOf(res)).toMatchObject({
      title: '20 ads approved',
      description: 'Each advertiser is told by email.',
    })

    const decided = await db.select().from(events).where(inArray(events.eventID, ids))
    expect(decided.map((e) => [e.eventStatus, e.reviewedByUserId])).toEqual(
      ids.map(() => ['approved', admin.id]),
    )
    const mails = await db
      .select()
      .from(outbox)
      .where(
        inArray(
          outbox.dedupeKey,
          ids.map((id) => `ad-approved:${id}`),
        ),
      )
    expect(mails).toHaveLength(20)
    expect(new Set(mails.map((m) => m.toAddress))).toEqual(new Set([owner.businessEmail]))
    const audit = await db.select().from(moderationAudit).where(inArray(moderationAudit.eventID, ids))
    expect(audit).toHaveLength(20)
    expect(audit.every((row) => row.action === 'approve' && row.actorUserId === admin.id)).toBe(true)
  })

  test('an ad decided meanwhile is skipped and told; the others go through; a repeated id counts once', async () => {
    const fresh = await paidAdAwaitingReview(owner)
    const live = await insertTestEvent(owner)
    const res = await approve({
      eventID: [String(fresh.eventID), String(fresh.eventID), String(live.eventID), '999999999'],
    })
    expect(res.status).toBe(302)
    const toast = await toastOf(res)
    expect(toast).toMatchObject({ title: '1 ad approved', variant: 'destructive' })
    expect(toast?.description).toContain(`event ${live.eventID}: This event is not awaiting review`)
    expect(toast?.description).toContain('event 999999999: Event not found')
    const [after] = await db.select().from(events).where(eq(events.eventID, fresh.eventID))
    expect(after!.eventStatus).toBe('approved')
    expect(
      await db.select().from(moderationAudit).where(eq(moderationAudit.eventID, fresh.eventID)),
    ).toHaveLength(1)
  })

  test('a refused approval, posted without JavaScript, says why on the queue’s day; nothing is approved', async () => {
    const event = await paidAdAwaitingReview(owner)
    const ids = (count: number) => Array.from({ length: count }, (_, i) => String(event.eventID + i))
    for (const [eventID, why] of [
      [ids(1000), 'Select at most 100 ads at once.'],
      [ids(101), 'Select at most 100 ads at once.'],
      [['abc'], UNREADABLE],
      [['0', String(event.eventID)], UNREADABLE],
      [['99999999999999'], UNREADABLE],
      [[], 'Select at least one ad to approve.'],
    ] as const) {
      const fields = new URLSearchParams({ date: '2026-01-15' })
      for (const id of eventID) fields.append('eventID', id)
      const pages = await browse(BULK_APPROVE_PAGE, '/admin/bulk-approve', {
        method: 'POST',
        body: fields,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: adminCookie },
      })
      const shown = pages.at(-1)!
      expect(shown.location, `${eventID.length} ids`).toBe('/admin?date=2026-01-15')
      expect(await toastOf(shown.response!), `${eventID.length} ids`).toMatchObject({
        title: 'Nothing approved',
        description: why,
        variant: 'destructive',
      })
    }
    const [after] = await db.select().from(events).where(eq(events.eventID, event.eventID))
    expect(after!.eventStatus).toBe('pending')
    expect(await db.select().from(moderationAudit).where(eq(moderationAudit.eventID, event.eventID))).toEqual(
      [],
    )
  })

  test('opened directly (GET), it goes to the moderation page', async () => {
    const res = await callRoute(bulkApproveLoader, '/admin/bulk-approve', {
      headers: { Cookie: adminCookie },
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/admin')
  })
})
