import type { LoaderFunctionArgs } from '@remix-run/node'
import { calendarIcs } from '#app/services/feeds.server.ts'

/** GET /calendar.ics: the calendar's live events (same filters as /calendar) for calendar apps. */
export async function loader({ request }: LoaderFunctionArgs) {
  return new Response(await calendarIcs(request), {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': 'inline; filename="eventshout-events.ics"',
      'Cache-Control': 'public, max-age=300',
    },
  })
}
