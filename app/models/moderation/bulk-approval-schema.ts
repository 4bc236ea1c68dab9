import '#app/zod-config.ts'
import { z } from 'zod'
import { idSchema } from '#app/models/platform/input-rules.ts'

/** The most ads one bulk approval takes (a day's queue; more are approved in several submits). */
export const BULK_APPROVAL_MAX = 100
export const BULK_APPROVAL_NONE_MESSAGE = 'Select at least one ad to approve.'

/** The moderation page's "Approve selected" form: the ticked ads' ids, and the queue's day to go back to. */
export const bulkApprovalSchema = z.object({
  eventID: z
    .array(idSchema, { error: BULK_APPROVAL_NONE_MESSAGE })
    .min(1, BULK_APPROVAL_NONE_MESSAGE)
    .max(BULK_APPROVAL_MAX, `Select at most ${BULK_APPROVAL_MAX} ads at once.`),
  date: z.string().max(20).optional(),
})
