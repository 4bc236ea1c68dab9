import { and, eq, like } from 'drizzle-orm'
import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { recordModerationDecision } from '#app/models/moderation/moderation-audit.server.ts'
import { loader as adminLoader } from '#app/routes/admin.tsx'
import {
  formatAge,
  runModerationDigestJob,
  sendModerationDigest,
} from '#app/services/moderation/queue-health.server.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { adReports, events, jobRuns, outbox, payments, type Business, type User } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { insertBusiness } from '#tests/support/events.ts'
import { paidAdAwaitingReview } from '#tests/support/moderation.ts'
import { callRoute } from '#tests/support/routes.ts'

const HOUR_MS = 60 * 60 * 1000
let owner: Business
let admin: User
let adminCookie: string

beforeAll(async () => {
  owner = await insertBusiness(db, { businessName: 'Queue Watch Ltd' })
  admin = await insertUser(db, { roles: ['admin'] })
  adminCookie = await sessionCookieFor({ user: admin })
})

beforeEach(async () => {
  await db.delete(events)
})

const hoursAgo = (hours: number, now = Date.now()) => new Date(now - hours * HOUR_MS)

async function reportAd(eventID: number, visitors: number) {
  for (let i = 0; i < visitors; i++)
    await db.insert(adReports).values({ eventID, reporterKey: `visitor-${eventID}-${i}`, reason: 'spam' })
}

const digestsTo = (email: string) =>
  db
    .select()
    .from(outbox)
    .where(and(eq(outbox.toAddress, email), eq(outbox.kind, 'moderation-digest')))

describe('queue health on /admin', () => {
  test('ads waiting, the oldest one’s age, the median time to a decision over 7 days, open reports', async () => {
    await paidAdAwaitingReview(owner, { createdDate: hoursAgo(30) })
    await paidAdAwaitingReview(owner, { createdDate: hoursAgo(2) })
    // Three decisions taken now on ads paid 2, 4 and 10 hours ago: the median is 4 hours.
    for (const paidHoursAgo of [2, 4, 10]) {
      const decided = await paidAdAwaitingReview(owner, { eventStatus: 'approved' })
      await db
        .update(payments)
        .set({ paid_at: hoursAgo(paidHoursAgo) })
        .where(eq(payments.eventID, decided.eventID))
      await db.transaction((tx) =>
        recordModerationDecision(tx, { action: 'approve', actorUserId: admin.id, eventID: decided.eventID }),
      )
    }
    const reported = await paidAdAwaitingReview(owner, { eventStatus: 'approved' })
    await reportAd(reported.eventID, 2)

    const res = await callRoute(adminLoader, '/admin', { headers: { Cookie: adminCookie } })
    expect(res.status).toBe(200)
    const { health } = (await res.json()) as { health: Record<string, unknown> }
    expect(health).toEqual({
      waiting: 2,
      checks: 0,
      oldestAge: '1 d 6 h',
      medianDecision: '4 h',
      openReports: 2,
      reportedAds: 1,
    })
  })

  test('an auto-approved ad waiting for its check counts as waiting, since its approval', async () => {
    await paidAdAwaitingReview(owner, { createdDate: hoursAgo(2) })
    await paidAdAwaitingReview(owner, {
      eventStatus: 'approved',
      createdDate: hoursAgo(50),
      checkPendingSince: hoursAgo(5),
    })
    const res = await callRoute(adminLoader, '/admin', { headers: { Cookie: adminCookie } })
    const { health } = (await res.json()) as { health: Record<string, unknown> }
    expect(health).toMatchObject({ waiting: 2, checks: 1, oldestAge: '5 h' })
  })

  test('ages read as people say them', () => {
    expect(formatAge(null)).toBe('—')
    expect(formatAge(59)).toBe('0 min')
    expect(formatAge(45 * 60)).toBe('45 min')
    expect(formatAge(5 * 3600 + 59)).toBe('5 h')
    expect(formatAge(49 * 3600)).toBe('2 d 1 h')
  })
})

describe('the daily digest to administrators', () => {
  test('not sent when nothing waits (an ad waiting under 24 hours does not count)', async () => {
    const now = new Date()
    await paidAdAwaitingReview(owner, { createdDate: hoursAgo(23, now.getTime()) })
    expect(await sendModerationDigest(now, 'https://shout.example')).toBe(0)
    expect(await digestsTo(admin.email)).toEqual([])
  })

  test('an ad waiting over 24 hours: each administrator gets one email, once a day', async () => {
    const now = new Date()
    const waiting = await paidAdAwaitingReview(owner, {
      eventTitle: 'Harvest <Fair>',
      createdDate: hoursAgo(26, now.getTime()),
    })
    expect(await sendModerationDigest(now, 'https://shout.example')).toBeGreaterThanOrEqual(1)
    const [mail, ...more] = await digestsTo(admin.email)
    expect(more).toEqual([])
    expect(mail!.subject).toBe('Moderation: 1 ad waiting over 24 hours')
    expect(mail!.textBody).toContain(`Harvest <Fair> (event ${waiting.eventID}): waiting 26 hours`)
    expect(mail!.textBody).toContain('Review them: https://shout.example/admin?date=all')
    expect(mail!.htmlBody).toContain('Harvest &lt;Fair&gt;')
    // The same day again: nothing new.
    await sendModerationDigest(new Date(now.getTime() + 1000), 'https://shout.example')
    expect(await digestsTo(admin.email)).toHaveLength(1)
  })

  test('an auto-approved ad waiting over 24 hours for its check is in the digest', async () => {
    await db.delete(outbox).where(like(outbox.kind, 'moderation-digest'))
    const now = new Date(Date.now() + 2 * 24 * HOUR_MS)
    const sampled = await paidAdAwaitingReview(owner, {
      eventTitle: 'Sampled Gig',
      eventStatus: 'approved',
      checkPendingSince: hoursAgo(30, now.getTime()),
    })
    await paidAdAwaitingReview(owner, {
      eventTitle: 'Checked Gig',
      eventStatus: 'approved',
      createdDate: hoursAgo(30, now.getTime()),
    })
    expect(await sendModerationDigest(now, 'https://shout.example')).toBeGreaterThanOrEqual(1)
    const [mail] = await digestsTo(admin.email)
    expect(mail!.subject).toBe('Moderation: 1 ad waiting over 24 hours')
    expect(mail!.textBody).toContain(`Sampled Gig (event ${sampled.eventID}): waiting 30 hours`)
    expect(mail!.textBody).not.toContain('Checked Gig')
  })

  test('an open report alone is enough', async () => {
    await db.delete(outbox).where(like(outbox.kind, 'moderation-digest'))
    const reported = await paidAdAwaitingReview(owner, {
      eventTitle: 'Reported Gig',
      eventStatus: 'approved',
    })
    await reportAd(reported.eventID, 1)
    const now = new Date()
    expect(await sendModerationDigest(now, 'https://shout.example')).toBeGreaterThanOrEqual(1)
    const [mail] = await digestsTo(admin.email)
    expect(mail!.subject).toBe('Moderation: 1 reported ad')
    expect(mail!.textBody).toContain(`Reported Gig (event ${reported.eventID}): 1 report`)
    expect(mail!.textBody).toContain('See the reports: https://shout.example/admin/reports')
  })

  test('as a scheduled job it runs once a day across servers', async () => {
    await db.delete(outbox).where(like(outbox.kind, 'moderation-digest'))
    await db.delete(jobRuns).where(eq(jobRuns.name, 'moderation-digest'))
    const now = new Date()
    await paidAdAwaitingReview(owner, { createdDate: hoursAgo(48, now.getTime()) })
    expect(await runModerationDigestJob(now)).toBeGreaterThanOrEqual(1)
    expect(await runModerationDigestJob(new Date(now.getTime() + HOUR_MS))).toBe(0)
    expect(await digestsTo(admin.email)).toHaveLength(1)
  })
})
