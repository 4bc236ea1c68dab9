/** Changing an ad the advertiser saved but has not paid for yet: the same event, never a second one. */
import { getOwnedEvent } from '#app/models/event.server.ts'
import { isEditableByOwner } from '#app/models/event-status.ts'
import type { EventInput } from '#app/models/event-schema.ts'
import { parseIdParam } from '#app/models/format.ts'
import type { Event } from '#db/schema.ts'
import type { BusinessSessionCopy } from './auth.server.ts'
import type { StagedFile } from './media.server.ts'
import { settleOpenPayments } from './payments.server.ts'
import {
  AD_NOT_EDITABLE_MESSAGE,
  EVENT_NOT_FOUND_MESSAGE,
  saveApprovedEvent,
} from './event-submission.server.ts'
import { AppError } from '#app/utils/app-error.ts'

export const PAYMENT_UNDER_WAY_MESSAGE =
  'A payment for this ad is being processed, so it cannot be edited now. Please check back shortly.'

/**
 * The business's own ad when it may still be edited. Someone else's ad reads as not found (404), so nobody learns
 * it exists; a paid one (awaiting review, live, ended, refunded) is a 409.
 */
export async function requireEditableEvent(business: BusinessSessionCopy, id: unknown): Promise<Event> {
  const eventID = typeof id === 'number' ? id : parseIdParam(typeof id === 'string' ? id : null)
  const event = eventID ? await getOwnedEvent(eventID, business.businessID) : null
  if (!event) throw new AppError(EVENT_NOT_FOUND_MESSAGE, 404)
  if (!isEditableByOwner(event)) throw new AppError(AD_NOT_EDITABLE_MESSAGE, 409)
  return event
}

/**
 * Saves the approved ad: a new one, or (with `eventID`) the business's unpaid one in place. Before an edit, any
 * checkout still open for the ad as it was is settled with the provider, so an old price cannot pay for new dates.
 */
export async function saveAd(args: {
  business: BusinessSessionCopy
  input: EventInput
  files: { photo?: StagedFile; video?: StagedFile }
  claimedTotal?: number | null
  eventID?: number
}) {
  if (args.eventID !== undefined) {
    await requireEditableEvent(args.business, args.eventID)
    const payments = await settleOpenPayments(args.eventID)
    if (payments === 'paid') throw new AppError(AD_NOT_EDITABLE_MESSAGE, 409)
    if (payments === 'unknown') throw new AppError(PAYMENT_UNDER_WAY_MESSAGE, 409)
  }
  return saveApprovedEvent(args)
}
