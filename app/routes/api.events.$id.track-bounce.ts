import type { ActionFunctionArgs } from '@remix-run/node'
import { errorResponse } from '#app/services/http/http.server.ts'
import { requestVisitor } from '#app/services/http/visitor.server.ts'
import { trackVisitOfEvent } from '#app/services/analytics/tracking.server.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import { methodNotAllowed } from '#app/utils/app-error.ts'

/** POST /api/events/{id}/track-bounce (a beacon, empty JSON body): counts a bounce on a live event; 204, or 404 JSON. */
export async function action({ request, params }: ActionFunctionArgs) {
  try {
    if (request.method !== 'POST') throw methodNotAllowed('POST')
    await trackVisitOfEvent(parseId(params.id), 'bounce', requestVisitor(request))
    return new Response(null, { status: 204 })
  } catch (error) {
    return errorResponse(error, { request })
  }
}
