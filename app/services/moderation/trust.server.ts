import {
  autoApproveIfTrusted,
  businessTrust,
  setBusinessTrust,
} from '#app/models/moderation/business-trust.server.ts'
import { autoApproveRevision } from '#app/models/ads/event-revision.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import type { Transaction } from '#db/client.server.ts'
import { linkOrigin } from '../http/site-url.server.ts'
import { deleteStoredMedia } from '../media/media.server.ts'
import { getEnv } from '../platform/env.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import { adModerationRecord } from './audit-trail.server.ts'

/** Whether a business is trusted now, and why (TRUSTED_AFTER_APPROVALS approved ads, or an administrator's word). */
export function trustOf(businessID: number) {
  return businessTrust(businessID, { approvalsNeeded: getEnv().TRUSTED_AFTER_APPROVALS })
}

/**
 * In the payment's transaction: a trusted business's ad goes live at once; a sample of them (TRUSTED_SAMPLE_PERCENT,
 * drawn by `random`) is also listed for an administrator's check after the fact.
 */
export function autoApproveAtPayment(
  tx: Transaction,
  eventID: number,
  { origin, random = Math.random }: { origin: string; random?: () => number },
) {
  const { TRUSTED_AFTER_APPROVALS, TRUSTED_SAMPLE_PERCENT } = getEnv()
  return autoApproveIfTrusted(tx, eventID, {
    approvalsNeeded: TRUSTED_AFTER_APPROVALS,
    sampled: random() * 100 < TRUSTED_SAMPLE_PERCENT,
    today: platformToday(),
    origin,
  })
}

/**
 * After a business saved an edit of its live ad: a trusted business's edit is applied at once (sampled as at
 * payment), an untrusted one's waits for review. Returns whether it was applied.
 */
export async function autoApplyRevisionIfTrusted(
  eventID: number,
  businessID: number,
  { origin = linkOrigin(), random = Math.random }: { origin?: string; random?: () => number } = {},
) {
  const trust = await trustOf(businessID)
  if (!trust.trusted) return false
  const applied = await autoApproveRevision(eventID, {
    origin,
    reason: `trusted business (${trust.because})`,
    sampled: random() * 100 < getEnv().TRUSTED_SAMPLE_PERCENT,
  })
  if (!applied) return false
  await deleteStoredMedia(applied.unusedMedia)
  return true
}

/** An administrator grants or revokes a business's trust with a reason; the toast to show. */
export async function changeTrust(
  businessID: number,
  { granted, reason, adminId }: { granted: boolean; reason: string; adminId: string },
) {
  await setBusinessTrust(businessID, { granted, reason, adminId })
  return granted
    ? { title: 'Trust granted', description: 'Its next paid ads go live at payment.' }
    : { title: 'Trust revoked', description: 'Its next paid ads wait for a review.' }
}

/**
 * Grants or revokes trust from an ad's admin page: the business must be the ad's own, so a tampered business id is
 * refused (invalid), never applied to another business. Answers the ad's id and the toast.
 */
export async function changeTrustFromAd(
  adIdParam: string | undefined,
  { businessID, ...change }: { businessID: number; granted: boolean; reason: string; adminId: string },
) {
  const { event } = await adModerationRecord(adIdParam)
  if (businessID !== event.businessID) throw new AppError('That is not this ad’s business.', 'invalid')
  return { eventID: event.eventID, toast: await changeTrust(businessID, change) }
}
