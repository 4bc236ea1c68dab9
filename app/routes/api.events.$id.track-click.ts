import type { ActionFunctionArgs } from '@remix-run/node'
import { parseIdParam } from '#app/models/format.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { trackVisitResponse } from '#app/services/analytics/tracking.server.ts'

/** POST /api/events/{id}/track-click (empty JSON body): counts a click on a live event; 204, or 404 JSON. */
export async function action({ request, params }: ActionFunctionArgs) {
  try {
    return await trackVisitResponse(request, parseIdParam(params.id), 'click')
  } catch (error) {
    return errorResponse(error, { request })
  }
}
