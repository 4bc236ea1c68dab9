/** The media upload test page's two calls (spec §7): an upload stored as an event's media, or as the sample file. */
import type { MediaType } from '#app/constants.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import { MEDIA_SAMPLE_DATE, typeMessage } from '#app/utils/media-types.ts'
import { AppError, methodNotAllowed } from '#app/utils/app-error.ts'
import { getBusiness } from '../accounts/auth.server.ts'
import { discardRequestBody, parseMultipartUpload } from './media-upload.server.ts'
import { discardStaged, storeEventMedia, storeMediaForOwnEvent, type StagedFile } from './media.server.ts'

/** The fields of the storage upload's refusals beside `message`: `{ publicUrl: null, error }` (spec §7). */
export function storageUploadErrorFields(error: AppError) {
  return { publicUrl: null, error: error.message }
}

/** How the upload calls answer a refusal: the spec's shape, without per-field messages. */
export const STORAGE_UPLOAD_ERROR_OPTIONS = {
  fields: storageUploadErrorFields,
  omitFieldErrors: true,
} as const
export const TEST_UPLOAD_ERROR_OPTIONS = { omitFieldErrors: true } as const

/** The signed-in business posting an upload; anything else is refused, its body discarded so the answer arrives. */
async function uploadingBusiness(request: Request) {
  if (request.method !== 'POST') {
    discardRequestBody(request)
    throw methodNotAllowed('POST')
  }
  const business = await getBusiness(request)
  if (!business) {
    discardRequestBody(request)
    throw new AppError('Please sign in', 'unauthenticated')
  }
  return business
}

/**
 * `POST /api/file-storage/upload-image|upload-video` (multipart: image|video, eventID, createdDate) →
 * `{ publicUrl, error }`. The date part of the key is the event's own creation date from the database; the
 * posted `createdDate` is not trusted. A paid ad's media is not replaced here (409, the rule of `isEditableByOwner`).
 * A refusal is a thrown AppError, answered with {@link storageUploadErrorFields}.
 */
export async function handleStorageTestUpload(request: Request, kind: MediaType): Promise<Response> {
  const field = kind === 'photo' ? 'image' : 'video'
  const business = await uploadingBusiness(request)
  const upload = await parseMultipartUpload(request, { files: { [field]: kind } })
  const file = upload.files[field]
  try {
    if (!file) throw new AppError(typeMessage(kind), 'invalid')
    const eventID = parseId(upload.fields.eventID?.trim())
    if (eventID === null) throw new AppError('eventID must be the number of one of your events', 'invalid')
    const stored = await storeMediaForOwnEvent({ eventID, businessID: business.businessID, file })
    return Response.json({ publicUrl: stored.url, error: null })
  } finally {
    await discardStaged(file)
  }
}

/**
 * `POST /api/test-upload` (multipart: image or video) → `{ message, publicUrl }`. Stored under the fixed sample
 * date with the business id as the id part, e.g. `images/2000-01/2000-01-01_<businessID>.webp`.
 */
export async function handleTestUpload(request: Request): Promise<Response> {
  const business = await uploadingBusiness(request)
  const upload = await parseMultipartUpload(request, { files: { image: 'photo', video: 'video' } })
  try {
    const staged = [upload.files.image, upload.files.video].filter((f): f is StagedFile => Boolean(f))
    const [file, ...more] = staged
    if (!file) throw new AppError('Please select an image or video file', 'invalid')
    if (more.length > 0) throw new AppError('Upload one file at a time', 'invalid')
    const stored = await storeEventMedia({
      eventID: business.businessID,
      createdDate: MEDIA_SAMPLE_DATE,
      file,
    })
    return Response.json({
      message: file.kind === 'photo' ? 'Image uploaded' : 'Video uploaded',
      publicUrl: stored.url,
    })
  } finally {
    await discardStaged(upload.files)
  }
}
