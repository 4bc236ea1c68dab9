/**
 * The checkout flow: the ad to pay for waits in the server session (payment-data.server.ts), the page sets up the
 * payment with the provider, the built-in test provider's card form pays it here, and a payment completed in the
 * browser (Stripe) or on the provider's page (3-D Secure) ends checkout (payment-completion.server.ts). The route reads
 * the session and answers; a refusal that ends checkout carries one of the codes below, or ALREADY_PAID_CODE.
 */
import { getOwnedEvent } from '#app/models/ads/event.server.ts'
import { setUnpaidEventSponsored, setUnpaidEventTotal } from '#app/models/payments/payment.server.ts'
import type { MailContext } from '#app/models/mail/notifications.server.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import type { Event } from '#db/schema.ts'
import { AppError } from '#app/utils/app-error.ts'
import { PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import { centsToDollars, formatDollars } from '#app/utils/pricing.ts'
import { trustOf } from '../moderation/trust.server.ts'
import { getEnv } from '../platform/env.server.ts'
import { logError } from '../platform/logger.server.ts'
import { payWithTestCard, type CompletedPayment } from './payment-completion.server.ts'
import { paymentDataFromEvent, type EventPaymentData, type StoredPaymentData } from './payment-data.server.ts'
import type { TestCardInput } from './payment-providers.server.ts'
import {
  ALREADY_PAID_CODE,
  ALREADY_PAID_MESSAGE,
  amountDueCents,
  assertPayable,
  paymentsMode,
  sponsoredSurchargeDueCents,
} from './payment-rules.server.ts'
import {
  currentFreeAllowance,
  currentSponsoredSlots,
  currentSponsoredSurchargeCents,
} from './pricing.server.ts'
import { withFreeListingSlots } from './free-listing.server.ts'
import { setUpEventPayment } from './payment-setup.server.ts'
import { confirmFreePayment } from './free-payment.server.ts'
import { applyPromoCode, checkoutPromo, removePromoCode, type CheckoutPromo } from './promo-codes.server.ts'
import { SPONSORSHIP_NOT_OFFERED } from './sponsor-live.server.ts'
import { describePromoDiscount, type PromoKind } from '#app/models/payments/promo-code.ts'
import { wasPaidFor } from '#app/models/payments/settled.ts'

/** Checkout has no ad to pay for (none stored, or not the signed-in business's). */
export const NO_EVENT_DATA_CODE = 'no_event_data'
/** The stored payment data cannot be read. */
export const INVALID_EVENT_DATA_CODE = 'invalid_event_data'

const noEventData = () =>
  new AppError(PAYMENT_TEXT.noEventData.description, 'not_found', { code: NO_EVENT_DATA_CODE })
const alreadyPaid = () => new AppError(ALREADY_PAID_MESSAGE, 'conflict', { code: ALREADY_PAID_CODE })

const isPaid = (event: Event) => wasPaidFor(event.paymentStatus)

/** The stored payment data, or the refusal that ends checkout when there is none or it is unreadable. */
function storedOrRefused(stored: StoredPaymentData): EventPaymentData {
  if (stored.status === 'none') throw noEventData()
  if (stored.status === 'invalid') {
    throw new AppError(PAYMENT_TEXT.invalidEventData.description, 'invalid', {
      code: INVALID_EVENT_DATA_CODE,
    })
  }
  return stored.data
}

/** What the checkout page shows: the ad's summary and how to pay for it. */
export interface CheckoutPage {
  mode: ReturnType<typeof paymentsMode>
  /** `promo`: the code applied to the ad, with the list price and the discount; null without one. */
  summary: {
    eventID: number
    eventTitle: string
    dates: string[]
    total: string
    promo: CheckoutPromo | null
  }
  /** Why the code applied to the ad was taken off it (it no longer applies); null when it was not. */
  promoNotice: string | null
  /** The total is $0 with the code: the ad is confirmed without a card. */
  free: boolean
  /** It is $0 as a free listing (every category of it is free), not by a code. */
  freeListing: boolean
  /** Why the payment could not be set up, for the advertiser; null when it was. */
  setupError: string | null
  goesLiveAtPayment: boolean
  /** "Make it sponsored": whether it is chosen and its surcharge ("40.00"); null when the host offers no slots. */
  sponsorship: { sponsored: boolean; surcharge: string } | null
  stripe: {
    publishableKey: string
    /** The body of the set-up and completion calls; dates and total are the event's own. */
    paymentData: EventPaymentData
  } | null
}

export type CheckoutPageResult =
  /** The page; `confirmed` is the payment data of the ad of `?eventID=`, for the session to keep. */
  | { kind: 'page'; page: CheckoutPage; confirmed: EventPaymentData | null }
  /** The ad of `?eventID=` is paid already: its own page says so. */
  | { kind: 'paid_ad'; eventID: number }

/**
 * The checkout page of the stored payment data's ad, or of `confirmEventID` ("Confirm Ad" on /event/{id}: the
 * `?eventID=` as written, null when absent; not found unless it is the business's own). Refused with a code above
 * when there is nothing to pay for. With the test provider the card form's payment is set up here, holding nothing:
 * a promo code's use is held only once Pay is pressed (Stripe's card form sets its payment up then). A set-up that
 * fails, or an ad that cannot be paid yet, is the page's `setupError` (an unexpected failure is logged with
 * `requestId`).
 */
export async function checkoutPage({
  businessID,
  stored,
  confirmEventID,
  requestId,
}: {
  businessID: number
  stored: StoredPaymentData
  confirmEventID: string | null
  requestId?: string
}): Promise<CheckoutPageResult> {
  let confirmed: EventPaymentData | null = null
  if (confirmEventID !== null) {
    const eventID = parseId(confirmEventID)
    const owned = eventID ? await getOwnedEvent(eventID, businessID) : null
    if (!owned) throw new AppError('Event not found', 'not_found')
    if (isPaid(owned)) return { kind: 'paid_ad', eventID: owned.eventID }
    confirmed = await paymentDataFromEvent(owned)
  }

  const paymentData = confirmed ?? storedOrRefused(stored)
  const event =
    paymentData.businessID === businessID ? await getOwnedEvent(paymentData.eventID, businessID) : null
  if (!event) throw noEventData()
  if (isPaid(event)) throw alreadyPaid()

  const mode = paymentsMode()
  let setupError: string | null = null
  let totalCents = 0
  let promo: CheckoutPromo | null = null
  let promoNotice: string | null = null
  try {
    const applied = await checkoutPromo(event)
    promoNotice = applied.dropped
    if (applied.promo) {
      const { code, listCents, discountCents } = applied.promo
      promo = {
        code: code.code,
        description: describePromoDiscount({ kind: code.kind as PromoKind, value: code.value }),
        listTotal: formatDollars(listCents),
        discount: formatDollars(discountCents),
      }
    }
    totalCents = await amountDueCents(applied.promo ? event : { ...event, promoCodeId: null })
    // A draft saved before the prices changed: its total becomes the one shown here, which the payment must claim.
    await setUnpaidEventTotal(event.eventID, totalCents)
    await keepSponsoredSurcharge(event)
    assertPayable(event)
    if (mode === 'test' && totalCents > 0) {
      await setUpEventPayment({
        businessID,
        eventID: event.eventID,
        claimedTotalDollars: centsToDollars(totalCents),
        paying: false,
      })
    }
  } catch (error) {
    if (!(error instanceof AppError)) logError(error, { requestId, msg: 'Setting up a payment failed' })
    setupError = error instanceof AppError ? error.message : PAYMENT_TEXT.setupFailed.description
  }

  return {
    kind: 'page',
    confirmed,
    page: {
      mode,
      summary: {
        eventID: event.eventID,
        eventTitle: event.eventTitle,
        dates: event.showAdOnDates,
        total: formatDollars(totalCents),
        promo,
      },
      promoNotice,
      free: totalCents === 0 && setupError === null,
      freeListing: totalCents === 0 && setupError === null && !promo,
      setupError,
      goesLiveAtPayment: (await trustOf(businessID)).trusted,
      sponsorship: await sponsorshipOffer(event),
      stripe:
        mode === 'stripe' && totalCents > 0
          ? {
              publishableKey: getEnv().STRIPE_PUBLISHABLE_KEY ?? '',
              paymentData: {
                ...paymentData,
                selectedDates: event.showAdOnDates,
                totalAmount: centsToDollars(totalCents),
              },
            }
          : null,
    },
  }
}

/**
 * Pays the stored payment data's ad with the test provider's card form. Without stored data, a posted ad
 * (`postedEventID`, the form's own) that is the business's and paid meanwhile (another tab or click paid it and
 * cleared checkout) is refused as already paid; otherwise as having nothing to pay for.
 */
export async function payAtCheckout({
  businessID,
  stored,
  postedEventID,
  claimedTotalDollars,
  card,
  mail,
  requestId,
}: {
  businessID: number
  stored: StoredPaymentData
  postedEventID?: number
  /** The total the page showed; none, or another than the price now, is refused (the page then shows the new one). */
  claimedTotalDollars: number | undefined
  card: TestCardInput
  mail?: MailContext
  requestId?: string
}): Promise<CompletedPayment> {
  if (stored.status !== 'ok' && postedEventID !== undefined) {
    const owned = await getOwnedEvent(postedEventID, businessID)
    if (owned && isPaid(owned)) throw alreadyPaid()
  }
  const { eventID } = storedOrRefused(stored)
  return payWithTestCard({ businessID, eventID, claimedTotalDollars, card, mail, requestId })
}

/** The checkout's "Make it sponsored" choice for the ad: null when the host offers no Sponsored slots. */
async function sponsorshipOffer(event: Event): Promise<CheckoutPage['sponsorship']> {
  if ((await currentSponsoredSlots()) === 0 && !event.sponsored) return null
  const cents = await currentSponsoredSurchargeCents(event.showAdOnDates.length)
  return { sponsored: event.sponsored, surcharge: formatDollars(cents) }
}

/** A sponsored ad's surcharge as priced now, saved with its total (the price per day may have changed). */
async function keepSponsoredSurcharge(event: Event) {
  if (!event.sponsored) return
  const surchargeCents = await sponsoredSurchargeDueCents(event)
  await setUnpaidEventSponsored({
    eventID: event.eventID,
    businessID: event.businessID,
    sponsored: true,
    surchargeCents,
  })
}

/**
 * "Make it sponsored" at checkout (or not): the stored payment data's ad, the business's and unpaid, becomes
 * sponsored, its total then shown with the surcharge. Refused like the page when there is nothing to pay for.
 */
export async function chooseSponsorshipAtCheckout({
  businessID,
  stored,
  sponsored,
}: {
  businessID: number
  stored: StoredPaymentData
  sponsored: boolean
}) {
  const { eventID } = storedOrRefused(stored)
  const event = await getOwnedEvent(eventID, businessID)
  if (!event) throw noEventData()
  if (isPaid(event)) throw alreadyPaid()
  if (sponsored && (await currentSponsoredSlots()) === 0)
    throw new AppError(SPONSORSHIP_NOT_OFFERED, 'conflict')
  const surchargeCents = sponsored ? await currentSponsoredSurchargeCents(event.showAdOnDates.length) : 0
  if (!(await setUnpaidEventSponsored({ eventID, businessID, sponsored, surchargeCents })))
    throw alreadyPaid()
}

/** The ad checkout is for: the stored payment data's. */
const checkoutEventID = (stored: StoredPaymentData) => storedOrRefused(stored).eventID

/** Applies the code the advertiser typed to the ad at checkout; the toast saying so. */
export async function applyCodeAtCheckout({
  businessID,
  stored,
  code,
}: {
  businessID: number
  stored: StoredPaymentData
  code: string
}) {
  return applyPromoCode({ businessID, eventID: checkoutEventID(stored), code })
}

/** Takes the code off the ad at checkout; the toast saying so. */
export async function removeCodeAtCheckout({
  businessID,
  stored,
}: {
  businessID: number
  stored: StoredPaymentData
}) {
  return removePromoCode({ businessID, eventID: checkoutEventID(stored) })
}

/**
 * Confirms the ad at checkout whose total is $0 with its promo code (no card, no provider). Without stored data, a
 * posted ad that is the business's and paid meanwhile is refused as already paid, as a card payment is.
 */
export async function confirmFreeAtCheckout({
  businessID,
  stored,
  postedEventID,
  claimedTotalDollars,
  mail,
  ip,
}: {
  businessID: number
  stored: StoredPaymentData
  postedEventID?: number
  claimedTotalDollars: number
  mail?: MailContext
  /** The client's address: a free listing counts against its day's cap. */
  ip: string
}): Promise<CompletedPayment> {
  if (stored.status !== 'ok' && postedEventID !== undefined) {
    const owned = await getOwnedEvent(postedEventID, businessID)
    if (owned && isPaid(owned)) throw alreadyPaid()
  }
  const eventID = checkoutEventID(stored)
  const confirm = async () => {
    const paid = await confirmFreePayment({ businessID, eventID, claimedTotalDollars, mail })
    if (paid.paidBefore) throw alreadyPaid()
    return paid
  }
  // A free listing counts against the day's caps of free listings, however it is sent.
  const event = await getOwnedEvent(eventID, businessID)
  if (event && !isPaid(event) && (await currentFreeAllowance(event.category)))
    return withFreeListingSlots({ businessID, ip }, confirm)
  return confirm()
}
