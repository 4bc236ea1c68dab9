import type { LoaderFunctionArgs } from '@remix-run/node'
import { robotsTxt } from '#app/services/calendar/feeds.server.ts'

/** GET /robots.txt */
export function loader({ request }: LoaderFunctionArgs) {
  return new Response(robotsTxt(request), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=86400' },
  })
}
