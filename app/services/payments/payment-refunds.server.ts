/** Refunding an ad's payment through its provider (moderation rejects a paid ad). */
import { db, type Transaction } from '#db/client.server.ts'
import { getSettledPaymentForEvent, markPaymentRefunded } from '#app/models/payments/payment.server.ts'
import { requireProvider } from './payment-rules.server.ts'

export interface RefundResult {
  /** True once the event's payment is (now or already) fully refunded. */
  refunded: boolean
  /** True when this call made the change; false when it was refunded before (or there was nothing to refund). */
  changed: boolean
  amountRefundedCents: number
  message: string
}

/**
 * Fully refunds an event's payment through its provider (used when moderation rejects a paid ad). Calling it again
 * changes nothing; an event that was never paid has nothing to refund. `alsoInTransaction` runs with the refund's
 * record (the rejection's email), given the amount refunded.
 */
export async function refundEventPayment(
  eventID: number,
  reason: string,
  {
    alsoInTransaction = async () => {},
  }: { alsoInTransaction?: (tx: Transaction, refundedCents: number) => Promise<void> } = {},
): Promise<RefundResult> {
  const payment = await getSettledPaymentForEvent(eventID)
  const alone = (refundedCents: number) => db.transaction((tx) => alsoInTransaction(tx, refundedCents))
  if (!payment?.payment_intent_id) {
    await alone(0)
    return {
      refunded: false,
      changed: false,
      amountRefundedCents: 0,
      message: 'There is no payment to refund.',
    }
  }
  if (payment.payment_status === 'refunded') {
    await alone(payment.amount_refunded_cents)
    return {
      refunded: true,
      changed: false,
      amountRefundedCents: payment.amount_refunded_cents,
      message: 'The payment was already refunded.',
    }
  }
  const provider = requireProvider()
  const amount = payment.amount_paid_cents - payment.amount_refunded_cents
  if (amount > 0) {
    await provider.refund({
      paymentIntentId: payment.payment_intent_id,
      amountCents: amount,
      reason,
      // The processor's own id: payment ids start over with a new database, and the processor keeps its keys.
      idempotencyKey: `refund-${payment.payment_intent_id}-${amount}`,
    })
  }
  const paymentIntentId = payment.payment_intent_id
  const { changed, payment: after } = await db.transaction(async (tx) => {
    const marked = await markPaymentRefunded(
      paymentIntentId,
      { amountRefundedCents: payment.amount_paid_cents, full: true, reason },
      tx,
    )
    await alsoInTransaction(tx, marked.payment?.amount_refunded_cents ?? payment.amount_paid_cents)
    return marked
  })
  return {
    refunded: true,
    changed,
    amountRefundedCents: after?.amount_refunded_cents ?? payment.amount_paid_cents,
    message: changed ? 'The payment was refunded.' : 'The payment was already refunded.',
  }
}
