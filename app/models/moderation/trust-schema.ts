import '#app/zod-config.ts'
import { z } from 'zod'
import { idSchema, text } from '#app/models/platform/input-rules.ts'

export const TRUST_REASON_MAX = 500

/** An administrator's grant or revoke of a business's trust (the form on an ad's admin page). */
export const trustFormSchema = z.object({
  intent: z.enum(['grant', 'revoke'], { error: 'intent must be grant or revoke' }),
  businessID: idSchema,
  reason: text()
    .trim()
    .min(1, 'A reason is required to grant or revoke trust.')
    .max(TRUST_REASON_MAX, `Keep the reason under ${TRUST_REASON_MAX} characters.`),
})
