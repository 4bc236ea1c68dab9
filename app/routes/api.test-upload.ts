import type { ActionFunctionArgs } from '@remix-run/node'
import { errorResponse } from '#app/services/http/http.server.ts'
import { handleTestUpload, TEST_UPLOAD_ERROR_OPTIONS } from '#app/services/media/media-test-upload.server.ts'

/** POST /api/test-upload (multipart: image or video) → { message, publicUrl }. */
export async function action({ request }: ActionFunctionArgs) {
  try {
    return await handleTestUpload(request)
  } catch (error) {
    return errorResponse(error, { request, ...TEST_UPLOAD_ERROR_OPTIONS })
  }
}
