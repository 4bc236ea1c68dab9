import '#app/zod-config.ts'
import { z } from 'zod'
import { idSchema } from '#app/models/platform/input-rules.ts'

/** The most ads one bulk approval takes (a day's queue; more are approved in several submits). */
export const BULK_APPROVAL_MAX = 100
export const BULK_APPROVAL_NONE_MESSAGE = 'Select at least one ad to approve.'
export const BULK_APPROVAL_TOO_MANY_MESSAGE = `Select at most ${BULK_APPROVAL_MAX} ads at once.`
export const BULK_APPROVAL_UNREADABLE_MESSAGE =
  'The selection could not be read: reload the moderation page and tick the ads again.'

/** A ticked ad's id, refused with what the administrator can do about it (the form was changed by hand). */
const tickedID = z.unknown().transform((value, ctx) => {
  const id = idSchema.safeParse(value)
  if (id.success) return id.data
  ctx.addIssue({ code: 'custom', message: BULK_APPROVAL_UNREADABLE_MESSAGE })
  return z.NEVER
})

/** The moderation page's "Approve selected" form: the ticked ads' ids, and the queue's day to go back to. */
export const bulkApprovalSchema = z.object({
  eventID: z
    .array(tickedID, { error: BULK_APPROVAL_NONE_MESSAGE })
    .min(1, BULK_APPROVAL_NONE_MESSAGE)
    .max(BULK_APPROVAL_MAX, BULK_APPROVAL_TOO_MANY_MESSAGE),
  date: z.string().max(20).optional(),
})
