import type { BusinessSessionCopy } from './auth.server.ts'
import { parseEventInput, today } from './event-approval.server.ts'
import { saveApprovedEvent } from './event-submission.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { parseMultipartUpload } from './media-upload.server.ts'
import { discardStaged } from './media.server.ts'

type DemoResult =
  | { ok: true; eventID: number; message: string }
  | { ok: false; status: number; message: string; errors?: Record<string, string[]> }

/**
 * The Business Event Creation Card demo: a simple form without a date picker, so the ad shows today.
 * The business id in the form must be the signed-in business's own.
 */
export async function saveDemoEvent(request: Request, business: BusinessSessionCopy): Promise<DemoResult> {
  let upload
  try {
    upload = await parseMultipartUpload(request, { files: { image: 'photo', video: 'video' }, maxFields: 64 })
  } catch (error) {
    if (error instanceof AppError) return { ok: false, status: error.status, message: error.message }
    throw error
  }
  const { fields, files } = upload
  try {
    if (fields.businessID !== undefined && Number(fields.businessID) !== business.businessID) {
      return { ok: false, status: 403, message: 'That business is not yours.' }
    }
    const input = parseEventInput({
      ...fields,
      eventCategory: fields.eventCategory || 'Other',
      showAdDates: fields.showAdDates ? fields.showAdDates.split(',').filter(Boolean) : [today()],
    })
    const { eventID } = await saveApprovedEvent({
      business,
      input,
      files: { photo: files.image, video: files.video },
    })
    return { ok: true, eventID, message: 'Event created successfully' }
  } catch (error) {
    if (error instanceof AppError) {
      return { ok: false, status: error.status, message: error.message, errors: error.fieldErrors }
    }
    throw error
  } finally {
    await discardStaged(files)
  }
}
