/**
 * An ad a promo code makes free: confirmed at checkout without a card and without asking the provider, then
 * recorded as paid through the same completion as a card payment (the receipt, the review or going live).
 */
import { db } from '#db/client.server.ts'
import type { MailContext } from '#app/models/mail/notifications.server.ts'
import { insertPayment, lockEventRow } from '#app/models/payments/payment.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { claimedTotalMatches, totalChangedMessage } from '#app/utils/pricing.ts'
import type { CompletedPayment } from './payment-completion.server.ts'
import { recordIntentOutcome } from './payment-outcome.server.ts'
import { assertPayable, CURRENCY, EVENT_NOT_FOUND_MESSAGE, requireOwnEvent } from './payment-rules.server.ts'
import { chargeOfPayment, promoMetadata } from './promo-codes.server.ts'

/** Who took a free ad's "payment": nobody; its receipt shows no card. */
export const NO_PROVIDER = 'none'

/**
 * Confirms the business's ad whose total is $0 with its promo code: `claimedTotalDollars` (what the page showed)
 * must be 0 and still be the total, or it is refused with the total now and nothing is written.
 */
export async function confirmFreePayment({
  businessID,
  eventID,
  claimedTotalDollars,
  mail,
}: {
  businessID: number
  eventID: number
  claimedTotalDollars: number
  mail?: MailContext
}): Promise<CompletedPayment> {
  await requireOwnEvent(businessID, eventID)
  return db.transaction(async (tx) => {
    const event = await lockEventRow(tx, eventID)
    if (!event) throw new AppError(EVENT_NOT_FOUND_MESSAGE, 'not_found')
    assertPayable(event)
    const charge = await chargeOfPayment(tx, event, { holdUse: true })
    if (charge.cents !== 0 || !claimedTotalMatches(claimedTotalDollars, 0)) {
      throw new AppError(totalChangedMessage(charge.cents), 'invalid', { code: 'amount_mismatch' })
    }
    // The payment's own reference in place of a provider's: one per ad, which can be paid once.
    const reference = `free_${event.eventID}_${event.createdDate.getTime()}`
    await insertPayment(
      {
        eventID,
        amountDueCents: 0,
        currency: CURRENCY,
        idempotencyKey: reference,
        paymentIntentId: reference,
        expiresAt: null,
        metadata: {
          provider: NO_PROVIDER,
          businessID,
          selectedDates: event.showAdOnDates,
          ...promoMetadata(charge),
        },
      },
      tx,
    )
    const outcome = await recordIntentOutcome(
      {
        id: reference,
        clientSecret: null,
        status: 'succeeded',
        amount: 0,
        amountReceived: 0,
        currency: CURRENCY,
        metadata: { eventID: String(eventID), businessID: String(businessID) },
        chargeId: null,
        customerId: null,
        paymentMethodId: null,
        card: null,
        receiptUrl: null,
        receiptEmail: null,
        lastError: null,
      },
      tx,
      mail,
    )
    if (outcome.kind !== 'paid') throw new Error(`The free payment of event ${eventID} was not recorded`)
    return { eventID, paidBefore: !outcome.firstTime }
  })
}
