import type { LoaderFunctionArgs } from '@remix-run/node'
import { calendarRss } from '#app/services/calendar/feeds.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { siteOrigin } from '#app/services/http/site-url.server.ts'

/** GET /calendar.rss: the calendar's live events (same filters as /calendar) as an RSS feed; 400 for a bad ZIP. */
export async function loader({ request }: LoaderFunctionArgs) {
  let body: string
  try {
    body = await calendarRss(new URL(request.url).searchParams, siteOrigin(request))
  } catch (error) {
    return errorResponse(error, { request })
  }
  return new Response(body, {
    headers: { 'Content-Type': 'application/rss+xml; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
  })
}
