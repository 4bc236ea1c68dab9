import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { getBusiness } from '#app/services/http/auth.server.ts'
import { saveEventDraft } from '#app/services/ads/approval.server.ts'
import { parseOlderCallInput } from '#app/services/ads/parse.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { readJsonObject } from '#app/services/http/request-body.server.ts'
import { listLiveEvents } from '#app/services/calendar/public-events-api.server.ts'
import { eventAudience, liveEventsAnswer } from '#app/services/http/public-events.server.ts'
import { AppError, methodNotAllowed } from '#app/utils/app-error.ts'

/** GET /api/events: live events, with the calendar's filters from the query string. */
export async function loader({ request }: LoaderFunctionArgs) {
  try {
    const list = await listLiveEvents(new URL(request.url).searchParams, await eventAudience(request))
    return liveEventsAnswer(request, list)
  } catch (error) {
    return errorResponse(error, { request })
  }
}

/**
 * POST /api/events (the older call): JSON event fields (eventDate as yyyy-MM-dd), today's or the older form's, →
 * 201 `{ id }` of an unpaid draft of the signed-in business, checked like every other way of creating an ad (the
 * older form's draft gets its category later, before checkout).
 */
export async function action({ request }: ActionFunctionArgs) {
  try {
    if (request.method !== 'POST') throw methodNotAllowed('GET, POST')
    const business = await getBusiness(request)
    if (!business) throw new AppError('Unauthorized', 'unauthenticated')
    const input = parseOlderCallInput(await readJsonObject(request))
    const { eventID } = await saveEventDraft(business, input)
    return Response.json({ id: eventID }, { status: 201 })
  } catch (error) {
    return errorResponse(error, { request })
  }
}
