import type { LoaderFunctionArgs } from '@remix-run/node'
import { errorResponse } from '#app/services/http/http.server.ts'
import { liveEventsResponse } from '#app/services/calendar/public-events-api.server.ts'

/** GET /api/events/active (the calendar's list): live events, with the calendar's filters from the query string. */
export async function loader({ request }: LoaderFunctionArgs) {
  try {
    return await liveEventsResponse(request)
  } catch (error) {
    return errorResponse(error, { request })
  }
}
