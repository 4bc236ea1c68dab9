import type { LoaderFunctionArgs } from '@remix-run/node'
import { getEventForViewer, toPublicEventView } from '#app/models/event.server.ts'
import { parseIdParam } from '#app/models/format.ts'
import { getBusiness } from '#app/services/auth.server.ts'
import { getEnv } from '#app/services/env.server.ts'
import { jsonError } from '#app/services/http.server.ts'
import { todayInZone } from '#app/services/time.ts'

/** GET /api/events/{id}: a live event, or any of the signed-in business's own; otherwise 404 "Event not found". */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const eventID = parseIdParam(params.id)
  const business = await getBusiness(request)
  const today = todayInZone(getEnv().APP_TIME_ZONE)
  const found = eventID ? await getEventForViewer(eventID, { businessID: business?.businessID, today }) : null
  if (!found) return jsonError('Event not found', 404)
  return Response.json(found.isOwner ? found.event : toPublicEventView(found.event))
}
