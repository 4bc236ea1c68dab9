import type { ActionFunctionArgs } from '@remix-run/node'
import { errorResponse } from '#app/services/http/http.server.ts'
import { trackVisitResponse } from '#app/services/analytics/tracking.server.ts'
import { parseId } from '#app/models/platform/input-rules.ts'

/** POST /api/events/{id}/track-bounce (a beacon, empty JSON body): counts a bounce on a live event; 204, or 404 JSON. */
export async function action({ request, params }: ActionFunctionArgs) {
  try {
    return await trackVisitResponse(request, parseId(params.id), 'bounce')
  } catch (error) {
    return errorResponse(error, { request })
  }
}
