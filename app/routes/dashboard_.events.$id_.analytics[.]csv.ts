import type { LoaderFunctionArgs } from '@remix-run/node'
import {
  adDailyFigures,
  adPageRange,
  analyticsCsv,
  requireOwnAd,
  showsSlotFigures,
} from '#app/services/analytics/analytics.server.ts'
import { getBusiness } from '#app/services/http/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { AppError } from '#app/utils/app-error.ts'

/**
 * GET /dashboard/events/{id}/analytics.csv?from=&to=: the ad's figures per day (this month by default) as CSV, for
 * its owner only: 401 signed out, 404 for no such ad, 403 for another business's, 400 for a bad range.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const business = await getBusiness(request)
    if (!business) throw new AppError('Unauthorized', 'unauthenticated')
    const { event } = await requireOwnAd(business, params.id)
    const range = adPageRange(new URL(request.url).searchParams)
    const csv = analyticsCsv(await adDailyFigures(event.eventID, range), {
      withSlots: showsSlotFigures(event),
    })
    return new Response(csv, {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="ad-${event.eventID}-${range.from}-${range.to}.csv"`,
        'Cache-Control': 'private, no-store',
      },
    })
  } catch (error) {
    return errorResponse(error, { request })
  }
}
