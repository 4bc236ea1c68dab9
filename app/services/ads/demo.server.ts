/** The Business Event Creation Card demo's post: an ad saved from a simple form, shown today. */
import type { BusinessSessionCopy } from '../accounts/auth.server.ts'
import { parseMultipartUpload } from '../media/media-upload.server.ts'
import { discardStaged } from '../media/media.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { parseEventInput } from './parse.server.ts'
import { saveEventWithMedia } from './save.server.ts'

/**
 * The Business Event Creation Card demo: a simple form without a date picker, so the ad shows today.
 * The business id in the form must be the signed-in business's own (403); what the checks refuse is an AppError.
 */
export async function saveDemoEvent(
  request: Request,
  business: BusinessSessionCopy,
): Promise<{ eventID: number; message: string }> {
  const upload = await parseMultipartUpload(request, {
    files: { image: 'photo', video: 'video' },
    maxFields: 64,
  })
  const { fields, files } = upload
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
