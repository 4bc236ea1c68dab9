/**
 * Setting up an ad's payment: one PaymentIntent per event and amount, created with the amount of the event row (the
 * total the payer was shown must be it), or the open one handed back; and, before an unpaid ad is removed or
 * changed, its open attempts settled with the provider.
 */
import { db, type Transaction } from '#db/client.server.ts'
import type { Event } from '#db/schema.ts'
import {
  countPaymentsForEvent,
  getOpenPaymentForEvent,
  insertPayment,
  listOpenPaymentsForEvent,
  lockEventRow,
} from '#app/models/payments/payment.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { shownTotalMatches, totalChangedMessage } from '#app/utils/pricing.ts'
import { recordIntentOutcome } from './payment-outcome.server.ts'
import { getPaymentProvider, type PaymentProvider, type ProviderIntent } from './payment-providers.server.ts'
import { chargeOfPayment, nothingToCharge, promoCodeOf, promoMetadata } from './promo-codes.server.ts'
import {
  ALREADY_PAID_CODE,
  ALREADY_PAID_MESSAGE,
  assertPayable,
  CURRENCY,
  EVENT_NOT_FOUND_MESSAGE,
  requireOwnEvent,
  requireProvider,
  UNPAID_EVENT_TTL_MS,
} from './payment-rules.server.ts'

export interface PaymentSetup {
  clientSecret: string
  paymentIntentId: string
  totalCents: number
  selectedDatesCount: number
  provider: 'stripe' | 'test'
}

const REUSABLE: ReadonlyArray<ProviderIntent['status']> = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
]

/**
 * Creates the event's PaymentIntent, or hands back the open one (a retry, a reload, two tabs). The amount is
 * computed here from the event row; `claimedTotalDollars`, the total the payer was shown, must be it: another total,
 * or none, is refused with the total now before anything is created or held. `paying`: the payer pressed Pay, so the
 * card payment starts now and a promo code's use is held for it (renewed when this ad holds it already); false when
 * the checkout page sets up its card form, which holds nothing.
 */
export async function setUpEventPayment({
  businessID,
  eventID,
  claimedTotalDollars,
  paying,
}: {
  businessID: number
  eventID: number
  claimedTotalDollars: number | null | undefined
  paying: boolean
}): Promise<PaymentSetup> {
  const provider = requireProvider()
  await requireOwnEvent(businessID, eventID)
  // One request per ad at a time, across processes: the row lock is held while the provider is asked.
  return db.transaction(async (tx) => {
    const event = await lockEventRow(tx, eventID)
    if (!event) throw new AppError(EVENT_NOT_FOUND_MESSAGE, 'not_found')
    return setUpLockedEventPayment(tx, { businessID, event, provider, claimedTotalDollars, paying })
  })
}

async function setUpLockedEventPayment(
  tx: Transaction,
  {
    businessID,
    event,
    provider,
    claimedTotalDollars,
    paying,
  }: {
    businessID: number
    event: Event
    provider: PaymentProvider
    claimedTotalDollars: number | null | undefined
    paying: boolean
  },
): Promise<PaymentSetup> {
  assertPayable(event)
  const charge = await chargeOfPayment(tx, event, { holdUse: paying })
  const cents = charge.cents
  if (cents === 0) throw nothingToCharge()
  if (!shownTotalMatches(claimedTotalDollars, cents)) {
    throw new AppError(totalChangedMessage(cents), 'invalid', { code: 'amount_mismatch' })
  }
  const result = (intent: ProviderIntent): PaymentSetup => ({
    clientSecret: intent.clientSecret ?? '',
    paymentIntentId: intent.id,
    totalCents: cents,
    selectedDatesCount: event.showAdOnDates.length,
    provider: provider.kind,
  })

  const open = await getOpenPaymentForEvent(event.eventID, tx)
  if (open?.payment_intent_id && open.amount_due_cents === cents && promoCodeOf(open) === charge.promoCode) {
    const intent = await provider.retrieveIntent(open.payment_intent_id)
    if (intent && REUSABLE.includes(intent.status) && intent.amount === cents) return result(intent)
    if (intent?.status === 'succeeded') {
      await recordIntentOutcome(intent, tx)
      throw new AppError(ALREADY_PAID_MESSAGE, 'conflict', { code: ALREADY_PAID_CODE })
    }
    if (intent?.status === 'processing') {
      throw new AppError('Your payment is being processed. Please check back shortly.', 'conflict', {
        code: 'processing',
      })
    }
  }

  // A fresh key per attempt: an intent that was cancelled (or forgotten by the test provider) cannot be reused. The
  // ad's creation time is in it because ids start over with a new database, while the processor keeps its keys.
  const attempts = await countPaymentsForEvent(event.eventID, tx)
  const attempt = attempts > 0 ? `-${attempts + 1}` : ''
  const idempotencyKey = `event-${event.eventID}-${event.createdDate.getTime()}-${cents}${attempt}`
  const intent = await provider.createIntent({
    amountCents: cents,
    currency: CURRENCY,
    description: `Ad: ${event.eventTitle}`.slice(0, 200),
    metadata: { eventID: String(event.eventID), businessID: String(businessID) },
    idempotencyKey,
  })
  await insertPayment(
    {
      eventID: event.eventID,
      amountDueCents: cents,
      currency: CURRENCY,
      idempotencyKey,
      paymentIntentId: intent.id,
      expiresAt: new Date(event.createdDate.getTime() + UNPAID_EVENT_TTL_MS),
      metadata: {
        provider: provider.kind,
        businessID,
        selectedDates: event.showAdOnDates,
        ...promoMetadata(charge),
      },
    },
    tx,
  )
  return result(intent)
}

/**
 * Before an unpaid ad is removed or changed, its open payment attempts are checked with the provider: one that
 * succeeded (its webhook lost, the browser closed before completion) is recorded as paid; the others are cancelled,
 * so no checkout left open for the ad as it was can still charge for it. 'unknown': a payment is under way or could
 * not be checked.
 */
export async function settleOpenPayments(eventID: number): Promise<'paid' | 'unpaid' | 'unknown'> {
  const open = (await listOpenPaymentsForEvent(eventID)).filter((p) => p.payment_intent_id)
  if (open.length === 0) return 'unpaid'
  const provider = getPaymentProvider()
  if (!provider) return 'unpaid'
  for (const payment of open) {
    try {
      const intent = await provider.retrieveIntent(payment.payment_intent_id!)
      if (!intent) continue
      if (intent.status === 'succeeded') {
        const outcome = await recordIntentOutcome(intent)
        if (outcome.kind === 'paid') return 'paid'
        return 'unknown'
      }
      if (intent.status === 'processing') return 'unknown'
      if (intent.status !== 'canceled') await provider.cancelIntent(intent.id)
    } catch (error) {
      console.warn(
        `Could not check payment ${payment.payment_intent_id} of event ${eventID}; keeping it for now`,
        error,
      )
      return 'unknown'
    }
  }
  return 'unpaid'
}
