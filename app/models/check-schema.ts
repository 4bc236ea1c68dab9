import '#app/zod-config.ts'
import { z } from 'zod'
import { idSchema, text } from './input-rules.ts'
import { TAKEDOWN_REASON_MAX, TAKEDOWN_REASON_REQUIRED } from './report-schema.ts'

/** An administrator's check of an auto-approved ad (/admin/checks): confirm it, or take it down with a reason. */
export const autoApprovalCheckSchema = z
  .object({
    intent: z.enum(['confirm', 'takedown'], { error: 'intent must be confirm or takedown' }),
    eventID: idSchema,
    reason: text()
      .trim()
      .max(TAKEDOWN_REASON_MAX, `Keep the reason under ${TAKEDOWN_REASON_MAX} characters.`)
      .optional(),
  })
  .superRefine((value, ctx) => {
    if (value.intent === 'takedown' && !value.reason)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: TAKEDOWN_REASON_REQUIRED })
  })
