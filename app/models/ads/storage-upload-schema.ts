import '#app/zod-config.ts'
import { z } from 'zod'
import { parseId } from '#app/models/platform/input-rules.ts'

export const STORAGE_UPLOAD_EVENT_MESSAGE = 'eventID must be the number of one of your events'

/** The media upload test's fields beside its file: the business's event the file is stored for. */
export const storageUploadSchema = z.object({
  eventID: z
    .string({ error: STORAGE_UPLOAD_EVENT_MESSAGE })
    .trim()
    .transform((value, ctx) => {
      const eventID = parseId(value)
      if (eventID !== null) return eventID
      ctx.addIssue({ code: 'custom', message: STORAGE_UPLOAD_EVENT_MESSAGE })
      return z.NEVER
    }),
})
