import { and, asc, eq, gte, inArray, isNotNull, lte, or, sql } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { adReports, events, moderationAudit, payments, users } from '#db/schema.ts'
import { forTheAd } from '#app/models/payments/payment.server.ts'
import { autoApprovalCheckBacklog } from '#app/models/moderation/auto-approval-check.server.ts'
import type { ComposedMail } from '#app/models/mail/mail-templates.ts'
import { reviewQueueBacklog } from '#app/models/moderation/pending-review.server.ts'
import { enqueueMessage } from '#app/models/mail/outbox.server.ts'

/** The decisions a reviewer takes on a paid ad in the queue (the time to one of them is the queue's speed). */
const QUEUE_DECISIONS = ['approve', 'reject', 'request_changes'] as const

/**
 * The median time, in seconds, from an ad's payment to an administrator's decision on it, over the decisions taken
 * since `since` (edits of live ads and the platform's own decisions left out); null without any.
 */
export async function medianDecisionSeconds(since: Date): Promise<number | null> {
  const paidAt = db
    .select({ eventID: payments.eventID, paidAt: sql<Date>`max(${payments.paid_at})`.as('paidAt') })
    .from(payments)
    .where(and(sql`${payments.paid_at} is not null`, forTheAd))
    .groupBy(payments.eventID)
    .as('paid')
  const [row] = await db
    .select({
      median: sql<
        number | null
      >`percentile_cont(0.5) within group (order by extract(epoch from ${moderationAudit.occurredAt} - ${paidAt.paidAt}))`.mapWith(
        (value) => (value === null ? null : Number(value)),
      ),
    })
    .from(moderationAudit)
    .innerJoin(paidAt, eq(paidAt.eventID, moderationAudit.eventID))
    .where(
      and(
        inArray(moderationAudit.action, [...QUEUE_DECISIONS]),
        eq(moderationAudit.revision, false),
        gte(moderationAudit.occurredAt, since),
      ),
    )
  return row?.median ?? null
}

/** Open reports: how many, and on how many ads. */
export async function openReportCounts() {
  const [row] = await db
    .select({
      reports: sql<number>`count(*)`.mapWith(Number),
      ads: sql<number>`count(distinct ${adReports.eventID})`.mapWith(Number),
    })
    .from(adReports)
    .where(eq(adReports.status, 'open'))
  return { reports: row?.reports ?? 0, ads: row?.ads ?? 0 }
}

const earliest = (a: Date | null, b: Date | null) => (a && b ? (a < b ? a : b) : (a ?? b))

/**
 * The moderation queue's health: what waits (paid ads to review and auto-approved ads to check), since when, how
 * fast decisions come, and the open reports.
 */
export async function queueHealth(now: Date) {
  const [backlog, checks, median, reports] = await Promise.all([
    reviewQueueBacklog(),
    autoApprovalCheckBacklog(),
    medianDecisionSeconds(new Date(now.getTime() - 7 * 24 * 60 * 60 * 1000)),
    openReportCounts(),
  ])
  return {
    waiting: backlog.count + checks.count,
    checks: checks.count,
    oldest: earliest(backlog.oldest, checks.oldest),
    medianDecisionSeconds: median,
    openReports: reports,
  }
}

/**
 * Ads waiting since before `before`, oldest first (at most `limit`): paid ads awaiting review (waiting since their
 * upload) and auto-approved ads awaiting their check (since their approval).
 */
export function adsWaitingSince(before: Date, limit: number) {
  const waitingSince = sql<Date>`coalesce(${events.checkPendingSince}, ${events.createdDate})`
  return db
    .select({
      eventID: events.eventID,
      eventTitle: events.eventTitle,
      waitingSince: waitingSince.mapWith(events.createdDate),
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(events)
    .where(
      or(
        and(
          eq(events.eventStatus, 'pending'),
          eq(events.paymentStatus, 'paid'),
          lte(events.createdDate, before),
        ),
        and(isNotNull(events.checkPendingSince), lte(events.checkPendingSince, before)),
      ),
    )
    .orderBy(asc(waitingSince), asc(events.eventID))
    .limit(limit)
}

/**
 * Queues one email to every administrator, at most once per `dedupeKey` and administrator (a job that runs twice
 * sends it once). Returns how many were queued.
 */
export async function enqueueToAdministrators(kind: string, mail: ComposedMail, dedupeKey: string) {
  return db.transaction(async (tx) => {
    const admins = await tx
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(sql`'admin' = any(${users.roles})`)
    let queued = 0
    for (const admin of admins) {
      const row = await enqueueMessage(tx, {
        kind,
        to: admin.email,
        ...mail,
        dedupeKey: `${dedupeKey}:${admin.id}`,
      })
      if (row) queued++
    }
    return queued
  })
}
