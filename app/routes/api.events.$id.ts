import type { LoaderFunctionArgs } from '@remix-run/node'
import { getEventForViewer } from '#app/models/ads/event.server.ts'
import { eventFor } from '#app/models/ads/event-projection.server.ts'
import { withTimesOfDay } from '#app/models/ads/event-times.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { eventAudience } from '#app/services/http/public-events.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { parseId } from '#app/models/platform/input-rules.ts'

/**
 * GET /api/events/{id}: a live event, or any of the signed-in business's own; otherwise 404 "Event not found".
 * Visitors get its public fields, its owner and administrators the whole row; its times are `hh:mm` or null.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const eventID = parseId(params.id)
    const audience = await eventAudience(request)
    const today = platformToday()
    const found = eventID
      ? await getEventForViewer(eventID, { businessID: audience.businessID, today })
      : null
    if (!found) throw new AppError('Event not found', 'not_found')
    return Response.json(eventFor(audience, withTimesOfDay(found.event)), { headers: { Vary: 'Cookie' } })
  } catch (error) {
    return errorResponse(error, { request })
  }
}
