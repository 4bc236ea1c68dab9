import { autoApproveIfTrusted, businessTrust, setBusinessTrust } from '#app/models/business-trust.server.ts'
import type { Transaction } from '#db/client.server.ts'
import { getEnv } from '../platform/env.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'

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
