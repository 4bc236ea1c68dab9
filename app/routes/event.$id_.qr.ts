import type { LoaderFunctionArgs } from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { parseId } from '#app/models/platform/input-rules.ts'
import { scanDestination, trackVisit } from '#app/services/analytics/tracking.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { REQUEST_ID_HEADER } from '#app/services/http/request-log.server.ts'
import { opensPage, requestVisitor } from '#app/services/http/visitor.server.ts'
import { logError } from '#app/services/platform/logger.server.ts'

/**
 * GET /event/{id}/qr: the address an ad's QR code encodes. A phone that opens it is sent on to the ad's page (302)
 * and the scan is counted for the advertiser, as a source of its own: once per visitor within the repeat window,
 * never for a bot, a prefetch, a request another site made or anything but a navigation. A failed count never stops
 * the visitor. The answer is never stored, so every scan reaches the server.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const eventID = parseId(params.id)
  if (!eventID) throw new Response('Not found', { status: 404 })
  try {
    const { path, live } = await scanDestination(eventID)
    if (live && opensPage(request)) {
      await trackVisit(eventID, 'scan', requestVisitor(request)).catch((error: unknown) => {
        logError(error, {
          requestId: request.headers.get(REQUEST_ID_HEADER) ?? undefined,
          msg: `Recording a scan of event ${eventID} failed`,
        })
      })
    }
    return redirect(path, { status: 302, headers: { 'Cache-Control': 'no-store' } })
  } catch (error) {
    throw errorResponse(error, { request })
  }
}
