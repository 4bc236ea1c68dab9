import type { LoaderFunctionArgs } from '@remix-run/node'
import { sitemapFileXml } from '#app/services/calendar/feeds.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { siteOrigin } from '#app/services/http/site-url.server.ts'

/**
 * GET /sitemaps/pages.xml (the public pages and the business pages) and /sitemaps/events-{n}.xml (the live events
 * of one range of ids), as /sitemap.xml names them; 404 for any other name and for a range with no live event.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    return new Response(await sitemapFileXml(params.file ?? '', siteOrigin(request)), {
      headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
    })
  } catch (error) {
    return errorResponse(error, { request })
  }
}
