import type { ActionFunctionArgs } from '@remix-run/node'
import { errorResponse } from '#app/services/http/http.server.ts'
import { readMultipartUpload } from '#app/services/http/multipart-upload.server.ts'
import { STORAGE_UPLOAD_ERROR_OPTIONS, uploadingBusiness } from '#app/services/http/upload-calls.server.ts'
import { mediaUpload } from '#app/services/media/media-upload.server.ts'
import { storeUploadForOwnEvent } from '#app/services/media/media-test-upload.server.ts'

/** POST /api/file-storage/upload-image (multipart: image, eventID, createdDate) → { publicUrl, error }. */
export async function action({ request }: ActionFunctionArgs) {
  try {
    const { businessID } = await uploadingBusiness(request)
    const upload = await readMultipartUpload(request, mediaUpload({ files: { image: 'photo' } }))
    const stored = await storeUploadForOwnEvent({ businessID, kind: 'photo', upload })
    return Response.json({ publicUrl: stored.url, error: null })
  } catch (error) {
    return errorResponse(error, { request, ...STORAGE_UPLOAD_ERROR_OPTIONS })
  }
}
