import { isAppError } from '#app/utils/app-error.ts'
import { reviewEvent } from './moderation.server.ts'

export interface BulkApprovalOutcome {
  approved: number
  /** Ads that could not be approved (decided meanwhile, or gone), with why. */
  skipped: { eventID: number; message: string }[]
}

/**
 * Approves each ad as if alone (its own transaction, email and audit row), one after the other; an ad that can no
 * longer be approved is skipped and told, the others still go through. Duplicate ids count once.
 */
export async function approveSelected(
  eventIDs: readonly number[],
  reviewer: { reviewerId: string; today: string; origin: string },
): Promise<BulkApprovalOutcome> {
  const outcome: BulkApprovalOutcome = { approved: 0, skipped: [] }
  for (const eventID of new Set(eventIDs)) {
    try {
      await reviewEvent({ eventID, action: 'approve', reason: '' }, reviewer)
      outcome.approved++
    } catch (error) {
      if (!isAppError(error)) throw error
      outcome.skipped.push({ eventID, message: error.message })
    }
  }
  return outcome
}

/** What the moderation page's toast says after a bulk approval. */
export function bulkApprovalToast({ approved, skipped }: BulkApprovalOutcome) {
  const title = `${approved} ad${approved === 1 ? '' : 's'} approved`
  if (skipped.length === 0) return { title, description: 'Each advertiser is told by email.' }
  // The toast travels in a cookie: a few examples, then how many more.
  const listed = skipped.slice(0, 3).map((s) => `event ${s.eventID}: ${s.message}`)
  const more = skipped.length > listed.length ? `; and ${skipped.length - listed.length} more` : ''
  return {
    title,
    description: `${skipped.length} not approved (${listed.join('; ')}${more}).`,
    variant: 'destructive' as const,
  }
}
