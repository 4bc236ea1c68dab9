import type { LoaderFunctionArgs } from '@remix-run/node'
import { isLive } from '#app/models/ads/event-status.ts'
import { getEventForViewer } from '#app/models/ads/event.server.ts'
import { getBusiness } from '#app/services/http/auth.server.ts'
import { eventIcs } from '#app/services/calendar/feeds.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { siteOrigin } from '#app/services/http/site-url.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { parseId } from '#app/models/platform/input-rules.ts'

/**
 * GET /event/{id}/calendar.ics: "Add to calendar" for one event, an entry per event date with its times and status.
 * Who may have it is who may see the page: a live event everyone, any other only its advertiser; everyone else 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const eventID = parseId(params.id)
    const business = await getBusiness(request)
    const today = platformToday()
    const found = eventID
      ? await getEventForViewer(eventID, { businessID: business?.businessID, today })
      : null
    if (!found) throw new AppError('Event not found', 'not_found')
    return new Response(eventIcs(found.event, siteOrigin(request)), {
      headers: {
        'Content-Type': 'text/calendar; charset=utf-8',
        'Content-Disposition': `attachment; filename="event-${found.event.eventID}.ics"`,
        'Cache-Control': isLive(found.event, today) ? 'public, max-age=300' : 'private, no-store',
      },
    })
  } catch (error) {
    return errorResponse(error, { request })
  }
}
