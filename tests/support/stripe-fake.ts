/**
 * A small fake of the Stripe HTTP API on 127.0.0.1, speaking what stripe-node sends (form-encoded bodies,
 * Idempotency-Key) and answering Stripe-shaped JSON. It implements what the app uses:
 *
 * - POST /v1/payment_intents (an Idempotency-Key replays the first answer)
 * - GET  /v1/payment_intents/:id (expand[]=latest_charge)
 * - POST /v1/payment_intents/:id with `status=…` to move an intent as Stripe would (tests only)
 * - POST /v1/payment_intents/:id/cancel
 * - POST /v1/refunds
 */
import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { resetEnvCache } from '#app/services/platform/env.server.ts'

type Json = Record<string, unknown>

export interface FakeIntent extends Json {
  id: string
  object: 'payment_intent'
  amount: number
  amount_received: number
  currency: string
  status: string
  client_secret: string
  metadata: Record<string, string>
  latest_charge: string | null
  payment_method: string | null
  last_payment_error: Json | null
}

export interface FakeCharge extends Json {
  id: string
  object: 'charge'
  amount: number
  amount_refunded: number
  refunded: boolean
  payment_intent: string
  receipt_url: string
}

export interface RecordedRequest {
  method: string
  path: string
  idempotencyKey: string | null
  body: Json
}

const id = (prefix: string) => `${prefix}_${crypto.randomBytes(12).toString('hex')}`

/** `a[b]=1&a[c][0]=x` → { a: { b: '1', c: ['x'] } } (what stripe-node's encoder produces). */
function parseForm(text: string): Json {
  const out: Json = {}
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.split(/\[|\]\[|\]/).filter((p, i) => p !== '' || i === 0)
    let node: Record<string, unknown> = out
    parts.forEach((part, index) => {
      const last = index === parts.length - 1
      const key = part === '' ? String(Object.keys(node).length) : part
      if (last) node[key] = value
      else node = (node[key] ??= {}) as Record<string, unknown>
    })
  }
  return out
}

const listOf = (value: unknown): string[] =>
  value === undefined ? [] : typeof value === 'string' ? [value] : Object.values(value as Json).map(String)

function stripeError(status: number, type: string, message: string, extra: Json = {}) {
  return { status, body: { error: { type, message, ...extra } } }
}

export interface SucceedOptions {
  brand?: string
  last4?: string
  expMonth?: number
  expYear?: number
}

export class StripeFake {
  readonly intents = new Map<string, FakeIntent>()
  readonly charges = new Map<string, FakeCharge>()
  readonly refunds = new Map<string, Json>()
  readonly requests: RecordedRequest[] = []
  private readonly replies = new Map<string, { status: number; body: Json }>()
  private server?: http.Server
  url = ''

  async start() {
    this.server = http.createServer((req, res) => void this.handle(req, res))
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve))
    const { port } = this.server.address() as AddressInfo
    this.url = `http://127.0.0.1:${port}`
    return this
  }

  async stop() {
    await new Promise<void>((resolve) => {
      if (!this.server) return resolve()
      this.server.closeAllConnections()
      this.server.close(() => resolve())
    })
  }

  reset() {
    this.intents.clear()
    this.charges.clear()
    this.refunds.clear()
    this.requests.length = 0
    this.replies.clear()
  }

  /** How many requests matched, e.g. `count('POST', '/v1/payment_intents')`. */
  count(method: string, path: string) {
    return this.requests.filter((r) => r.method === method && r.path === path).length
  }

  /* State changes a test makes happen (what the browser and the card network would do). -------------------- */

  succeed(intentId: string, card: SucceedOptions = {}) {
    const intent = this.mustGet(intentId)
    const chargeId = id('ch')
    const paymentMethod = id('pm')
    this.charges.set(chargeId, {
      id: chargeId,
      object: 'charge',
      amount: intent.amount,
      amount_captured: intent.amount,
      amount_refunded: 0,
      refunded: false,
      currency: intent.currency,
      status: 'succeeded',
      paid: true,
      payment_intent: intent.id,
      payment_method: paymentMethod,
      payment_method_details: {
        type: 'card',
        card: {
          brand: card.brand ?? 'visa',
          last4: card.last4 ?? '4242',
          exp_month: card.expMonth ?? 12,
          exp_year: card.expYear ?? new Date().getFullYear() + 3,
        },
      },
      receipt_url: `https://pay.stripe.com/receipts/${chargeId}`,
      receipt_email: null,
      customer: null,
      created: Math.floor(Date.now() / 1000),
    })
    Object.assign(intent, {
      status: 'succeeded',
      amount_received: intent.amount,
      latest_charge: chargeId,
      payment_method: paymentMethod,
      last_payment_error: null,
    })
    return intent
  }

  decline(intentId: string, message = 'Your card was declined.', declineCode = 'generic_decline') {
    const intent = this.mustGet(intentId)
    Object.assign(intent, {
      status: 'requires_payment_method',
      last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: declineCode, message },
    })
    return intent
  }

  setStatus(intentId: string, status: string) {
    const intent = this.mustGet(intentId)
    intent.status = status
    if (status === 'requires_action') {
      intent.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } }
    }
    return intent
  }

  /** The newest intent for an event id (ids start over when a database does). */
  intentByEvent(eventID: number) {
    return [...this.intents.values()].findLast((i) => i.metadata.eventID === String(eventID))
  }

  private mustGet(intentId: string) {
    const intent = this.intents.get(intentId)
    if (!intent) throw new Error(`No fake intent ${intentId}`)
    return intent
  }

  /* HTTP ------------------------------------------------------------------------------------------------------ */

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const method = req.method ?? 'GET'
    const body =
      method === 'GET' ? parseForm(url.search.slice(1)) : parseForm(Buffer.concat(chunks).toString())
    const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null
    this.requests.push({ method, path: url.pathname, idempotencyKey, body })

    let reply: { status: number; body: Json }
    const replayKey = idempotencyKey && method === 'POST' ? `${url.pathname} ${idempotencyKey}` : null
    const replayed = replayKey ? this.replies.get(replayKey) : undefined
    if (replayed) {
      reply = replayed
    } else {
      try {
        reply = this.route(method, url.pathname, body)
      } catch (error) {
        reply = stripeError(500, 'api_error', (error as Error).message)
      }
      if (replayKey && reply.status < 500) this.replies.set(replayKey, reply)
    }
    res.writeHead(reply.status, {
      'Content-Type': 'application/json',
      'Request-Id': id('req'),
      ...(replayed ? { 'Idempotent-Replayed': 'true' } : {}),
    })
    res.end(JSON.stringify(reply.body))
  }

  private route(method: string, path: string, body: Json): { status: number; body: Json } {
    if (method === 'POST' && path === '/v1/payment_intents') return this.createIntent(body)
    const match = /^\/v1\/payment_intents\/([^/]+)(\/cancel)?$/.exec(path)
    if (match) {
      const intent = this.intents.get(match[1]!)
      if (!intent) {
        return stripeError(404, 'invalid_request_error', `No such payment_intent: '${match[1]}'`, {
          code: 'resource_missing',
          param: 'intent',
        })
      }
      if (method === 'GET' && !match[2])
        return { status: 200, body: this.render(intent, listOf(body.expand)) }
      if (method === 'POST' && match[2]) {
        if (intent.status === 'succeeded') {
          return stripeError(400, 'invalid_request_error', 'This PaymentIntent has already succeeded.', {
            code: 'payment_intent_unexpected_state',
          })
        }
        intent.status = 'canceled'
        return { status: 200, body: this.render(intent, []) }
      }
      if (method === 'POST') return { status: 200, body: this.render(this.update(intent, body), []) }
    }
    if (method === 'POST' && path === '/v1/refunds') return this.createRefund(body)
    return stripeError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path})`)
  }

  private createIntent(body: Json) {
    const amount = Number(body.amount)
    if (!Number.isInteger(amount) || amount < 50) {
      return stripeError(400, 'invalid_request_error', 'Amount must be at least $0.50 usd', {
        param: 'amount',
      })
    }
    const intentId = id('pi')
    const intent: FakeIntent = {
      id: intentId,
      object: 'payment_intent',
      amount,
      amount_received: 0,
      currency: String(body.currency ?? 'usd'),
      status: 'requires_payment_method',
      client_secret: `${intentId}_secret_${crypto.randomBytes(8).toString('hex')}`,
      metadata: (body.metadata as Record<string, string>) ?? {},
      description: (body.description as string) ?? null,
      latest_charge: null,
      payment_method: null,
      customer: null,
      receipt_email: null,
      last_payment_error: null,
      next_action: null,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    }
    this.intents.set(intentId, intent)
    return { status: 200, body: { ...intent } }
  }

  /** Tests move intents through `status` (plus card_last4 / card_brand or decline_message). */
  private update(intent: FakeIntent, body: Json) {
    if (body.metadata) intent.metadata = { ...intent.metadata, ...(body.metadata as Record<string, string>) }
    switch (body.status) {
      case undefined:
        break
      case 'succeeded':
        this.succeed(intent.id, { last4: body.card_last4 as string, brand: body.card_brand as string })
        break
      case 'requires_payment_method':
        this.decline(intent.id, (body.decline_message as string) ?? undefined)
        break
      default:
        this.setStatus(intent.id, String(body.status))
    }
    return intent
  }

  private createRefund(body: Json) {
    const intent = this.intents.get(String(body.payment_intent))
    if (!intent) {
      return stripeError(
        404,
        'invalid_request_error',
        `No such payment_intent: '${String(body.payment_intent)}'`,
        {
          code: 'resource_missing',
        },
      )
    }
    const charge = intent.latest_charge ? this.charges.get(intent.latest_charge) : undefined
    if (intent.status !== 'succeeded' || !charge) {
      return stripeError(
        400,
        'invalid_request_error',
        'This PaymentIntent does not have a successful charge to refund.',
      )
    }
    const amount = body.amount === undefined ? charge.amount - charge.amount_refunded : Number(body.amount)
    if (amount <= 0 || charge.amount_refunded + amount > charge.amount) {
      return stripeError(400, 'invalid_request_error', `Charge ${charge.id} has already been refunded.`, {
        code: 'charge_already_refunded',
      })
    }
    charge.amount_refunded += amount
    charge.refunded = charge.amount_refunded === charge.amount
    const refund = {
      id: id('re'),
      object: 'refund',
      amount,
      charge: charge.id,
      payment_intent: intent.id,
      currency: intent.currency,
      reason: body.reason ?? null,
      metadata: body.metadata ?? {},
      status: 'succeeded',
      created: Math.floor(Date.now() / 1000),
    }
    this.refunds.set(refund.id, refund)
    return { status: 200, body: refund }
  }

  private render(intent: FakeIntent, expand: string[]): Json {
    const out: Json = { ...intent }
    if (expand.includes('latest_charge') && intent.latest_charge) {
      out.latest_charge = { ...this.charges.get(intent.latest_charge) }
    }
    return out
  }

  /* Webhooks -------------------------------------------------------------------------------------------------- */

  /** A Stripe event around an object, as the webhook endpoint receives it. */
  event(type: string, object: Json, eventId = id('evt')) {
    return {
      id: eventId,
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    }
  }

  chargeOf(intentId: string) {
    const intent = this.mustGet(intentId)
    return intent.latest_charge ? this.charges.get(intent.latest_charge) : undefined
  }
}

/** The payload and Stripe-Signature header of a webhook delivery signed with `secret`. */
export function signedWebhook(event: Json, secret: string) {
  const payload = JSON.stringify(event)
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret })
  return { payload, signature }
}

const STRIPE_VARS = [
  'STRIPE_SECRET_KEY',
  'STRIPE_PUBLISHABLE_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_API_BASE',
] as const

/**
 * Points the app's Stripe settings at `fake` with this webhook secret, or with `null` leaves Stripe unset (the test
 * provider's checkout form). Returns the function that puts the settings back as they were.
 */
export function useStripeSettings(settings: { fake: StripeFake; webhookSecret: string } | null) {
  const saved = STRIPE_VARS.map((name) => [name, process.env[name]] as const)
  for (const name of STRIPE_VARS) delete process.env[name]
  if (settings) {
    process.env.STRIPE_SECRET_KEY = 'sk_test_fake'
    process.env.STRIPE_PUBLISHABLE_KEY = 'pk_test_fake'
    process.env.STRIPE_WEBHOOK_SECRET = settings.webhookSecret
    process.env.STRIPE_API_BASE = settings.fake.url
  }
  resetEnvCache()
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
    resetEnvCache()
  }
}
