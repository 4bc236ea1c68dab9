import type { ActionFunctionArgs } from '@remix-run/node'
import { errorResponse } from '#app/services/http/http.server.ts'
import {
  handleStorageTestUpload,
  STORAGE_UPLOAD_ERROR_OPTIONS,
} from '#app/services/media/media-test-upload.server.ts'

/** POST /api/file-storage/upload-video (multipart: video, eventID, createdDate) → { publicUrl, error }. */
export async function action({ request }: ActionFunctionArgs) {
  try {
    return await handleStorageTestUpload(request, 'video')
  } catch (error) {
    return errorResponse(error, { request, ...STORAGE_UPLOAD_ERROR_OPTIONS })
  }
}
