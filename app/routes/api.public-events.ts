import type { LoaderFunctionArgs } from '@remix-run/node'
import { errorResponse } from '#app/services/http/http.server.ts'
import { listLiveEvents } from '#app/services/calendar/public-events-api.server.ts'
import { eventAudience, liveEventsAnswer } from '#app/services/http/public-events.server.ts'

/**
 * GET /api/public-events: live events, with the calendar's filters from the query string; page 1 starts with the ads
 * in the Sponsored slots (`sponsored: true`).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  try {
    const list = await listLiveEvents(new URL(request.url).searchParams, await eventAudience(request), {
      withSponsoredSlots: true,
    })
    return liveEventsAnswer(request, list)
  } catch (error) {
    return errorResponse(error, { request })
  }
}
