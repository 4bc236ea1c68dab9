/** The media upload test page's two calls: an upload stored as an event's media, or as the sample file. */
import type { MediaType } from '#app/constants.ts'
import { storageUploadSchema } from '#app/models/ads/storage-upload-schema.ts'
import { MEDIA_SAMPLE_DATE, typeMessage } from '#app/utils/media-types.ts'
import { AppError } from '#app/utils/app-error.ts'
import type { ParsedUpload } from './media-upload.server.ts'
import {
  discardStaged,
  storeEventMedia,
  storeMediaForOwnEvent,
  type StagedFile,
  type StoredMedia,
} from './media.server.ts'

/** The file field of the storage upload of each kind. */
export const STORAGE_UPLOAD_FIELD = { photo: 'image', video: 'video' } as const satisfies Record<
  MediaType,
  string
>

/** The upload's fields checked by the schema, or an invalid AppError with the first message and the messages per field. */
function storageUploadFields(fields: Record<string, string>) {
  const parsed = storageUploadSchema.safeParse(fields)
  if (parsed.success) return parsed.data
  const fieldErrors: Record<string, string[]> = {}
  for (const issue of parsed.error.issues)
    (fieldErrors[String(issue.path[0] ?? '')] ??= []).push(issue.message)
  throw new AppError(parsed.error.issues[0]?.message ?? 'Invalid input', 'invalid', { fieldErrors })
}

/**
 * The storage upload (`image` or `video`, and `eventID`) stored as the media of one of the business's events. The
 * date part of the key is the event's own creation date from the database; a posted `createdDate` is not trusted.
 * A paid ad's media is not replaced here (a conflict, the rule of `isEditableByOwner`). The staged files are removed
 * whatever happens; a refusal is a thrown AppError.
 */
export async function storeUploadForOwnEvent({
  businessID,
  kind,
  upload,
}: {
  businessID: number
  kind: MediaType
  upload: ParsedUpload
}): Promise<StoredMedia> {
  const field = STORAGE_UPLOAD_FIELD[kind]
  const file = upload.files[field]
  try {
    if (!file)
      throw new AppError(typeMessage(kind), 'invalid', { fieldErrors: { [field]: [typeMessage(kind)] } })
    const { eventID } = storageUploadFields(upload.fields)
    return await storeMediaForOwnEvent({ eventID, businessID, file })
  } finally {
    await discardStaged(upload.files)
  }
}

/**
 * The test upload (an `image` or a `video`) stored under the fixed sample date with the business id as the id part,
 * e.g. `images/2000-01/2000-01-01_<businessID>.webp`; what to tell the business, and the stored file.
 */
export async function storeSampleUpload(
  businessID: number,
  upload: ParsedUpload,
): Promise<{ message: string; stored: StoredMedia }> {
  try {
    const staged = [upload.files.image, upload.files.video].filter((f): f is StagedFile => Boolean(f))
    const [file, ...more] = staged
    if (!file) throw new AppError('Please select an image or video file', 'invalid')
    if (more.length > 0) throw new AppError('Upload one file at a time', 'invalid')
    const stored = await storeEventMedia({ eventID: businessID, createdDate: MEDIA_SAMPLE_DATE, file })
    return { message: file.kind === 'photo' ? 'Image uploaded' : 'Video uploaded', stored }
  } finally {
    await discardStaged(upload.files)
  }
}
