import type { ActionFunctionArgs } from '@remix-run/node'
import { handleStorageTestUpload } from '#app/services/media-test-upload.server.ts'

/** POST /api/file-storage/upload-video (multipart: video, eventID, createdDate) → { publicUrl, error }. */
export function action({ request }: ActionFunctionArgs) {
  return handleStorageTestUpload(request, 'video')
}
