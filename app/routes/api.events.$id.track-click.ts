import type { ActionFunctionArgs } from '@remix-run/node'
import { parseIdParam } from '#app/models/format.ts'
import { trackVisitResponse } from '#app/services/tracking.server.ts'

/** POST /api/events/{id}/track-click (empty JSON body): counts a click on a live event; 204, or 404 JSON. */
export function action({ request, params }: ActionFunctionArgs) {
  return trackVisitResponse(request, parseIdParam(params.id), 'click')
}
