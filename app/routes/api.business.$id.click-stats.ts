import type { LoaderFunctionArgs } from '@remix-run/node'
import { clickStatsForBusiness } from '#app/models/ads/event.server.ts'
import { assertOwnBusiness, getBusiness } from '#app/services/http/auth.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { monthBounds } from '#app/utils/time.ts'

/** GET /api/business/{id}/click-stats: [{eventID, totalClicks, totalBounces}] for this month (platform time zone). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const business = await getBusiness(request)
    if (!business) throw new AppError('Unauthorized', 'unauthenticated')
    assertOwnBusiness(business, params.id)
    const { first, last } = monthBounds(platformToday())
    return Response.json(await clickStatsForBusiness(business.businessID, { from: first, to: last }))
  } catch (error) {
    return errorResponse(error, { request })
  }
}
