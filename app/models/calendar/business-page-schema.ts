import '#app/zod-config.ts'
import { z } from 'zod'

/** The dashboard's "Show my business page" form: on or off. */
export const businessPageSettingSchema = z.object({
  intent: z.literal('business-page', { error: 'intent must be business-page' }),
  show: z.enum(['on', 'off'], { error: 'show must be on or off' }),
})
