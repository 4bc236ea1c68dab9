/**
 * The media upload test calls (`/api/file-storage/upload-image|upload-video`, `/api/test-upload`): only a signed-in
 * business's POST is read, and the shape their refusals are answered in.
 */
import { AppError, methodNotAllowed } from '#app/utils/app-error.ts'
import { getBusiness } from './auth.server.ts'
import { discardRequestBody } from './multipart-upload.server.ts'

/** The fields of the storage upload's refusals beside `message`: `{ publicUrl: null, error }`. */
export function storageUploadErrorFields(error: AppError) {
  return { publicUrl: null, error: error.message }
}

/** How the storage upload calls answer a refusal: their fixed shape, without per-field messages. */
export const STORAGE_UPLOAD_ERROR_OPTIONS = {
  fields: storageUploadErrorFields,
  omitFieldErrors: true,
} as const

/** The signed-in business posting an upload; anything else is refused, its body discarded so the answer arrives. */
export async function uploadingBusiness(request: Request) {
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
