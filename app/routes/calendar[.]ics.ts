import type { LoaderFunctionArgs } from '@remix-run/node'
import { calendarIcs } from '#app/services/calendar/feeds.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { siteOrigin } from '#app/services/http/site-url.server.ts'

/** GET /calendar.ics: the calendar's live events (same filters as /calendar) for calendar apps; 400 for a bad ZIP. */
export async function loader({ request }: LoaderFunctionArgs) {
  let body: string
  try {
    body = await calendarIcs(new URL(request.url).searchParams, siteOrigin(request))
  } catch (error) {
    return errorResponse(error, { request })
  }
  return new Response(body, {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': 'inline; filename="eventshout-events.ics"',
      'Cache-Control': 'public, max-age=300',
    },
  })
}
