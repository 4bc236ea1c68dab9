/**
 * Making a live ad sponsored: the surcharge for the display days it has left at today's price, paid as a payment of its
 * own (sponsorship.ts). The amount comes from the event row and the price list under the event's lock, never from the
 * browser; a total the page showed that is no longer the price is refused with the new one.
 */
import { db } from '#db/client.server.ts'
import type { Event } from '#db/schema.ts'
import type { MailContext } from '#app/models/mail/notifications.server.ts'
import {
  countPaymentsForEvent,
  insertPayment,
  listOpenSponsorshipPayments,
  getPaymentByIntentId,
  lockEventRow,
} from '#app/models/payments/payment.server.ts'
import { currentPriceList } from '#app/models/payments/price-list.server.ts'
import { sponsoredSurchargeCentsFor } from '#app/models/payments/price-list.ts'
import {
  isSponsorshipPayment,
  sponsorDaysLeft,
  sponsorLiveProblem,
  SPONSOR_LIVE_TEXT,
  SPONSORSHIP_PURPOSE,
} from '#app/models/payments/sponsorship.ts'
import { AppError } from '#app/utils/app-error.ts'
import { claimedTotalMatches, totalChangedMessage } from '#app/utils/pricing.ts'
import type { Transaction } from '#db/client.server.ts'
import { getEnv } from '../platform/env.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import { completeEventPayment, confirmTestCard } from './payment-completion.server.ts'
import { recordIntentOutcome } from './payment-outcome.server.ts'
import { getPaymentProvider, type ProviderIntent, type TestCardInput } from './payment-providers.server.ts'
import {
  CURRENCY,
  paymentsMode,
  PAYMENTS_UNAVAILABLE_MESSAGE,
  requireOwnEvent,
  requireProvider,
} from './payment-rules.server.ts'

export const SPONSORSHIP_NOT_OFFERED = 'Sponsored placement is not offered at the moment.'

/** What making the ad sponsored costs now: its display days left (today included) at today's price per day. */
export interface SponsorQuote {
  days: string[]
  cents: number
  centsPerDay: number
}

/** The quote for a live ad, or a `conflict` AppError saying why it cannot be sponsored now. */
async function quoteFor(event: Event, today: string, tx?: Transaction): Promise<SponsorQuote> {
  const problem = sponsorLiveProblem(event, today)
  if (problem) throw new AppError(problem, 'conflict', { code: 'not_sponsorable' })
  const list = await currentPriceList(tx)
  if (list.sponsoredSlots <= 0 || list.sponsoredCentsPerDay <= 0)
    throw new AppError(SPONSORSHIP_NOT_OFFERED, 'conflict', { code: 'not_offered' })
  const days = sponsorDaysLeft(event.showAdOnDates, today)
  return {
    days,
    cents: sponsoredSurchargeCentsFor(days.length, list),
    centsPerDay: list.sponsoredCentsPerDay,
  }
}

/** The offer the ad's page shows: the quote when the ad may be made sponsored now, else null. */
export async function sponsorOfferFor(event: Event, today = platformToday()): Promise<SponsorQuote | null> {
  if (paymentsMode() === 'unavailable') return null
  return quoteFor(event, today).catch((error: unknown) => {
    if (error instanceof AppError && error.kind === 'conflict') return null
    throw error
  })
}

/** The sponsor page of the caller's ad: its title and the quote (not found, forbidden, or why not, as AppErrors). */
export async function sponsorPage(businessID: number, eventID: number) {
  const event = await requireOwnEvent(businessID, eventID)
  if (paymentsMode() === 'unavailable') throw new AppError(PAYMENTS_UNAVAILABLE_MESSAGE, 'unavailable')
  const quote = await quoteFor(event, platformToday())
  const mode = paymentsMode()
  return {
    eventID: event.eventID,
    eventTitle: event.eventTitle,
    quote,
    mode,
    publishableKey: mode === 'stripe' ? (getEnv().STRIPE_PUBLISHABLE_KEY ?? '') : '',
  }
}

const REUSABLE: ReadonlyArray<ProviderIntent['status']> = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
]

/**
 * The sponsorship's PaymentIntent for the quote of now, or the open one for the same amount handed back (a retry, a
 * second tab); one for another amount (the price changed) is cancelled. `claimedCents` is the total the page showed.
 */
export async function setUpSponsorship({
  businessID,
  eventID,
  claimedCents,
}: {
  businessID: number
  eventID: number
  claimedCents: number
}) {
  const provider = requireProvider()
  await requireOwnEvent(businessID, eventID)
  // One set-up per ad at a time, across processes: the row lock is held while the provider is asked.
  return db.transaction(async (tx) => {
    const event = await lockEventRow(tx, eventID)
    if (!event || event.businessID !== businessID) throw new AppError('Event not found', 'not_found')
    const quote = await quoteFor(event, platformToday(), tx)
    if (!claimedTotalMatches(claimedCents / 100, quote.cents))
      throw new AppError(totalChangedMessage(quote.cents), 'invalid', { code: 'amount_mismatch' })
    for (const open of await listOpenSponsorshipPayments(eventID, tx)) {
      if (!open.payment_intent_id) continue
      const intent = await provider.retrieveIntent(open.payment_intent_id)
      if (open.amount_due_cents === quote.cents && intent && REUSABLE.includes(intent.status))
        return { paymentIntentId: intent.id, clientSecret: intent.clientSecret ?? '', quote }
      // Paid in another tab (or its webhook not in yet): recorded now, and nothing is charged twice.
      if (intent?.status === 'succeeded') {
        await recordIntentOutcome(intent, tx)
        throw new AppError(SPONSOR_LIVE_TEXT.alreadySponsored, 'conflict', { code: 'already_sponsored' })
      }
      if (intent?.status === 'processing') {
        throw new AppError('Your payment is being processed. Please check back shortly.', 'conflict', {
          code: 'processing',
        })
      }
      // Another amount, or gone: it must not be paid now.
      if (intent && REUSABLE.includes(intent.status)) await provider.cancelIntent(intent.id)
    }
    const attempt = (await countPaymentsForEvent(eventID, tx)) + 1
    // The ad's creation time is in it because ids start over with a new database, while the processor keeps its keys.
    const idempotencyKey = `sponsor-${eventID}-${event.createdDate.getTime()}-${quote.cents}-${attempt}`
    const intent = await provider.createIntent({
      amountCents: quote.cents,
      currency: CURRENCY,
      description: `Sponsored placement: ${event.eventTitle}`.slice(0, 200),
      metadata: { eventID: String(eventID), businessID: String(businessID), purpose: SPONSORSHIP_PURPOSE },
      idempotencyKey,
    })
    await insertPayment(
      {
        eventID,
        amountDueCents: quote.cents,
        currency: CURRENCY,
        idempotencyKey,
        paymentIntentId: intent.id,
        expiresAt: null,
        metadata: {
          provider: provider.kind,
          businessID,
          purpose: SPONSORSHIP_PURPOSE,
          sponsoredDates: quote.days,
        },
      },
      tx,
    )
    return { paymentIntentId: intent.id, clientSecret: intent.clientSecret ?? '', quote }
  })
}

/**
 * The built-in test provider's card form on the sponsor page: set up, confirm with the card, complete. A refused card
 * is recorded as the attempt's failure; a second payer (another tab) is told the ad is already sponsored.
 */
export async function paySponsorshipWithTestCard({
  businessID,
  eventID,
  claimedCents,
  card,
  mail,
  requestId,
}: {
  businessID: number
  eventID: number
  claimedCents: number
  card: TestCardInput
  mail?: MailContext
  requestId?: string
}) {
  if (getPaymentProvider()?.kind !== 'test') throw new AppError(PAYMENTS_UNAVAILABLE_MESSAGE, 'unavailable')
  const setup = await setUpSponsorship({ businessID, eventID, claimedCents })
  const paid = await confirmTestCard({
    businessID,
    paymentIntentId: setup.paymentIntentId,
    card,
    mail,
    requestId,
  })
  if (paid.paidBefore)
    throw new AppError(SPONSOR_LIVE_TEXT.alreadySponsored, 'conflict', { code: 'already_sponsored' })
  return { eventID, cents: setup.quote.cents }
}

/**
 * Back from Stripe's form (or its card check): the intent is read back from Stripe and counts only if it succeeded and
 * is a sponsorship of this ad of the caller's. Not paid is refused (`payment_refused`, with the reason).
 */
export async function completeSponsorship({
  businessID,
  eventID,
  paymentIntentId,
  mail,
  requestId,
}: {
  businessID: number
  eventID: number
  paymentIntentId: string
  mail?: MailContext
  requestId?: string
}) {
  const payment = /^pi_[A-Za-z0-9_]+$/.test(paymentIntentId)
    ? await getPaymentByIntentId(paymentIntentId)
    : null
  if (!payment || payment.eventID !== eventID || !isSponsorshipPayment(payment.metadata))
    throw new AppError('Payment not found', 'not_found')
  return completeEventPayment({ businessID, paymentIntentId, mail, requestId })
}
