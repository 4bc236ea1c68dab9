import type { EventAudience } from '#app/models/ads/event-projection.server.ts'
import { getBusiness, hasRole } from './auth.server.ts'
import { pageHeaders } from './http.server.ts'

/** Who asks for events: the business in the session and whether the signed-in user is an administrator. */
export async function eventAudience(request: Request): Promise<EventAudience> {
  const [business, isAdmin] = await Promise.all([getBusiness(request), hasRole(request, 'admin')])
  return { businessID: business?.businessID ?? null, isAdmin }
}

/**
 * The answer of GET /api/events, /api/events/active and /api/public-events: one page of events as a JSON list, with
 * X-Total-Count and a Link header to the next and previous pages; never kept by a shared cache (it depends on the
 * session).
 */
export function liveEventsAnswer(
  request: Request,
  list: { events: unknown[]; page: number; pageCount: number; total: number },
) {
  const headers = pageHeaders(request.url, list)
  headers.set('Cache-Control', 'no-cache')
  headers.set('Vary', 'Cookie')
  return Response.json(list.events, { headers })
}
