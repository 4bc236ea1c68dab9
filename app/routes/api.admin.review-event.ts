import type { ActionFunctionArgs } from '@remix-run/node'
import { reviewEvent, reviewSchema } from '#app/models/moderation.server.ts'
import { jsonError } from '#app/services/http.server.ts'
import { requireAdminApi } from '#app/services/moderation-http.server.ts'
import { platformToday } from '#app/services/platform-today.server.ts'

/**
 * POST /api/admin/review-event, JSON {eventID, action: approve|reject, reason?}. Only a JSON body is read: a form
 * another site submits cannot carry that content type without the browser asking first.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return jsonError('Method not allowed', 405)
  const admin = await requireAdminApi(request)
  if (!/^application\/json\b/i.test(request.headers.get('Content-Type') ?? '')) {
    return jsonError('Send a JSON body (Content-Type: application/json)', 415)
  }
  let body: unknown
  try {
    body = await request.json()
  } catch {
    return jsonError('The body is not valid JSON', 400)
  }
  const parsed = reviewSchema.safeParse(body)
  if (!parsed.success) {
    return jsonError(
      parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '),
      400,
    )
  }
  const outcome = await reviewEvent(parsed.data, {
    reviewerId: admin.id,
    today: platformToday(),
  })
  if (!outcome.ok) return jsonError(outcome.message, outcome.status)
  return Response.json({
    eventID: outcome.eventID,
    eventStatus: outcome.eventStatus,
    message: outcome.eventStatus === 'approved' ? 'Event approved' : 'Event rejected',
    ...(outcome.refund ? { refund: outcome.refund } : {}),
  })
}
