import type { LoaderFunctionArgs } from '@remix-run/node'
import { liveEventsResponse } from '#app/services/public-events-api.server.ts'

/** GET /api/public-events: live events, with the calendar's filters from the query string. */
export function loader({ request }: LoaderFunctionArgs) {
  return liveEventsResponse(request)
}
