/** The Business Event Creation Card demo's post: an ad saved from a simple form, shown today. */
import { AppError } from '#app/utils/app-error.ts'
import type { BusinessSessionCopy } from '../http/auth.server.ts'
import type { ParsedUpload, ParseUploadOptions } from '../media/media-upload.server.ts'
import { discardStaged } from '../media/media.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import { parseEventInput } from './parse.server.ts'
import { saveEventWithMedia } from './save.server.ts'

/** What the demo's form posts: its fields, an image and a video. */
export const DEMO_UPLOAD = {
  files: { image: 'photo', video: 'video' },
  maxFields: 64,
} as const satisfies ParseUploadOptions

/**
 * The Business Event Creation Card demo: a simple form without a date picker, so the ad shows today.
 * The business id in the form must be the signed-in business's own (else forbidden); what the checks refuse is an AppError.
 * The staged files are removed whatever happens.
 */
export async function saveDemoEvent(
  business: BusinessSessionCopy,
  { fields, files }: ParsedUpload,
): Promise<{ eventID: number; message: string }> {
  try {
    if (fields.businessID !== undefined && Number(fields.businessID) !== business.businessID) {
      throw new AppError('That business is not yours.', 'forbidden')
    }
    const input = parseEventInput({
      ...fields,
      eventCategory: fields.eventCategory || 'Other',
      showAdDates: fields.showAdDates ? fields.showAdDates.split(',').filter(Boolean) : [platformToday()],
    })
    const { eventID } = await saveEventWithMedia({
      business,
      input,
      files: { photo: files.image, video: files.video },
    })
    return { eventID, message: 'Event created successfully' }
  } finally {
    await discardStaged(files)
  }
}
