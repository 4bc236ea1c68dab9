import '#app/zod-config.ts'
import { z } from 'zod'

export const PREVIEW_INTENT_MESSAGE = 'Unknown intent'

/**
 * The preview page's buttons: "approve" saves the draft (to checkout, or back to review after payment), "cancel"
 * returns to the form the draft came from.
 */
export const previewDecisionSchema = z.discriminatedUnion(
  'intent',
  [z.object({ intent: z.literal('approve') }), z.object({ intent: z.literal('cancel') })],
  { error: PREVIEW_INTENT_MESSAGE },
)

export type PreviewDecision = z.infer<typeof previewDecisionSchema>
