import type { ActionFunctionArgs } from '@remix-run/node'
import { handleStorageTestUpload } from '#app/services/media-test-upload.server.ts'

/** POST /api/file-storage/upload-image (multipart: image, eventID, createdDate) → { publicUrl, error }. */
export function action({ request }: ActionFunctionArgs) {
  return handleStorageTestUpload(request, 'photo')
}
