import { recordEventVisit, type VisitKind, type VisitResult } from '#app/models/analytics/click.server.ts'
import { eventPagePath } from '#app/models/ads/event-address.ts'
import { liveEventAddress } from '#app/models/ads/event-qr.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { getEnv } from '../platform/env.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'

/** Who sent a click or a bounce, as the request tells it. */
export interface VisitSender {
  /** The client's address as the server vouches for it; null when it is not known. */
  ip: string | null
  userAgent: string | null
  /** Another site made the browser send it (a cross-site form or beacon). */
  crossSite: boolean
}

/**
 * Records a click, bounce or scan on `eventID` by `sender`. A visit another site made a browser send is not counted, so
 * pages elsewhere cannot inflate an advertiser's figures.
 */
export async function trackVisit(
  eventID: number,
  kind: VisitKind,
  sender: VisitSender,
  { fromSponsoredSlot = false }: { fromSponsoredSlot?: boolean } = {},
): Promise<VisitResult> {
  if (sender.crossSite) return 'ignored'
  return recordEventVisit({
    fromSponsoredSlot,
    eventID,
    kind,
    ip: sender.ip,
    userAgent: sender.userAgent,
    today: platformToday(),
    secret: getEnv().sessionSecrets[0] ?? '',
  })
}

/**
 * Where the scan of an ad's QR code sends the phone: the ad's page while it is live (`live`: then the scan is
 * counted), else `/event/{id}?viewMode=true` (its owner's page; "not found" for anyone else, as for a missing id).
 */
export async function scanDestination(eventID: number): Promise<{ path: string; live: boolean }> {
  const ad = await liveEventAddress(eventID, platformToday())
  return ad
    ? { path: eventPagePath(ad), live: true }
    : { path: `/event/${eventID}?viewMode=true`, live: false }
}

/** POST /api/events/{id}/track-click and track-bounce: the visit recorded, or a not_found AppError for no live event. */
export async function trackVisitOfEvent(eventID: number | null, kind: VisitKind, sender: VisitSender) {
  const result = eventID ? await trackVisit(eventID, kind, sender) : 'not-found'
  if (result === 'not-found') throw new AppError('Event not found', 'not_found')
}
