/**
 * Stripe's webhooks: a verified event about one of our payments (succeeded, failed, refunded) is applied once, in
 * the transaction that records its id. A success is read back from the provider, never taken from the event's copy.
 * Verifying (where every refusal is) and applying are two steps, given the raw body and the signature.
 */
import { z } from 'zod'
import { db, type Transaction } from '#db/client.server.ts'
import type { MailContext } from '#app/models/mail/notifications.server.ts'
import { getPaymentByIntentId, markPaymentRefunded } from '#app/models/payments/payment.server.ts'
import {
  claimProviderEvent,
  hasProcessedProviderEvent,
} from '#app/models/payments/payment-provider-events.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import { getEnv } from '../platform/env.server.ts'
import { recordIntentOutcome, recordPaymentFailure } from './payment-outcome.server.ts'
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

type WebhookEvent = z.infer<typeof webhookEventSchema>

/** A verified webhook: what it is about, read from the signed body; nothing of ours has been read yet. */
export type VerifiedWebhook =
  | { kind: 'intent'; event: WebhookEvent; intent: z.infer<typeof intentObjectSchema> }
  | {
      kind: 'refund'
      event: WebhookEvent
      charge: z.infer<typeof chargeObjectSchema>
      paymentIntentId: string
    }
  | { kind: 'ignored' }

/** What became of a verified webhook: applied, already applied before (the same event id), or not ours to apply. */
export type WebhookOutcome = 'processed' | 'duplicate' | 'ignored'

const UNREADABLE_EVENT = 'Unreadable event'

/**
 * A Stripe webhook's raw body verified against STRIPE_WEBHOOK_SECRET and read: refused (not found while webhooks
 * are off; invalid without a signature, with a wrong one, or unreadable) before anything is read from our rows.
 */
export function verifyStripeWebhook(rawBody: string, signature: string | null): VerifiedWebhook {
  const env = getEnv()
  if (!env.stripeEnabled || !env.STRIPE_WEBHOOK_SECRET) {
    throw new AppError('Webhooks are not enabled', 'not_found')
  }
  if (!signature) throw new AppError('Missing signature', 'invalid')
  let verified: unknown
  try {
    verified = getStripe(env).webhooks.constructEvent(rawBody, signature, env.STRIPE_WEBHOOK_SECRET)
  } catch {
    throw new AppError('Invalid signature', 'invalid')
  }
  const parsed = webhookEventSchema.safeParse(verified)
  if (!parsed.success) throw new AppError(UNREADABLE_EVENT, 'invalid')
  const event = parsed.data

  if (event.type === 'payment_intent.succeeded' || event.type === 'payment_intent.payment_failed') {
    const object = intentObjectSchema.safeParse(event.data.object)
    if (!object.success) throw new AppError(UNREADABLE_EVENT, 'invalid')
    return { kind: 'intent', event, intent: object.data }
  }
  if (event.type === 'charge.refunded') {
    const object = chargeObjectSchema.safeParse(event.data.object)
    if (!object.success || !object.data.payment_intent) return { kind: 'ignored' }
    const charge = object.data
    const paymentIntentId =
      typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent!.id
    return { kind: 'refund', event, charge, paymentIntentId }
  }
  return { kind: 'ignored' }
}

/**
 * Applies a verified webhook: an event id already processed is a duplicate, a payment that is not ours is ignored,
 * and the change is made in the same transaction that records the event id.
 */
export async function applyStripeWebhook(
  webhook: VerifiedWebhook,
  mail?: MailContext,
): Promise<WebhookOutcome> {
  if (webhook.kind === 'ignored') return 'ignored'
  const { event } = webhook

  let paymentIntentId: string
  let apply: (tx: Transaction) => Promise<void>
  let summary: Record<string, unknown>

  if (webhook.kind === 'intent') {
    const object = webhook.intent
    paymentIntentId = object.id
    summary = {
      object: 'payment_intent',
      objectId: object.id,
      status: object.status,
      amount: object.amount,
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
      const error = object.last_payment_error
      apply = async (tx) => {
        await recordPaymentFailure(
          paymentIntentId,
          {
            code: error?.decline_code ?? error?.code ?? null,
            message: error?.message ?? PAYMENT_TEXT.failed.description,
          },
          tx,
        )
      }
    }
  } else {
    const { charge } = webhook
    paymentIntentId = webhook.paymentIntentId
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
  return processed ? 'processed' : 'duplicate'
}

/** A webhook for a payment that is not ours is ignored, and one already processed is a duplicate. */
async function skipWebhook(paymentIntentId: string, eventId: string): Promise<WebhookOutcome | null> {
  if (!(await getPaymentByIntentId(paymentIntentId))) return 'ignored'
  if (await hasProcessedProviderEvent(paymentIntentId, eventId)) return 'duplicate'
  return null
}

async function stripeIntentOrThrow(id: string) {
  const intent = await requireProvider().retrieveIntent(id)
  if (!intent) throw new AppError('Payment not found', 'not_found')
  return intent
}
