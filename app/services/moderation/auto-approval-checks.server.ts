import {
  confirmAutoApprovalCheck,
  listAutoApprovalChecks,
} from '#app/models/moderation/auto-approval-check.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { autoApprovalChecksDecided } from '../platform/metrics.server.ts'
import { takeDown } from './reports.server.ts'

/** The most auto-approved ads the check list on /admin shows. */
const CHECK_LIST_MAX = 100

export const NO_CHECK_WAITING = 'This ad is not waiting for a check (someone may have decided already).'

/** The check list on /admin: auto-approved ads of the sample, oldest first, and how many there are in all. */
export async function autoApprovalChecksView() {
  const rows = await listAutoApprovalChecks(CHECK_LIST_MAX)
  return {
    total: rows[0]?.total ?? 0,
    ads: rows.map((row) => ({
      eventID: row.eventID,
      eventTitle: row.eventTitle,
      businessName: row.businessName,
      live: row.eventStatus === 'approved',
      approvedAt: row.checkPendingSince?.toISOString() ?? '',
    })),
  }
}

export type AutoApprovalChecksView = Awaited<ReturnType<typeof autoApprovalChecksView>>

/**
 * An administrator's check of an auto-approved ad: confirmed (it leaves the list, audited as checked) or taken down
 * with a reason (the reports' takedown: email, label, audit row, no refund). The toast to show; a conflict when no check
 * waits.
 */
export async function decideAutoApprovalCheck(
  decision: { intent: 'confirm' | 'takedown'; eventID: number; reason?: string },
  { adminId, origin }: { adminId: string; origin: string },
) {
  if (decision.intent === 'takedown') {
    const toast = await takeDown(decision.eventID, adminId, decision.reason ?? '', origin)
    autoApprovalChecksDecided.inc({ outcome: 'taken_down' })
    return toast
  }
  const confirmed = await confirmAutoApprovalCheck(decision.eventID, adminId)
  if (!confirmed) throw new AppError(NO_CHECK_WAITING, 'conflict')
  autoApprovalChecksDecided.inc({ outcome: 'confirmed' })
  return { title: 'Ad checked', description: `"${confirmed.eventTitle}" stays live; it left the check list.` }
}
