import type { ActionFunctionArgs } from '@remix-run/node'
import { errorResponse } from '#app/services/http/http.server.ts'
import { readMultipartUpload } from '#app/services/http/multipart-upload.server.ts'
import { uploadingBusiness } from '#app/services/http/upload-calls.server.ts'
import { mediaUpload } from '#app/services/media/media-upload.server.ts'
import { storeSampleUpload } from '#app/services/media/media-test-upload.server.ts'

/** POST /api/test-upload (multipart: image or video) → { message, publicUrl }; a refusal is `{ message }` alone. */
export async function action({ request }: ActionFunctionArgs) {
  try {
    const { businessID } = await uploadingBusiness(request)
    const upload = await readMultipartUpload(
      request,
      mediaUpload({ files: { image: 'photo', video: 'video' } }),
    )
    const { message, stored } = await storeSampleUpload(businessID, upload)
    return Response.json({ message, publicUrl: stored.url })
  } catch (error) {
    return errorResponse(error, { request, omitFieldErrors: true })
  }
}
