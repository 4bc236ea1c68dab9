import type { LoaderFunctionArgs } from '@remix-run/node'
import { attachmentResponse } from '#app/services/http/attachment.server.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { listingsDownload } from '#app/services/calendar/listings.server.ts'
import { siteOrigin } from '#app/services/http/site-url.server.ts'

/**
 * GET /admin/listings.csv?from=&to=&category=…: the listing of /admin/listings (the same query string) as
 * CSV, one row per ad and day (UTF-8 with a byte-order mark, every cell formula-safe). Administrators only; 400 for a bad range or filter.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  try {
    const { body, fileName } = await listingsDownload(new URL(request.url).searchParams, 'csv', {
      origin: siteOrigin(request),
    })
    return attachmentResponse(body, { contentType: 'text/csv; charset=utf-8', fileName })
  } catch (error) {
    return errorResponse(error, { request })
  }
}
