import type { LoaderFunctionArgs } from '@remix-run/node'
import { listEventsForBusiness } from '#app/models/ads/event.server.ts'
import { withTimesOfDay } from '#app/models/ads/event-times.ts'
import { assertOwnBusiness, getBusiness } from '#app/services/http/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { AppError } from '#app/utils/app-error.ts'

/** GET /api/business/{id}/events: the signed-in business's own events (the id must be its own), times as `hh:mm`. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const business = await getBusiness(request)
    if (!business) throw new AppError('Unauthorized', 'unauthenticated')
    assertOwnBusiness(business, params.id)
    return Response.json((await listEventsForBusiness(business.businessID)).map(withTimesOfDay))
  } catch (error) {
    return errorResponse(error, { request })
  }
}
