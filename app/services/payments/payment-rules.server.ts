/**
 * The rules every payment follows: which provider takes it, whose ad it is, whether it may be paid, and what it
 * costs. Whatever the browser says, the amount comes from the event row (`amountDueCents`), and "paid" comes from
 * the provider (payment-outcome.server.ts).
 */
import type { Transaction } from '#db/client.server.ts'
import type { Event } from '#db/schema.ts'
import { getEventRow } from '#app/models/payments/payment.server.ts'
import { assertFreeListingFits } from '#app/models/payments/free-listing.ts'
import { adPromoDiscountCents } from '#app/models/payments/promo-code.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import { getPaymentProvider, type PaymentProvider } from './payment-providers.server.ts'
import { currentAdCharge, currentSponsoredSurchargeCents } from './pricing.server.ts'

export const CURRENCY = 'usd'
/** An unpaid draft is removed this long after it was saved (cleanup.server.ts); its intent expires with it. */
export const UNPAID_EVENT_TTL_MS = 24 * 60 * 60 * 1000

export const PAYMENTS_UNAVAILABLE_MESSAGE = PAYMENT_TEXT.unavailable
export const ALREADY_PAID_MESSAGE = PAYMENT_TEXT.alreadyPaid.description
/** The code of every "already paid" refusal, which a client branches on. */
export const ALREADY_PAID_CODE = 'already_paid'
export const REFUNDED_MESSAGE = 'This ad was refunded and cannot be paid again.'
export const EVENT_NOT_FOUND_MESSAGE = 'Event not found'
export const NOT_YOUR_EVENT_MESSAGE = 'That event is not yours.'

/** The configured provider; unavailable when payments are not set up. */
export function requireProvider(): PaymentProvider {
  const provider = getPaymentProvider()
  if (!provider) throw new AppError(PAYMENTS_UNAVAILABLE_MESSAGE, 'unavailable')
  return provider
}

export function paymentsMode(): 'stripe' | 'test' | 'unavailable' {
  return getPaymentProvider()?.kind ?? 'unavailable'
}

/* Ownership ------------------------------------------------------------------------------------------------------ */

/** The event when it belongs to the signed-in business: not found when missing, forbidden when someone else's. */
export async function requireOwnEvent(businessID: number, eventID: number): Promise<Event> {
  if (!Number.isInteger(eventID) || eventID <= 0) throw new AppError('eventID is required', 'invalid')
  const event = await getEventRow(eventID)
  if (!event) throw new AppError(EVENT_NOT_FOUND_MESSAGE, 'not_found')
  if (event.businessID !== businessID) throw new AppError(NOT_YOUR_EVENT_MESSAGE, 'forbidden')
  return event
}

export const CATEGORY_REQUIRED_MESSAGE =
  'This ad has no category yet: choose one in Edit Event before checkout.'

export function assertPayable(event: Event) {
  if (event.paymentStatus === 'paid')
    throw new AppError(ALREADY_PAID_MESSAGE, 'conflict', { code: ALREADY_PAID_CODE })
  if (event.paymentStatus === 'refunded')
    throw new AppError(REFUNDED_MESSAGE, 'conflict', { code: 'refunded' })
  // A draft of the older POST /api/events has none until its advertiser chooses one.
  if (event.category.length === 0) {
    throw new AppError(CATEGORY_REQUIRED_MESSAGE, 'conflict', { code: 'category_required' })
  }
}

export const NO_DATES_TO_PAY_MESSAGE = 'This ad has no display dates to pay for.'

/**
 * What the unpaid event lists at now: its own display dates at the current prices (a draft saved before a price
 * change is charged the new price, which checkout shows before the payment), or $0 for a free listing within its
 * limits, with the sponsored surcharge when the advertiser chose it.
 */
export async function listPriceCents(event: Event, tx?: Transaction) {
  const days = event.showAdOnDates.length
  const { cents, allowance } = await currentAdCharge({ days, categories: event.category }, tx)
  if (days === 0 || (cents <= 0 && !allowance)) throw new AppError(NO_DATES_TO_PAY_MESSAGE, 'invalid')
  if (allowance) {
    assertFreeListingFits(
      { dates: days, photo: Boolean(event.stillPhotoURL), video: Boolean(event.videoURL) },
      allowance,
    )
  }
  return cents + (await sponsoredSurchargeDueCents(event, tx))
}

/** The sponsored surcharge in what the unpaid event costs now: its display days at today's price; 0 unsponsored. */
export async function sponsoredSurchargeDueCents(event: Event, tx?: Transaction) {
  return event.sponsored ? currentSponsoredSurchargeCents(event.showAdOnDates.length, tx) : 0
}

/** What the unpaid event costs now: its list price less the discount of the promo code applied to it. */
export async function amountDueCents(event: Event, tx?: Transaction) {
  const listCents = await listPriceCents(event, tx)
  return listCents - (await adPromoDiscountCents(event, listCents, tx))
}
