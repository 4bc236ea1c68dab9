import { and, asc, eq, isNotNull, sql } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { events } from '#db/schema.ts'
import { recordModerationDecision } from '#app/models/moderation/moderation-audit.server.ts'

/** An auto-approved ad of the sample: live since its payment, waiting for an administrator's check. */
const checkPending = isNotNull(events.checkPendingSince)

/** The auto-approved ads waiting for a check, oldest first (at most `limit`). */
export function listAutoApprovalChecks(limit: number) {
  return db
    .select({
      eventID: events.eventID,
      eventTitle: events.eventTitle,
      businessName: events.businessName,
      eventStatus: events.eventStatus,
      checkPendingSince: events.checkPendingSince,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(events)
    .where(checkPending)
    .orderBy(asc(events.checkPendingSince), asc(events.eventID))
    .limit(limit)
}

/** How many auto-approved ads wait for a check, and since when the oldest does. */
export async function autoApprovalCheckBacklog() {
  const [row] = await db
    .select({
      count: sql<number>`count(*)`.mapWith(Number),
      oldest: sql<Date | null>`min(${events.checkPendingSince})`.mapWith(events.checkPendingSince),
    })
    .from(events)
    .where(checkPending)
  return { count: row?.count ?? 0, oldest: row?.oldest ?? null }
}

/**
 * An administrator confirms an auto-approved ad: it leaves the check list, and the trail records it as checked. One
 * conditional UPDATE, so of two confirmations only one applies. Null when no check was waiting for that ad.
 */
export function confirmAutoApprovalCheck(eventID: number, adminId: string) {
  return db.transaction(async (tx) => {
    const [ad] = await tx
      .update(events)
      .set({ checkPendingSince: null })
      .where(and(eq(events.eventID, eventID), checkPending))
      .returning({ eventTitle: events.eventTitle, businessID: events.businessID })
    if (!ad) return null
    await recordModerationDecision(tx, {
      action: 'checked',
      actorUserId: adminId,
      eventID,
      businessID: ad.businessID,
      reason: 'auto-approved ad confirmed',
    })
    return ad
  })
}
