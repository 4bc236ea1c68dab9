import type { ActionFunctionArgs } from '@remix-run/node'
import { errorResponse } from '#app/services/http/http.server.ts'
import {
  handleStorageTestUpload,
  STORAGE_UPLOAD_ERROR_OPTIONS,
} from '#app/services/media/media-test-upload.server.ts'

/** POST /api/file-storage/upload-image (multipart: image, eventID, createdDate) → { publicUrl, error }. */
export async function action({ request }: ActionFunctionArgs) {
  try {
    return await handleStorageTestUpload(request, 'photo')
  } catch (error) {
    return errorResponse(error, { request, ...STORAGE_UPLOAD_ERROR_OPTIONS })
  }
}
