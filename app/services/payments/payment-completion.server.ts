/**
 * Completing a payment the browser reports as done (Stripe's form, or the built-in test provider's card form): the
 * intent is read back from the provider and counts only if the provider says it succeeded.
 */
import type { MailContext } from '#app/models/mail/notifications.server.ts'
import { getEventRow, getPaymentByIntentId, markPaymentFailed } from '#app/models/payments/payment.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import type { BusinessSessionCopy } from '../accounts/auth.server.ts'
import { recordIntentOutcome } from './payment-outcome.server.ts'
import {
  getPaymentProvider,
  isCardError,
  testProvider,
  type TestCardInput,
} from './payment-providers.server.ts'
import {
  ALREADY_PAID_MESSAGE,
  NOT_YOUR_EVENT_MESSAGE,
  PAYMENTS_UNAVAILABLE_MESSAGE,
  requireProvider,
} from './payment-rules.server.ts'
import { setUpEventPayment } from './payment-setup.server.ts'

export interface CompletionResult {
  success: boolean
  message: string
  status: number
  code?: string
  eventID?: number
  /** Paid by an earlier call (another tab, a second click): this one charged nothing. */
  paidBefore?: boolean
}

/**
 * Confirms a payment the browser reports as done: the intent is read back from the provider, must belong to one of
 * the caller's events, and counts only if the provider says it succeeded for the full amount. Calling it again
 * changes nothing.
 */
export async function completeEventPayment({
  business,
  paymentIntentId,
  mail,
}: {
  business: BusinessSessionCopy
  paymentIntentId: string
  mail?: MailContext
}): Promise<CompletionResult> {
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
      console.error(`Payment ${intent.id} succeeded for a missing event ${intent.metadata.eventID}`)
      return {
        success: false,
        message: PAYMENT_TEXT.eventCreationFailed.description,
        status: 500,
        code: 'event_creation_failed',
      }
    }
    throw new AppError('Payment not found', 'not_found')
  }
  if (
    event.businessID !== business.businessID ||
    intent.metadata.businessID !== String(business.businessID)
  ) {
    throw new AppError(NOT_YOUR_EVENT_MESSAGE, 'forbidden')
  }

  const outcome = await recordIntentOutcome(intent, undefined, mail)
  switch (outcome.kind) {
    case 'paid':
      return {
        success: true,
        message: PAYMENT_TEXT.success.description,
        status: 200,
        eventID,
        paidBefore: !outcome.firstTime,
      }
    case 'failed':
      return {
        success: false,
        message: outcome.message ?? PAYMENT_TEXT.failed.description,
        status: 402,
        code: 'payment_failed',
        eventID,
      }
    case 'pending':
      return {
        success: false,
        message:
          outcome.status === 'processing'
            ? 'Your payment is being processed. Please check back shortly.'
            : 'The payment has not been completed.',
        status: 402,
        code: outcome.status,
        eventID,
      }
    case 'canceled':
      return {
        success: false,
        message: 'This payment was cancelled. Please try again.',
        status: 402,
        code: 'canceled',
        eventID,
      }
    case 'not-recorded':
      console.error(`Payment ${intent.id} succeeded but could not be recorded (${outcome.reason})`)
      return {
        success: false,
        message: PAYMENT_TEXT.eventCreationFailed.description,
        status: 500,
        code: 'event_creation_failed',
        eventID,
      }
  }
}

/** The built-in test provider's card form: confirm the event's open intent with the card, then complete. */
export async function payWithTestCard({
  business,
  eventID,
  card,
  mail,
}: {
  business: BusinessSessionCopy
  eventID: number
  card: TestCardInput
  mail?: MailContext
}): Promise<CompletionResult> {
  if (getPaymentProvider()?.kind !== 'test') throw new AppError(PAYMENTS_UNAVAILABLE_MESSAGE, 'unavailable')
  const setup = await setUpEventPayment({ business, eventID })
  try {
    await testProvider().confirmCard(setup.paymentIntentId, card)
  } catch (error) {
    if (!isCardError(error)) throw error
    await markPaymentFailed(setup.paymentIntentId, { code: error.code, message: error.message })
    return { success: false, message: error.message, status: 402, code: error.code, eventID }
  }
  const result = await completeEventPayment({ business, paymentIntentId: setup.paymentIntentId, mail })
  // Two payers at once share the ad's one payment: the one whose completion did not record it is told it is paid.
  if (result.paidBefore) throw new AppError(ALREADY_PAID_MESSAGE, 'conflict', { code: 'already_paid' })
  return result
}
