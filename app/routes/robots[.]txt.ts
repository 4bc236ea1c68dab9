import type { LoaderFunctionArgs } from '@remix-run/node'
import { robotsTxt } from '#app/services/calendar/feeds.server.ts'
import { siteOrigin } from '#app/services/http/site-url.server.ts'

/** GET /robots.txt */
export function loader({ request }: LoaderFunctionArgs) {
  return new Response(robotsTxt(siteOrigin(request)), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=86400' },
  })
}
