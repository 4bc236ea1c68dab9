import type { LoaderFunctionArgs } from '@remix-run/node'
import { calendarRss } from '#app/services/feeds.server.ts'

/** GET /calendar.rss: the calendar's live events (same filters as /calendar) as an RSS feed. */
export async function loader({ request }: LoaderFunctionArgs) {
  return new Response(await calendarRss(request), {
    headers: { 'Content-Type': 'application/rss+xml; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
  })
}
