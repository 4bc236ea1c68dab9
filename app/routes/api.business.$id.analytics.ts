import type { LoaderFunctionArgs } from '@remix-run/node'
import { businessAnalytics } from '#app/services/analytics/analytics.server.ts'
import { assertOwnBusiness, getBusiness } from '#app/services/http/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { AppError } from '#app/utils/app-error.ts'

/**
 * GET /api/business/{id}/analytics?from=yyyy-mm-dd&to=yyyy-mm-dd: [{eventID, date, views, clicks, bounces}], one
 * row per ad and day with any activity. 400 for a missing, bad or reversed date or too long a range.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const business = await getBusiness(request)
    if (!business) throw new AppError('Unauthorized', 'unauthenticated')
    assertOwnBusiness(business, params.id)
    return Response.json(await businessAnalytics(business, new URL(request.url).searchParams))
  } catch (error) {
    return errorResponse(error, { request })
  }
}
