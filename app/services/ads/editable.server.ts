/** Which of its ads a business may still edit, and the ad as its edit starts from. */
import { eventInputFromEvent } from '#app/models/ads/event-schema.ts'
import { getOpenRevision, revisedAd, revisionNotice } from '#app/models/ads/event-revision.server.ts'
import { ownerEditKind, standingReviewReason } from '#app/models/ads/event-status.ts'
import { getOwnedEvent } from '#app/models/ads/event.server.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import type { Event } from '#db/schema.ts'
import { AppError } from '#app/utils/app-error.ts'
import type { BusinessSessionCopy } from '../http/auth.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import { AD_NOT_EDITABLE_MESSAGE, EVENT_NOT_FOUND_MESSAGE } from './save.server.ts'

/**
 * The business's own ad when it may still be edited (see `ownerEditKind`: unpaid, or paid and awaiting review or
 * sent back). Someone else's ad reads as not found, so nobody learns it exists; any other (live, ended,
 * rejected, refunded) is a conflict.
 */
export async function requireEditableEvent(business: BusinessSessionCopy, id: unknown): Promise<Event> {
  const eventID = typeof id === 'number' ? id : parseId(typeof id === 'string' ? id : null)
  const event = eventID ? await getOwnedEvent(eventID, business.businessID) : null
  if (!event) throw new AppError(EVENT_NOT_FOUND_MESSAGE, 'not_found')
  if (!ownerEditKind(event, platformToday())) throw new AppError(AD_NOT_EDITABLE_MESSAGE, 'conflict')
  return event
}

/**
 * The ad as its edit form starts from: a live ad with an open revision (pending, or sent back) from the revision,
 * which is what the advertiser last sent; otherwise the saved ad.
 */
export async function adAsEdited(event: Event) {
  const revision = event.eventStatus === 'approved' ? await getOpenRevision(event.eventID) : null
  const current = revision ? revisedAd(event, revision) : event
  return {
    input: eventInputFromEvent(current),
    media: { stillPhotoPath: current.stillPhotoURL, videoPath: current.videoURL },
    reviewReason: revision ? revisionNotice(revision)?.reason || null : standingReviewReason(event),
  }
}
