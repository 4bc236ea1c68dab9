import type { ActionFunctionArgs } from '@remix-run/node'
import { getBusiness } from '#app/services/http/auth.server.ts'
import { DEMO_UPLOAD, saveDemoEvent } from '#app/services/ads/demo.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { readMultipartUpload } from '#app/services/http/multipart-upload.server.ts'
import { mediaUpload } from '#app/services/media/media-upload.server.ts'
import { AppError, methodNotAllowed } from '#app/utils/app-error.ts'

/** The demo page's call: multipart event fields + image/video → `{ eventID, message }`. */
export async function action({ request }: ActionFunctionArgs) {
  try {
    if (request.method !== 'POST') throw methodNotAllowed('POST')
    const business = await getBusiness(request)
    if (!business) throw new AppError('Please sign in', 'unauthenticated')
    const saved = await saveDemoEvent(business, await readMultipartUpload(request, mediaUpload(DEMO_UPLOAD)))
    return Response.json({ eventID: saved.eventID, message: saved.message }, { status: 201 })
  } catch (error) {
    return errorResponse(error, { request })
  }
}
