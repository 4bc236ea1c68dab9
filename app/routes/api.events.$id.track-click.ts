import type { ActionFunctionArgs } from '@remix-run/node'
import { errorResponse } from '#app/services/http/http.server.ts'
import { trackVisitResponse } from '#app/services/analytics/tracking.server.ts'
import { parseId } from '#app/models/platform/input-rules.ts'

/** POST /api/events/{id}/track-click (empty JSON body): counts a click on a live event; 204, or 404 JSON. */
export async function action({ request, params }: ActionFunctionArgs) {
  try {
    return await trackVisitResponse(request, parseId(params.id), 'click')
  } catch (error) {
    return errorResponse(error, { request })
  }
}
