import type { ActionFunctionArgs } from '@remix-run/node'
import { handleTestUpload } from '#app/services/media-test-upload.server.ts'

/** POST /api/test-upload (multipart: image or video) → { message, publicUrl }. */
export function action({ request }: ActionFunctionArgs) {
  return handleTestUpload(request)
}
