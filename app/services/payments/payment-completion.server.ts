/**
 * Completing a payment the browser reports as done (Stripe's form, or the built-in test provider's card form): the
 * intent is read back from the provider and counts only if the provider says it succeeded.
 */
import type { MailContext } from '#app/models/mail/notifications.server.ts'
import { getEventRow, getPaymentByIntentId } from '#app/models/payments/payment.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { EVENT_CREATION_FAILED_CODE, PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import { logError } from '../platform/logger.server.ts'
import { recordIntentOutcome, recordPaymentFailure } from './payment-outcome.server.ts'
import {
  getPaymentProvider,
  isCardError,
  testProvider,
  type TestCardInput,
} from './payment-providers.server.ts'
import {
  ALREADY_PAID_CODE,
  ALREADY_PAID_MESSAGE,
  NOT_YOUR_EVENT_MESSAGE,
  PAYMENTS_UNAVAILABLE_MESSAGE,
  requireProvider,
} from './payment-rules.server.ts'
import { setUpEventPayment } from './payment-setup.server.ts'

/** The ad's payment, taken by the provider. */
export interface CompletedPayment {
  eventID: number
  /** Paid by an earlier call (another tab, a second click): this one charged nothing. */
  paidBefore: boolean
}

/** A payment the provider has not taken (yet): its message for the payer, and why (`payment_failed`, `canceled`…). */
const notPaid = (message: string, code: string) => new AppError(message, 'payment_refused', { code })

/**
 * The card was charged but the ad could not be recorded as paid: logged for support (with the request it came from)
 * and refused with the support message.
 */
function chargedButNotRecorded(logLine: string, requestId: string | undefined) {
  const error = new AppError(PAYMENT_TEXT.eventCreationFailed.description, 'unexpected', {
    code: EVENT_CREATION_FAILED_CODE,
  })
  logError(error, { requestId, msg: logLine })
  return error
}

/**
 * Confirms a payment the browser reports as done: the intent is read back from the provider, must belong to one of
 * the caller's events, and counts only if the provider says it succeeded for the full amount. Calling it again
 * changes nothing. Not paid is refused (`payment_refused`, with the provider's reason as its code); paid but not
 * recorded is `event_creation_failed`.
 */
export async function completeEventPayment({
  businessID,
  paymentIntentId,
  mail,
  requestId,
}: {
  businessID: number
  paymentIntentId: string
  mail?: MailContext
  /** The request's id, for the log line of a charge that could not be recorded. */
  requestId?: string
}): Promise<CompletedPayment> {
  const provider = requireProvider()
  if (!/^pi_[A-Za-z0-9_]+$/.test(paymentIntentId))
    throw new AppError('paymentIntentId is required', 'invalid')
  const intent = await provider.retrieveIntent(paymentIntentId)
  if (!intent) throw new AppError('Payment not found', 'not_found')
  const eventID = Number(intent.metadata.eventID)
  const payment = await getPaymentByIntentId(intent.id)
  const event = Number.isInteger(eventID) && eventID > 0 ? await getEventRow(eventID) : null

  if (!event || !payment || payment.eventID !== event.eventID) {
    if (intent.status === 'succeeded') {
      // The card was charged but the ad it paid for is gone (removed as an old draft, or deleted meanwhile).
      throw chargedButNotRecorded(
        `Payment ${intent.id} succeeded for a missing event ${intent.metadata.eventID}`,
        requestId,
      )
    }
    throw new AppError('Payment not found', 'not_found')
  }
  if (event.businessID !== businessID || intent.metadata.businessID !== String(businessID)) {
    throw new AppError(NOT_YOUR_EVENT_MESSAGE, 'forbidden')
  }

  const outcome = await recordIntentOutcome(intent, undefined, mail)
  switch (outcome.kind) {
    case 'paid':
      return { eventID, paidBefore: !outcome.firstTime }
    case 'failed':
      throw notPaid(outcome.message ?? PAYMENT_TEXT.failed.description, 'payment_failed')
    case 'pending':
      throw notPaid(
        outcome.status === 'processing'
          ? 'Your payment is being processed. Please check back shortly.'
          : 'The payment has not been completed.',
        outcome.status,
      )
    case 'canceled':
      throw notPaid('This payment was cancelled. Please try again.', 'canceled')
    case 'not-recorded':
      throw chargedButNotRecorded(
        `Payment ${intent.id} succeeded but could not be recorded (${outcome.reason})`,
        requestId,
      )
  }
}

/**
 * The built-in test provider's card form: the card payment started (a promo code's use held), the event's open intent
 * confirmed with the card, then completed. A card the provider refuses is recorded as the attempt's failure (the
 * held use released) and refused (`payment_refused` with the card's code).
 */
export async function payWithTestCard({
  businessID,
  eventID,
  claimedTotalDollars,
  card,
  mail,
  requestId,
}: {
  businessID: number
  eventID: number
  /** The total the page showed; none, or another than the price now, is refused and nothing is charged. */
  claimedTotalDollars: number | undefined
  card: TestCardInput
  mail?: MailContext
  requestId?: string
}): Promise<CompletedPayment> {
  if (getPaymentProvider()?.kind !== 'test') throw new AppError(PAYMENTS_UNAVAILABLE_MESSAGE, 'unavailable')
  const setup = await setUpEventPayment({ businessID, eventID, claimedTotalDollars, paying: true })
  const paid = await confirmTestCard({
    businessID,
    paymentIntentId: setup.paymentIntentId,
    card,
    mail,
    requestId,
  })
  // Two payers at once share the ad's one payment: the one whose completion did not record it is told it is paid.
  if (paid.paidBefore) throw new AppError(ALREADY_PAID_MESSAGE, 'conflict', { code: ALREADY_PAID_CODE })
  return paid
}

/**
 * The test provider's card on an intent that was set up (an ad's, or a live ad's sponsorship), then completed as the
 * provider says. A card the provider refuses is recorded as the attempt's failure and refused (`payment_refused`).
 */
export async function confirmTestCard({
  businessID,
  paymentIntentId,
  card,
  mail,
  requestId,
}: {
  businessID: number
  paymentIntentId: string
  card: TestCardInput
  mail?: MailContext
  requestId?: string
}): Promise<CompletedPayment> {
  try {
    await testProvider().confirmCard(paymentIntentId, card)
  } catch (error) {
    if (isCardError(error))
      await recordPaymentFailure(paymentIntentId, { code: error.code, message: error.message })
    throw error
  }
  return completeEventPayment({ businessID, paymentIntentId, mail, requestId })
}
