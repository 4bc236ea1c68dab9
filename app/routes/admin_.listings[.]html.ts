import type { LoaderFunctionArgs } from '@remix-run/node'
import { attachmentResponse } from '#app/services/http/attachment.server.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { listingsDownload } from '#app/services/calendar/listings.server.ts'
import { siteOrigin } from '#app/services/http/site-url.server.ts'

/**
 * GET /admin/listings.html?from=&to=&category=…: the listing of /admin/listings (the same query string) as
 * an HTML snippet to paste into a newsletter: a section per day, no classes, every text escaped. Administrators only; 400 for a bad range or filter.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  try {
    const { body, fileName } = await listingsDownload(new URL(request.url).searchParams, 'html', {
      origin: siteOrigin(request),
    })
    return attachmentResponse(body, { contentType: 'text/html; charset=utf-8', fileName })
  } catch (error) {
    return errorResponse(error, { request })
  }
}
