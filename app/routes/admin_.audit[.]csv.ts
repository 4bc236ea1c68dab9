import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireRole } from '#app/services/http/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { auditCsv, auditCsvFilters } from '#app/services/moderation/audit-trail.server.ts'

/**
 * GET /admin/audit.csv?from=&to=&decision=&admin=: the moderation decisions taken in the range (yyyy-mm-dd, both
 * included, at most 366 days), of one kind and by one administrator when given, oldest first, as CSV (the filters of
 * /admin/audit). Administrators only; 400 for a bad filter.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  try {
    const filters = auditCsvFilters(new URL(request.url).searchParams)
    return new Response(await auditCsv(filters), {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="moderation-${filters.from}-${filters.to}.csv"`,
        'Cache-Control': 'private, no-store',
      },
    })
  } catch (error) {
    return errorResponse(error, { request })
  }
}
