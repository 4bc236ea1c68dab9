import { and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm'
import { db, type Transaction } from '#db/client.server.ts'
import { moderationAudit, users } from '#db/schema.ts'

/** Every kind of moderation decision the trail records. */
export const AUDIT_ACTIONS = [
  'approve',
  'auto_approve',
  'checked',
  'request_changes',
  'reject',
  'takedown',
  'trust_granted',
  'trust_revoked',
  'reports_dismissed',
  'status_cancelled',
  'status_postponed',
  'status_sold_out',
  'status_back_on',
] as const

export type AuditAction = (typeof AUDIT_ACTIONS)[number]

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  approve: 'Approved',
  auto_approve: 'Auto-approved',
  checked: 'Checked after auto-approval',
  request_changes: 'Changes requested',
  reject: 'Rejected',
  takedown: 'Taken down',
  trust_granted: 'Trust granted',
  trust_revoked: 'Trust revoked',
  reports_dismissed: 'Reports dismissed',
  status_cancelled: 'Marked cancelled',
  status_postponed: 'Marked postponed',
  status_sold_out: 'Marked sold out',
  status_back_on: 'Back on',
}

export interface AuditRecord {
  action: AuditAction
  /** The administrator who decided; none for the platform's own decisions (auto-approval, trust lost by a rule). */
  actorUserId?: string | null
  /** Who acted when it was not a staff account: the advertiser's email (their own ad's schedule status). */
  actorEmail?: string
  eventID?: number | null
  businessID?: number | null
  revision?: boolean
  reason?: string
}

/**
 * Appends a decision to the trail, in the transaction of the decision itself (so the trail holds exactly the
 * decisions that happened). The actor's email is copied, so the trail still names them if the account goes.
 */
export async function recordModerationDecision(tx: Transaction, record: AuditRecord) {
  const actorUserId = record.actorUserId ?? null
  await tx.insert(moderationAudit).values({
    action: record.action,
    actorUserId,
    actorEmail: actorUserId
      ? sql`coalesce((select ${users.email} from ${users} where ${users.id} = ${actorUserId}), '')`
      : (record.actorEmail ?? ''),
    eventID: record.eventID ?? null,
    businessID: record.businessID ?? null,
    revision: record.revision ?? false,
    reason: record.reason ?? '',
  })
}

/** An ad's decisions, newest first. */
export function auditTrailOfEvent(eventID: number) {
  return db
    .select()
    .from(moderationAudit)
    .where(eq(moderationAudit.eventID, eventID))
    .orderBy(desc(moderationAudit.occurredAt), desc(moderationAudit.id))
}

const SCHEDULE_ACTIONS: AuditAction[] = [
  'status_cancelled',
  'status_postponed',
  'status_sold_out',
  'status_back_on',
]

/** An ad's schedule status changes, oldest first, labelled ("Marked cancelled", "Back on"), with their notes. */
export async function scheduleChangesOf(eventID: number) {
  const rows = await db
    .select({
      action: moderationAudit.action,
      reason: moderationAudit.reason,
      occurredAt: moderationAudit.occurredAt,
    })
    .from(moderationAudit)
    .where(and(eq(moderationAudit.eventID, eventID), inArray(moderationAudit.action, SCHEDULE_ACTIONS)))
    .orderBy(asc(moderationAudit.occurredAt), asc(moderationAudit.id))
  return rows.map((row) => ({ ...row, label: AUDIT_ACTION_LABELS[row.action as AuditAction] }))
}

/** Which decisions of the trail: those taken in [start, end), of one kind, by one administrator (null: any). */
export interface AuditTrailFilter {
  start: Date
  end: Date
  action: AuditAction | null
  actorUserId: string | null
}

// Each filter has an index that walks its rows in time order, either way (migration 0023): the range alone
// moderation_audit_occurred_idx, an administrator's decisions moderation_audit_actor_idx, a kind of decision
// moderation_audit_action_idx.
const matching = ({ start, end, action, actorUserId }: AuditTrailFilter) =>
  and(
    gte(moderationAudit.occurredAt, start),
    lt(moderationAudit.occurredAt, end),
    action ? eq(moderationAudit.action, action) : undefined,
    actorUserId ? eq(moderationAudit.actorUserId, actorUserId) : undefined,
  )

/** The decisions matching `filter`, oldest first (the CSV download). */
export function auditTrailBetween(filter: AuditTrailFilter) {
  return db
    .select()
    .from(moderationAudit)
    .where(matching(filter))
    .orderBy(asc(moderationAudit.occurredAt), asc(moderationAudit.id))
}

/** One page of the decisions matching `filter`, newest first: `limit` of them after the first `offset`. */
export function auditTrailPage(
  filter: AuditTrailFilter,
  { offset, limit }: { offset: number; limit: number },
) {
  return db
    .select()
    .from(moderationAudit)
    .where(matching(filter))
    .orderBy(desc(moderationAudit.occurredAt), desc(moderationAudit.id))
    .offset(offset)
    .limit(limit)
}

/** The administrators (the accounts with the role now), by email: who the trail can be filtered by. */
export function administrators() {
  return db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(sql`'admin' = any(${users.roles})`)
    .orderBy(asc(users.email))
}
