import type { ActionFunctionArgs } from '@remix-run/node'
import { getBusiness } from '#app/services/auth.server.ts'
import { saveDemoEvent } from '#app/services/event-ad/index.server.ts'
import { jsonError } from '#app/services/http.server.ts'

/** The demo page's call: multipart event fields + image/video → `{ eventID, message }`. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return jsonError('Method not allowed', 405)
  const business = await getBusiness(request)
  if (!business) return jsonError('Please sign in', 401)
  const result = await saveDemoEvent(request, business)
  if (!result.ok) return jsonError(result.message, result.status, { errors: result.errors })
  return Response.json({ eventID: result.eventID, message: result.message }, { status: 201 })
}
