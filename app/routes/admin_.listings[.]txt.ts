import type { LoaderFunctionArgs } from '@remix-run/node'
import { attachmentResponse } from '#app/services/http/attachment.server.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { listingsDownload } from '#app/services/calendar/listings.server.ts'
import { siteOrigin } from '#app/services/http/site-url.server.ts'

/**
 * GET /admin/listings.txt?from=&to=&category=…: the listing of /admin/listings (the same query string) as
 * plain text: a heading per day, "7:30 PM  Title — Business, City". Administrators only; 400 for a bad range or filter.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  try {
    const { body, fileName } = await listingsDownload(new URL(request.url).searchParams, 'txt', {
      origin: siteOrigin(request),
    })
    return attachmentResponse(body, { contentType: 'text/plain; charset=utf-8', fileName })
  } catch (error) {
    return errorResponse(error, { request })
  }
}
