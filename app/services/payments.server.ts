/**
 * Paying for an ad: set-up (one PaymentIntent per event and amount), completion, webhooks and refunds. Whatever
 * the browser says, the amount comes from the event row and "paid" comes from the provider.
 */
import { z } from 'zod'
import { db, type Transaction } from '#db/client.server.ts'
import type { Event, Payment } from '#db/schema.ts'
import {
  claimProviderEvent,
  countPaymentsForEvent,
  getEventRow,
  getOpenPaymentForEvent,
  getPaymentByIntentId,
  getSettledPaymentForEvent,
  hasProcessedProviderEvent,
  insertPayment,
  listOpenPaymentsForEvent,
  lockEventRow,
  markPaymentFailed,
  markPaymentPaid,
  markPaymentRefunded,
  type MarkPaidResult,
  type PaidDetails,
} from '#app/models/payment.server.ts'
import { enqueuePaymentReceivedEmails, type MailContext } from '#app/models/notifications.server.ts'
import type { BusinessSessionCopy } from './auth.server.ts'
import { getEnv } from './env.server.ts'
import { mailContext } from './site-url.server.ts'
import { PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import {
  getPaymentProvider,
  getStripe,
  isCardError,
  testProvider,
  type PaymentProvider,
  type ProviderIntent,
  type TestCardInput,
} from './payment-providers.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { chargeCentsForDays, claimedTotalMatches, TOTAL_MISMATCH_MESSAGE } from '#app/utils/pricing.ts'

export { getPaymentProvider, type PaymentProvider, type ProviderIntent } from './payment-providers.server.ts'

export const CURRENCY = 'usd'
/** An unpaid draft is removed this long after it was saved (cleanup.server.ts); its intent expires with it. */
export const UNPAID_EVENT_TTL_MS = 24 * 60 * 60 * 1000

export const PAYMENTS_UNAVAILABLE_MESSAGE = PAYMENT_TEXT.unavailable
export const ALREADY_PAID_MESSAGE = PAYMENT_TEXT.alreadyPaid.description
export const REFUNDED_MESSAGE = 'This ad was refunded and cannot be paid again.'
export const EVENT_NOT_FOUND_MESSAGE = 'Event not found'
export const NOT_YOUR_EVENT_MESSAGE = 'That event is not yours.'

function requireProvider(): PaymentProvider {
  const provider = getPaymentProvider()
  if (!provider) throw new AppError(PAYMENTS_UNAVAILABLE_MESSAGE, 503)
  return provider
}

export function paymentsMode(): 'stripe' | 'test' | 'unavailable' {
  return getPaymentProvider()?.kind ?? 'unavailable'
}

/* Ownership ------------------------------------------------------------------------------------------------------ */

/** The event when it belongs to the signed-in business: 404 when missing, 403 when someone else's. */
export async function requireOwnEvent(business: BusinessSessionCopy, eventID: number): Promise<Event> {
  if (!Number.isInteger(eventID) || eventID <= 0) throw new AppError('eventID is required', 400)
  const event = await getEventRow(eventID)
  if (!event) throw new AppError(EVENT_NOT_FOUND_MESSAGE, 404)
  if (event.businessID !== business.businessID) throw new AppError(NOT_YOUR_EVENT_MESSAGE, 403)
  return event
}

export const CATEGORY_REQUIRED_MESSAGE =
  'This ad has no category yet: choose one in Edit Event before checkout.'

export function assertPayable(event: Event) {
  if (event.paymentStatus === 'paid') throw new AppError(ALREADY_PAID_MESSAGE, 409, { code: 'already_paid' })
  if (event.paymentStatus === 'refunded') throw new AppError(REFUNDED_MESSAGE, 409, { code: 'refunded' })
  // A draft of the older POST /api/events has none until its advertiser chooses one.
  if (event.category.length === 0) {
    throw new AppError(CATEGORY_REQUIRED_MESSAGE, 409, { code: 'category_required' })
  }
}

/** What the event costs, from its own display dates. */
export function amountDueCents(event: Event) {
  const cents = chargeCentsForDays(event.showAdOnDates.length)
  if (cents <= 0) throw new AppError('This ad has no display dates to pay for.', 400)
  return cents
}

/* Set-up --------------------------------------------------------------------------------------------------------- */

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
 * computed here from the event row; a `claimedTotalDollars` that differs is refused before anything is created.
 */
export async function setUpEventPayment({
  business,
  eventID,
  claimedTotalDollars,
}: {
  business: BusinessSessionCopy
  eventID: number
  claimedTotalDollars?: number | null
}): Promise<PaymentSetup> {
  const provider = requireProvider()
  await requireOwnEvent(business, eventID)
  // One request per ad at a time, across processes: the row lock is held while the provider is asked.
  return db.transaction(async (tx) => {
    const event = await lockEventRow(tx, eventID)
    if (!event) throw new AppError(EVENT_NOT_FOUND_MESSAGE, 404)
    return setUpLockedEventPayment(tx, { business, event, provider, claimedTotalDollars })
  })
}

async function setUpLockedEventPayment(
  tx: Transaction,
  {
    business,
    event,
    provider,
    claimedTotalDollars,
  }: {
    business: BusinessSessionCopy
    event: Event
    provider: PaymentProvider
    claimedTotalDollars?: number | null
  },
): Promise<PaymentSetup> {
  assertPayable(event)
  const cents = amountDueCents(event)
  if (!claimedTotalMatches(claimedTotalDollars, cents)) {
    throw new AppError(TOTAL_MISMATCH_MESSAGE, 400, { code: 'amount_mismatch' })
  }
  const result = (intent: ProviderIntent): PaymentSetup => ({
    clientSecret: intent.clientSecret ?? '',
    paymentIntentId: intent.id,
    totalCents: cents,
    selectedDatesCount: event.showAdOnDates.length,
    provider: provider.kind,
  })

  const open = await getOpenPaymentForEvent(event.eventID, tx)
  if (open?.payment_intent_id && open.amount_due_cents === cents) {
    const intent = await provider.retrieveIntent(open.payment_intent_id)
    if (intent && REUSABLE.includes(intent.status) && intent.amount === cents) return result(intent)
    if (intent?.status === 'succeeded') {
      await recordIntentOutcome(intent, tx)
      throw new AppError(ALREADY_PAID_MESSAGE, 409, { code: 'already_paid' })
    }
    if (intent?.status === 'processing') {
      throw new AppError('Your payment is being processed. Please check back shortly.', 409, {
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
    metadata: { eventID: String(event.eventID), businessID: String(business.businessID) },
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
        businessID: business.businessID,
        selectedDates: event.showAdOnDates,
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

/* Completion ----------------------------------------------------------------------------------------------------- */

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
        if (result.outcome === 'paid') await enqueuePaymentReceivedEmails(tx, result.payment.paymentID, mail)
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
        await markPaymentFailed(intent.id, intent.lastError, executor)
        return { kind: 'failed', message: intent.lastError.message || null }
      }
      return { kind: 'pending', status: intent.status }
    case 'canceled':
      return { kind: 'canceled' }
    default:
      return { kind: 'pending', status: intent.status }
  }
}

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
  if (!/^pi_[A-Za-z0-9_]+$/.test(paymentIntentId)) throw new AppError('paymentIntentId is required', 400)
  const intent = await provider.retrieveIntent(paymentIntentId)
  if (!intent) throw new AppError('Payment not found', 404)
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
    throw new AppError('Payment not found', 404)
  }
  if (
    event.businessID !== business.businessID ||
    intent.metadata.businessID !== String(business.businessID)
  ) {
    throw new AppError(NOT_YOUR_EVENT_MESSAGE, 403)
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
  if (getPaymentProvider()?.kind !== 'test') throw new AppError(PAYMENTS_UNAVAILABLE_MESSAGE, 503)
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
  if (result.paidBefore) throw new AppError(ALREADY_PAID_MESSAGE, 409, { code: 'already_paid' })
  return result
}

/* Webhooks ------------------------------------------------------------------------------------------------------- */

const webhookEventSchema = z.object({
  id: z.string().min(1),
  type: z.string(),
  created: z.number(),
  data: z.object({ object: z.looseObject({ id: z.string() }) }),
})

const intentObjectSchema = z.looseObject({
  id: z.string(),
  object: z.literal('payment_intent'),
  status: z.string(),
  amount: z.number(),
  last_payment_error: z
    .looseObject({
      code: z.string().nullish(),
      decline_code: z.string().nullish(),
      message: z.string().nullish(),
    })
    .nullish(),
})

const chargeObjectSchema = z.looseObject({
  id: z.string(),
  object: z.literal('charge'),
  payment_intent: z.union([z.string(), z.looseObject({ id: z.string() })]).nullish(),
  amount: z.number(),
  amount_refunded: z.number(),
  refunded: z.boolean(),
})

export interface WebhookResult {
  status: number
  body: { received: boolean; message?: string; duplicate?: boolean; ignored?: boolean }
}

/**
 * A Stripe webhook: the raw body is verified against STRIPE_WEBHOOK_SECRET, an event id already processed is
 * ignored, and the change is applied in the same transaction that records the event id.
 */
export async function handleStripeWebhook(
  rawBody: string,
  signature: string | null,
  mail?: MailContext,
): Promise<WebhookResult> {
  const env = getEnv()
  if (!env.stripeEnabled || !env.STRIPE_WEBHOOK_SECRET) {
    return { status: 404, body: { received: false, message: 'Webhooks are not enabled' } }
  }
  if (!signature) return { status: 400, body: { received: false, message: 'Missing signature' } }
  let verified: unknown
  try {
    verified = getStripe(env).webhooks.constructEvent(rawBody, signature, env.STRIPE_WEBHOOK_SECRET)
  } catch {
    return { status: 400, body: { received: false, message: 'Invalid signature' } }
  }
  const parsed = webhookEventSchema.safeParse(verified)
  if (!parsed.success) return { status: 400, body: { received: false, message: 'Unreadable event' } }
  const event = parsed.data

  let paymentIntentId: string
  let apply: (tx: Transaction) => Promise<void>
  let summary: Record<string, unknown>

  if (event.type === 'payment_intent.succeeded' || event.type === 'payment_intent.payment_failed') {
    const object = intentObjectSchema.safeParse(event.data.object)
    if (!object.success) return { status: 400, body: { received: false, message: 'Unreadable event' } }
    paymentIntentId = object.data.id
    summary = {
      object: 'payment_intent',
      objectId: object.data.id,
      status: object.data.status,
      amount: object.data.amount,
    }
    const skipped = await skipWebhook(paymentIntentId, event.id)
    if (skipped) return skipped
    if (event.type === 'payment_intent.succeeded') {
      // The event's copy has no charge details; the provider's current state has them (and is what we trust).
      const intent = await stripeIntentOrThrow(paymentIntentId)
      apply = async (tx) => {
        await recordIntentOutcome(intent, tx, mail)
      }
    } else {
      const error = object.data.last_payment_error
      apply = async (tx) => {
        await markPaymentFailed(
          paymentIntentId,
          {
            code: error?.decline_code ?? error?.code ?? null,
            message: error?.message ?? PAYMENT_TEXT.failed.description,
          },
          tx,
        )
      }
    }
  } else if (event.type === 'charge.refunded') {
    const object = chargeObjectSchema.safeParse(event.data.object)
    if (!object.success || !object.data.payment_intent) {
      return { status: 200, body: { received: true, ignored: true } }
    }
    const charge = object.data
    paymentIntentId =
      typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent!.id
    summary = {
      object: 'charge',
      objectId: charge.id,
      amount: charge.amount,
      amount_refunded: charge.amount_refunded,
    }
    const skipped = await skipWebhook(paymentIntentId, event.id)
    if (skipped) return skipped
    apply = async (tx) => {
      await markPaymentRefunded(
        paymentIntentId,
        { amountRefundedCents: charge.amount_refunded, full: charge.refunded },
        tx,
      )
    }
  } else {
    return { status: 200, body: { received: true, ignored: true } }
  }

  const processed = await db.transaction(async (tx) => {
    const claimed = await claimProviderEvent(tx, paymentIntentId, {
      id: event.id,
      type: event.type,
      created: event.created,
      summary,
    })
    if (claimed) await apply(tx)
    return claimed
  })
  return { status: 200, body: processed ? { received: true } : { received: true, duplicate: true } }
}

/** A webhook for a payment that is not ours is ignored, and one already processed is a duplicate. */
async function skipWebhook(paymentIntentId: string, eventId: string): Promise<WebhookResult | null> {
  if (!(await getPaymentByIntentId(paymentIntentId)))
    return { status: 200, body: { received: true, ignored: true } }
  if (await hasProcessedProviderEvent(paymentIntentId, eventId)) {
    return { status: 200, body: { received: true, duplicate: true } }
  }
  return null
}

async function stripeIntentOrThrow(id: string) {
  const intent = await requireProvider().retrieveIntent(id)
  if (!intent) throw new AppError('Payment not found', 404)
  return intent
}

/* Refunds -------------------------------------------------------------------------------------------------------- */

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
