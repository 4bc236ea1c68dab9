import type { ActionFunctionArgs } from '@remix-run/node'
import { parseIdParam } from '#app/models/format.ts'
import { trackVisitResponse } from '#app/services/tracking.server.ts'

/** POST /api/events/{id}/track-bounce (a beacon, empty JSON body): counts a bounce on a live event; 204, or 404 JSON. */
export function action({ request, params }: ActionFunctionArgs) {
  return trackVisitResponse(request, parseIdParam(params.id), 'bounce')
}
