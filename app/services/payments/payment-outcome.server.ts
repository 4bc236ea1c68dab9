/**
 * What the provider says about an intent, applied to our rows: "paid" comes from the provider, never from the
 * browser. The completion call, the webhook and the set-up's checks of an open intent all come through here.
 */
import { db, type Transaction } from '#db/client.server.ts'
import type { Payment } from '#db/schema.ts'
import { enqueuePaymentReceivedEmails, type MailContext } from '#app/models/mail/notifications.server.ts'
import {
  lockEventOfIntent,
  markPaymentFailed,
  markPaymentPaid,
  type MarkPaidResult,
  type PaidDetails,
} from '#app/models/payments/payment.server.ts'
import type { ProviderIntent } from './payment-providers.server.ts'
import { redeemPromoOfPayment, releasePromoOfFailedPayment } from './promo-codes.server.ts'
import { mailContext } from '../http/site-url.server.ts'
import { autoApproveAtPayment } from '../moderation/trust.server.ts'

export type IntentOutcome =
  | { kind: 'paid'; payment: Payment; firstTime: boolean }
  | { kind: 'failed'; message: string | null }
  | { kind: 'pending'; status: ProviderIntent['status'] }
  | { kind: 'canceled' }
  | { kind: 'not-recorded'; reason: MarkPaidResult['outcome'] }

function paidDetails(intent: ProviderIntent): PaidDetails {
  return {
    paymentIntentId: intent.id,
    amountPaidCents: intent.amountReceived,
    currency: intent.currency,
    paidAt: new Date(),
    chargeId: intent.chargeId,
    customerId: intent.customerId,
    paymentMethodId: intent.paymentMethodId,
    cardBrand: intent.card?.brand ?? null,
    cardLast4: intent.card?.last4 ?? null,
    cardExpMonth: intent.card?.expMonth ?? null,
    cardExpYear: intent.card?.expYear ?? null,
    receiptUrl: intent.receiptUrl,
    receiptEmail: intent.receiptEmail,
  }
}

/**
 * Applies what the provider says about an intent to our rows. The completion call and the webhook both come
 * through here (and so through the one `markPaymentPaid`). `mail` gives the links of the receipt email.
 */
export async function recordIntentOutcome(
  intent: ProviderIntent,
  executor?: Transaction,
  mail: MailContext = mailContext(),
): Promise<IntentOutcome> {
  switch (intent.status) {
    case 'succeeded': {
      // The receipt and the administrators' notice are queued with the change that makes the ad paid.
      const record = async (tx: Transaction) => {
        const result = await markPaymentPaid(paidDetails(intent), tx)
        if (result.outcome === 'paid') {
          // A trusted business's ad goes live now; the administrators are then not asked to review it.
          await redeemPromoOfPayment(tx, result.payment)
          await autoApproveAtPayment(tx, result.payment.eventID, { origin: mail.origin })
          await enqueuePaymentReceivedEmails(tx, result.payment.paymentID, mail)
        }
        return result
      }
      const result = executor ? await record(executor) : await db.transaction(record)
      if (result.outcome === 'paid') return { kind: 'paid', payment: result.payment, firstTime: true }
      if (result.outcome === 'already-paid')
        return { kind: 'paid', payment: result.payment, firstTime: false }
      return { kind: 'not-recorded', reason: result.outcome }
    }
    case 'requires_payment_method':
      if (intent.lastError) {
        await recordPaymentFailure(intent.id, intent.lastError, executor)
        return { kind: 'failed', message: intent.lastError.message || null }
      }
      return { kind: 'pending', status: intent.status }
    case 'canceled':
      return { kind: 'canceled' }
    default:
      return { kind: 'pending', status: intent.status }
  }
}

/**
 * A declined or failed attempt recorded, and the promo code's use it held released, so another ad may have it at
 * once. The ad's row is locked first, as every change of a payment and its ad does. False when the attempt was
 * settled already (a late report of an earlier decline changes nothing).
 */
export async function recordPaymentFailure(
  paymentIntentId: string,
  error: { code: string | null; message: string },
  executor?: Transaction,
): Promise<boolean> {
  const record = async (tx: Transaction) => {
    await lockEventOfIntent(tx, paymentIntentId)
    const failed = await markPaymentFailed(paymentIntentId, error, tx)
    if (failed) await releasePromoOfFailedPayment(tx, failed)
    return failed !== null
  }
  return executor ? record(executor) : db.transaction(record)
}
