import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { trackVisit } from '#app/services/analytics/tracking.server.ts'
import { REQUEST_ID_HEADER } from '#app/services/http/request-log.server.ts'
import { requestVisitor } from '#app/services/http/visitor.server.ts'
import { logError } from '#app/services/platform/logger.server.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import { isFromSponsoredSlot } from '#app/models/calendar/sponsored-placement.ts'

function eventPage(id: string | undefined) {
  const eventID = parseId(id)
  return eventID ? `/event/${eventID}?viewMode=true` : '/calendar'
}

/**
 * POST /event/{id}/view: the `ping` of an event's links, and the 'View details' form of pages rendered before the
 * links. Counts a click (a slot click too with `?from=sponsored`). A ping gets an empty 204 (the browser is already
 * on its way); a form gets a 303 to the event, also when counting fails: a lost click must never stop the navigation.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const eventID = parseId(params.id)
  if (eventID) {
    try {
      await trackVisit(eventID, 'click', requestVisitor(request), {
        fromSponsoredSlot: isFromSponsoredSlot(new URL(request.url).searchParams),
      })
    } catch (error) {
      logError(error, {
        requestId: request.headers.get(REQUEST_ID_HEADER) ?? undefined,
        msg: `Recording a click on event ${eventID} failed`,
      })
    }
  }
  if (isPing(request)) return new Response(null, { status: 204 })
  return redirect(eventPage(params.id), 303)
}

/** A browser's hyperlink-auditing POST (`<a ping>`): it names the link followed, and ignores the answer. */
function isPing(request: Request) {
  return request.headers.has('Ping-To') || request.headers.get('Content-Type') === 'text/ping'
}

/** A GET (a crawler, or a copied link) goes to the event without counting anything. */
export function loader({ params }: LoaderFunctionArgs) {
  return redirect(eventPage(params.id), 303)
}
