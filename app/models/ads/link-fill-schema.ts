import '#app/zod-config.ts'
import { z } from 'zod'
import { LINK_TEXT } from './link-address-rules.ts'
import { FILL_FROM_LINK_INTENT, LINK_ADDRESS_MAX } from './link-event-form.ts'

export const FILL_INTENT_MESSAGE = 'Unknown intent'

/**
 * "Fill from a link" posted on the Create form: the address typed, and (`photoInline`, the form's script) whether the
 * photo comes back in the answer for the form's photo input rather than waiting in the session.
 */
export const linkFillSchema = z.object({
  intent: z.literal(FILL_FROM_LINK_INTENT, { error: FILL_INTENT_MESSAGE }),
  linkAddress: z
    .string({ error: LINK_TEXT.notALink })
    .trim()
    .min(1, LINK_TEXT.notALink)
    .max(LINK_ADDRESS_MAX, LINK_TEXT.notALink),
  photoInline: z.literal('1').optional(),
})
