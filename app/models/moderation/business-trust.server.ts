import { and, eq, sql } from 'drizzle-orm'
import { db, rowsOf, type Transaction } from '#db/client.server.ts'
import { events } from '#db/schema.ts'
import { recordModerationDecision } from '#app/models/moderation/moderation-audit.server.ts'
import { enqueueAdApprovedEmail } from '#app/models/mail/notifications.server.ts'
import { announcePublicPagesChanged } from '#app/models/calendar/public-pages-changes.server.ts'

type Executor = Transaction | typeof db

/** A rejection or takedown (an upheld report) in this many days keeps a business from being trusted by its record. */
export const TRUST_MEMORY_DAYS = 90

export interface BusinessTrust {
  trusted: boolean
  /** Why, for the administrators. */
  because: string
  approvals: number
}

interface TrustFacts {
  approvals: number | string
  last_strike: Date | string | null
  override_action: string | null
  override_at: Date | string | null
}

const instant = (value: Date | string | null) => (value === null ? null : new Date(value))

/**
 * Whether a business is trusted: an administrator's latest grant (newer than its latest rejection or takedown) makes
 * it so and their latest revoke undoes it; otherwise `approvalsNeeded` approved ads and no rejection or takedown in
 * the last 90 days. Read from the ads and the audit trail, so it is never out of step with them.
 */
export async function businessTrust(
  businessID: number,
  {
    approvalsNeeded,
    now = new Date(),
    executor = db,
  }: { approvalsNeeded: number; now?: Date; executor?: Executor },
): Promise<BusinessTrust> {
  const [facts] = rowsOf<TrustFacts>(
    await executor.execute(sql`
      select
        (select count(*) from events
          where "businessID" = ${businessID} and "eventStatus" = 'approved' and "paymentStatus" = 'paid') as approvals,
        (select max("occurredAt") from moderation_audit
          where "businessID" = ${businessID} and not revision and action in ('reject', 'takedown')) as last_strike,
        (select action from moderation_audit
          where "businessID" = ${businessID} and action in ('trust_granted', 'trust_revoked')
          order by "occurredAt" desc, id desc limit 1) as override_action,
        (select max("occurredAt") from moderation_audit
          where "businessID" = ${businessID} and action in ('trust_granted', 'trust_revoked')) as override_at`),
  )
  const approvals = Number(facts?.approvals ?? 0)
  const lastStrike = instant(facts?.last_strike ?? null)
  const overrideAt = instant(facts?.override_at ?? null)
  const override = overrideAt && (!lastStrike || overrideAt > lastStrike) ? facts?.override_action : null
  if (override === 'trust_revoked')
    return { trusted: false, because: 'revoked by an administrator', approvals }
  if (override === 'trust_granted')
    return { trusted: true, because: 'granted by an administrator', approvals }
  if (lastStrike && now.getTime() - lastStrike.getTime() < TRUST_MEMORY_DAYS * 24 * 60 * 60 * 1000)
    return {
      trusted: false,
      because: `a rejection or takedown in the last ${TRUST_MEMORY_DAYS} days`,
      approvals,
    }
  if (approvals >= approvalsNeeded)
    return {
      trusted: true,
      because: `${approvals} approved ads, none rejected or taken down lately`,
      approvals,
    }
  return { trusted: false, because: `${approvals} of ${approvalsNeeded} approved ads needed`, approvals }
}

/** An administrator grants or revokes a business's trust, with a reason (recorded in the audit trail). */
export async function setBusinessTrust(
  businessID: number,
  { granted, reason, adminId }: { granted: boolean; reason: string; adminId: string },
) {
  await db.transaction((tx) =>
    recordModerationDecision(tx, {
      action: granted ? 'trust_granted' : 'trust_revoked',
      actorUserId: adminId,
      businessID,
      reason,
    }),
  )
}

/**
 * At payment: a trusted business's ad goes live at once, marked auto-approved in the audit trail, with the approval
 * email; every server forgets its public pages. A `sampled` ad goes live the same way and is also listed for an
 * administrator's check after the fact (`checkPendingSince`). Runs in the payment's transaction. Returns whether the
 * ad was approved.
 */
export async function autoApproveIfTrusted(
  tx: Transaction,
  eventID: number,
  {
    approvalsNeeded,
    sampled,
    today,
    origin,
  }: { approvalsNeeded: number; sampled: boolean; today: string; origin: string },
) {
  const [ad] = await tx
    .select({ businessID: events.businessID, eventStatus: events.eventStatus })
    .from(events)
    .where(eq(events.eventID, eventID))
    .limit(1)
  if (!ad || ad.eventStatus !== 'pending') return false
  const trust = await businessTrust(ad.businessID, { approvalsNeeded, executor: tx })
  if (!trust.trusted) return false
  const [approved] = await tx
    .update(events)
    .set({
      eventStatus: 'approved',
      approvedDateByAdmin: today,
      rejectionReason: '',
      reviewedAt: new Date(),
      checkPendingSince: sampled ? new Date() : null,
    })
    .where(
      and(eq(events.eventID, eventID), eq(events.eventStatus, 'pending'), eq(events.paymentStatus, 'paid')),
    )
    .returning({ eventID: events.eventID })
  if (!approved) return false
  await recordModerationDecision(tx, {
    action: 'auto_approve',
    eventID,
    businessID: ad.businessID,
    reason: `trusted business (${trust.because})${sampled ? '; sampled for a check' : ''}`,
  })
  await enqueueAdApprovedEmail(tx, { eventID, origin })
  await announcePublicPagesChanged(tx)
  return true
}
