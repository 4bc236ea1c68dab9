import type { LoaderFunctionArgs } from '@remix-run/node'
import { sitemapXml } from '#app/services/calendar/feeds.server.ts'
import { siteOrigin } from '#app/services/http/site-url.server.ts'

/** GET /sitemap.xml: the public pages and every live event's page. */
export async function loader({ request }: LoaderFunctionArgs) {
  return new Response(await sitemapXml(siteOrigin(request)), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  })
}
