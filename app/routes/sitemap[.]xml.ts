import type { LoaderFunctionArgs } from '@remix-run/node'
import { sitemapIndexXml } from '#app/services/calendar/feeds.server.ts'
import { siteOrigin } from '#app/services/http/site-url.server.ts'

/** GET /sitemap.xml: the sitemap index, naming the pages' file and each events file (`sitemaps.$file.ts`). */
export async function loader({ request }: LoaderFunctionArgs) {
  return new Response(await sitemapIndexXml(siteOrigin(request)), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  })
}
