/**
 * Free community listings sent without a card: the per-day caps of a business and of an address, and the no-card
 * completion an ad a promo code makes free goes through too (`confirmFreePayment`): a $0 payment row with no intent,
 * then the review queue, or live at once for a trusted business.
 */
import type { MailContext } from '#app/models/mail/notifications.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { getEnv } from '../platform/env.server.ts'
import {
  FREE_LISTING_WINDOW_MS,
  freeListingAddressKey,
  freeListingBusinessKey,
  giveBackSlot,
  takeSlot,
} from '../platform/rate-limit.server.ts'
import { confirmFreePayment } from './free-payment.server.ts'
import { requireOwnEvent } from './payment-rules.server.ts'

export const freeListingsPerBusinessMessage = (max: number) =>
  `Your business has sent ${max} free listing${max === 1 ? '' : 's'} today, the most allowed in a day. Please try again tomorrow.`
export const FREE_LISTINGS_PER_ADDRESS_MESSAGE =
  'Too many free listings were sent from your address today. Please try again tomorrow.'

/**
 * Runs `work` (the sending of one free listing) within the caps: one slot of the business's and one of the address's
 * for the day, taken before it; refused as too many requests when either is used up. A `work` that fails gives both
 * back, so a refused listing does not count.
 */
export async function withFreeListingSlots<T>(
  { businessID, ip }: { businessID: number; ip: string },
  work: () => Promise<T>,
): Promise<T> {
  const env = getEnv()
  const windowMs = FREE_LISTING_WINDOW_MS
  const max = env.FREE_LISTINGS_PER_BUSINESS_PER_DAY
  const ofBusiness = await takeSlot(freeListingBusinessKey(businessID), { max, windowMs })
  if (!ofBusiness.allowed) {
    throw new AppError(freeListingsPerBusinessMessage(max), 'too_many_requests', {
      retryAfterSeconds: ofBusiness.retryAfterSeconds,
    })
  }
  const ofAddress = await takeSlot(freeListingAddressKey(ip), {
    max: env.FREE_LISTINGS_PER_ADDRESS_PER_DAY,
    windowMs,
  })
  if (!ofAddress.allowed) {
    await giveBackSlot(ofBusiness.slot)
    throw new AppError(FREE_LISTINGS_PER_ADDRESS_MESSAGE, 'too_many_requests', {
      retryAfterSeconds: ofAddress.retryAfterSeconds,
    })
  }
  try {
    return await work()
  } catch (error) {
    await Promise.all([giveBackSlot(ofBusiness.slot), giveBackSlot(ofAddress.slot)])
    throw error
  }
}

/** Sends the business's saved free listing on: recorded at $0 without a card, as a promo code's free ad is. */
export function submitFreeListing({
  businessID,
  eventID,
  mail,
}: {
  businessID: number
  eventID: number
  mail?: MailContext
}) {
  return confirmFreePayment({ businessID, eventID, claimedTotalDollars: 0, mail })
}

export const NO_FREE_LISTING_MESSAGE = 'This ad was not sent as a free listing.'

/**
 * The confirmation page of the business's free listing `eventID` once sent: its title and dates, and whether it
 * waits for review or is live already. Forbidden for someone else's ad, not found for one not sent as a free listing.
 */
export async function freeListingSentPage(businessID: number, eventID: number) {
  const event = await requireOwnEvent(businessID, eventID)
  if (event.paymentStatus !== 'paid' || Number(event.totalCost) !== 0 || event.promoCodeId !== null)
    throw new AppError(NO_FREE_LISTING_MESSAGE, 'not_found')
  return {
    eventID: event.eventID,
    eventTitle: event.eventTitle,
    dates: event.showAdOnDates,
    live: event.eventStatus === 'approved',
  }
}
