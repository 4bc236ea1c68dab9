import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireRole } from '#app/services/accounts/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { auditCsv, auditRange } from '#app/services/moderation/audit-trail.server.ts'

/**
 * GET /admin/audit.csv?from=&to=: the moderation decisions taken in the range (yyyy-mm-dd, both included, at most
 * 366 days), oldest first, as CSV. Administrators only; 400 for a bad range.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  try {
    const range = auditRange(new URL(request.url).searchParams)
    return new Response(await auditCsv(range), {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="moderation-${range.from}-${range.to}.csv"`,
        'Cache-Control': 'private, no-store',
      },
    })
  } catch (error) {
    return errorResponse(error, { request })
  }
}
