/**
 * Stripe's webhooks: a verified event about one of our payments (succeeded, failed, refunded) is applied once, in
 * the transaction that records its id. A success is read back from the provider, never taken from the event's copy.
 */
import { z } from 'zod'
import { db, type Transaction } from '#db/client.server.ts'
import type { MailContext } from '#app/models/mail/notifications.server.ts'
import {
  getPaymentByIntentId,
  markPaymentFailed,
  markPaymentRefunded,
} from '#app/models/payments/payment.server.ts'
import {
  claimProviderEvent,
  hasProcessedProviderEvent,
} from '#app/models/payments/payment-provider-events.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import { getEnv } from '../platform/env.server.ts'
import { recordIntentOutcome } from './payment-outcome.server.ts'
import { getStripe } from './payment-providers.server.ts'
import { requireProvider } from './payment-rules.server.ts'

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
  if (!intent) throw new AppError('Payment not found', 'not_found')
  return intent
}
