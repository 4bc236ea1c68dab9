import type { LoaderFunctionArgs } from '@remix-run/node'
import { parseId } from '#app/models/platform/input-rules.ts'
import { businessIcs } from '#app/services/calendar/feeds.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { siteOrigin } from '#app/services/http/site-url.server.ts'
import { AppError } from '#app/utils/app-error.ts'

/** GET /business/{id}/calendar.ics: a business page's live events for calendar apps; 404 without a page. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const businessID = parseId(params.id)
    if (businessID === null) throw new AppError('Business not found', 'not_found')
    return new Response(await businessIcs(businessID, siteOrigin(request)), {
      headers: {
        'Content-Type': 'text/calendar; charset=utf-8',
        'Content-Disposition': `inline; filename="business-${businessID}.ics"`,
        'Cache-Control': 'public, max-age=300',
      },
    })
  } catch (error) {
    return errorResponse(error, { request })
  }
}
