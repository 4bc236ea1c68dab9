import { recordEventVisit, type VisitKind, type VisitResult } from '#app/models/analytics/click.server.ts'
import { AppError, methodNotAllowed } from '#app/utils/app-error.ts'
import { getEnv } from '../platform/env.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import { clientIp } from '../platform/rate-limit.server.ts'

/**
 * Records a click or bounce for the visitor making `request`. A request another site made a browser send (a
 * cross-site form or beacon) is not counted, so pages elsewhere cannot inflate an advertiser's figures.
 */
export async function trackVisit(request: Request, eventID: number, kind: VisitKind): Promise<VisitResult> {
  const env = getEnv()
  if (request.headers.get('Sec-Fetch-Site') === 'cross-site') return 'ignored'
  const ip = clientIp(request)
  return recordEventVisit({
    eventID,
    kind,
    ip: ip === 'unknown' ? null : ip,
    userAgent: request.headers.get('User-Agent'),
    today: platformToday(),
    secret: env.sessionSecrets[0] ?? '',
  })
}

/** The answer of POST /api/events/{id}/track-click and track-bounce: 204, or a 404 AppError for no live event. */
export async function trackVisitResponse(
  request: Request,
  eventID: number | null,
  kind: VisitKind,
): Promise<Response> {
  if (request.method !== 'POST') throw methodNotAllowed('POST')
  const result = eventID ? await trackVisit(request, eventID, kind) : 'not-found'
  if (result === 'not-found') throw new AppError('Event not found', 'not_found')
  return new Response(null, { status: 204 })
}
