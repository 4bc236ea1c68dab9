/**
 * The card payment providers behind one interface: Stripe when its keys are set, otherwise (never in production) a
 * built-in test provider that accepts Stripe's test card numbers, so the whole flow runs offline and writes the same
 * rows.
 */
import crypto from 'node:crypto'
import type Stripe from 'stripe'
import { AppError } from '#app/utils/app-error.ts'
import { getEnv, type Env } from '../platform/env.server.ts'
import { lazyRequire } from '../platform/lazy-require.server.ts'

export type IntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'canceled'
  | 'succeeded'

export interface ProviderIntent {
  id: string
  clientSecret: string | null
  status: IntentStatus
  /** Cents. */
  amount: number
  amountReceived: number
  currency: string
  metadata: Record<string, string>
  chargeId: string | null
  customerId: string | null
  paymentMethodId: string | null
  card: { brand: string | null; last4: string | null; expMonth: number | null; expYear: number | null } | null
  receiptUrl: string | null
  receiptEmail: string | null
  lastError: { code: string | null; message: string } | null
}

export interface CreateIntentInput {
  amountCents: number
  currency: string
  description: string
  metadata: Record<string, string>
  idempotencyKey: string
}

export interface RefundInput {
  paymentIntentId: string
  amountCents: number
  reason: string
  idempotencyKey: string
}

export interface ProviderRefund {
  id: string
  amountCents: number
  status: string
}

export interface PaymentProvider {
  readonly kind: 'stripe' | 'test'
  createIntent(input: CreateIntentInput): Promise<ProviderIntent>
  /** Null when the provider does not know the id. */
  retrieveIntent(id: string): Promise<ProviderIntent | null>
  cancelIntent(id: string): Promise<void>
  refund(input: RefundInput): Promise<ProviderRefund>
}

/** A refusal the provider explains to the card holder (decline, expired card, wrong number), with its code. */
function cardError(message: string, code: string) {
  return new AppError(message, 'payment_refused', { code })
}

export function isCardError(error: unknown): error is AppError & { code: string } {
  return error instanceof AppError && error.kind === 'payment_refused' && error.code !== undefined
}

/* Stripe ---------------------------------------------------------------------------------------------------------- */

function stripeConfig(env: Env): Stripe.StripeConfig {
  const config: Stripe.StripeConfig = { maxNetworkRetries: 1, timeout: 20_000 }
  if (env.STRIPE_API_BASE) {
    const base = new URL(env.STRIPE_API_BASE)
    config.host = base.hostname
    config.protocol = base.protocol === 'http:' ? 'http' : 'https'
    // Without a port of its own, an http base is on 80; Stripe's client defaults to https's.
    const port = base.port || (base.protocol === 'http:' ? '80' : '')
    if (port) config.port = port
  }
  return config
}

// Built on first use, not at import: tests change the environment (and resetEnvCache) between files.
/** Stripe's library, loaded when Stripe is first used. */
const stripeLibrary = () => lazyRequire('stripe') as typeof Stripe

let stripeClient: { key: string; client: Stripe } | undefined

export function getStripe(env: Env = getEnv()): Stripe {
  if (!env.STRIPE_SECRET_KEY) throw new Error('Stripe is not configured')
  const cacheKey = `${env.STRIPE_SECRET_KEY}|${env.STRIPE_API_BASE ?? ''}`
  if (stripeClient?.key !== cacheKey) {
    stripeClient = { key: cacheKey, client: new (stripeLibrary())(env.STRIPE_SECRET_KEY, stripeConfig(env)) }
  }
  return stripeClient.client
}

function idOf(value: string | { id: string } | null | undefined) {
  if (!value) return null
  return typeof value === 'string' ? value : value.id
}

function fromStripeIntent(intent: Stripe.PaymentIntent): ProviderIntent {
  const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null
  const card = charge?.payment_method_details?.card ?? null
  const error = intent.last_payment_error
  return {
    id: intent.id,
    clientSecret: intent.client_secret,
    status: intent.status as IntentStatus,
    amount: intent.amount,
    amountReceived: intent.amount_received,
    currency: intent.currency,
    metadata: { ...(intent.metadata ?? {}) },
    chargeId: idOf(intent.latest_charge),
    customerId: idOf(intent.customer as string | { id: string } | null),
    paymentMethodId: idOf(intent.payment_method as string | { id: string } | null),
    card: card
      ? {
          brand: card.brand ?? null,
          last4: card.last4 ?? null,
          expMonth: card.exp_month ?? null,
          expYear: card.exp_year ?? null,
        }
      : null,
    receiptUrl: charge?.receipt_url ?? null,
    receiptEmail: charge?.receipt_email ?? intent.receipt_email ?? null,
    lastError: error
      ? { code: error.decline_code ?? error.code ?? null, message: error.message ?? '' }
      : null,
  }
}

function isMissing(error: unknown) {
  return (
    error instanceof stripeLibrary().errors.StripeInvalidRequestError && error.code === 'resource_missing'
  )
}

export function stripeProvider(env: Env = getEnv()): PaymentProvider {
  const stripe = getStripe(env)
  return {
    kind: 'stripe',
    async createIntent({ amountCents, currency, description, metadata, idempotencyKey }) {
      const intent = await stripe.paymentIntents.create(
        {
          amount: amountCents,
          currency,
          description,
          metadata,
          automatic_payment_methods: { enabled: true },
        },
        { idempotencyKey },
      )
      return fromStripeIntent(intent)
    },
    async retrieveIntent(id) {
      try {
        return fromStripeIntent(await stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] }))
      } catch (error) {
        if (isMissing(error)) return null
        throw error
      }
    },
    async cancelIntent(id) {
      await stripe.paymentIntents.cancel(id)
    },
    async refund({ paymentIntentId, amountCents, reason, idempotencyKey }) {
      const refund = await stripe.refunds.create(
        {
          payment_intent: paymentIntentId,
          amount: amountCents,
          reason: 'requested_by_customer',
          metadata: { reason: reason.slice(0, 500) },
        },
        { idempotencyKey },
      )
      return { id: refund.id, amountCents: refund.amount, status: refund.status ?? 'succeeded' }
    },
  }
}

/* Built-in test provider ------------------------------------------------------------------------------------------ */

export const TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const

export const CARD_MESSAGES = {
  declined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  expired: 'Your card has expired.',
  incorrectNumber: 'Your card number is incorrect.',
  invalidExpiry: "Your card's expiration date is invalid.",
  invalidCvc: "Your card's security code is invalid.",
} as const

interface TestState {
  intents: Map<string, ProviderIntent>
  byIdempotencyKey: Map<string, string>
  refunds: Map<string, ProviderRefund>
}

// On globalThis so a module reload in development keeps the intents a page has already been given.
const testState: TestState = ((
  globalThis as { __eventshoutTestPayments?: TestState }
).__eventshoutTestPayments ??= {
  intents: new Map(),
  byIdempotencyKey: new Map(),
  refunds: new Map(),
})

const randomId = (prefix: string) => `${prefix}_test_${crypto.randomBytes(12).toString('hex')}`

function luhnValid(digits: string) {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

export interface TestCardInput {
  number: string
  /** MM/YY (MM/YYYY accepted). */
  expiry: string
  cvc: string
}

/** Parses and checks a card like Stripe's test mode does; throws a card error with Stripe's wording. */
export function checkTestCard(card: TestCardInput, now = new Date()) {
  const number = card.number.replace(/[\s-]/g, '')
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) {
    throw cardError(CARD_MESSAGES.incorrectNumber, 'incorrect_number')
  }
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(card.expiry)
  const month = expiry ? Number(expiry[1]) : NaN
  if (!expiry || month < 1 || month > 12) throw cardError(CARD_MESSAGES.invalidExpiry, 'invalid_expiry')
  const year = expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2])
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth() + 1
  if (year * 12 + month < current) throw cardError(CARD_MESSAGES.expired, 'expired_card')
  if (!/^\d{3,4}$/.test(card.cvc.trim())) throw cardError(CARD_MESSAGES.invalidCvc, 'invalid_cvc')
  return { number, last4: number.slice(-4), expMonth: month, expYear: year }
}

export interface TestProvider extends PaymentProvider {
  readonly kind: 'test'
  /** Confirms an intent with a card; on a decline the intent goes back to waiting for a card. */
  confirmCard(id: string, card: TestCardInput): Promise<ProviderIntent>
}

export function testProvider(): TestProvider {
  const copy = (intent: ProviderIntent): ProviderIntent => ({ ...intent, metadata: { ...intent.metadata } })
  return {
    kind: 'test',
    async createIntent({ amountCents, currency, metadata, idempotencyKey }) {
      const known = testState.byIdempotencyKey.get(idempotencyKey)
      const existing = known ? testState.intents.get(known) : undefined
      if (existing) return copy(existing)
      const id = randomId('pi')
      const intent: ProviderIntent = {
        id,
        clientSecret: `${id}_secret_${crypto.randomBytes(8).toString('hex')}`,
        status: 'requires_payment_method',
        amount: amountCents,
        amountReceived: 0,
        currency,
        metadata: { ...metadata },
        chargeId: null,
        customerId: null,
        paymentMethodId: null,
        card: null,
        receiptUrl: null,
        receiptEmail: null,
        lastError: null,
      }
      testState.intents.set(id, intent)
      testState.byIdempotencyKey.set(idempotencyKey, id)
      return copy(intent)
    },
    async retrieveIntent(id) {
      const intent = testState.intents.get(id)
      return intent ? copy(intent) : null
    },
    async cancelIntent(id) {
      const intent = testState.intents.get(id)
      if (intent && intent.status !== 'succeeded') intent.status = 'canceled'
    },
    async refund({ paymentIntentId, amountCents, idempotencyKey }) {
      const done = testState.refunds.get(idempotencyKey)
      if (done) return { ...done }
      const refund = { id: randomId('re'), amountCents, status: 'succeeded' }
      testState.refunds.set(idempotencyKey, refund)
      void paymentIntentId
      return { ...refund }
    },
    async confirmCard(id, input) {
      const intent = testState.intents.get(id)
      if (!intent)
        throw cardError('This payment has expired. Please reload the page and try again.', 'resource_missing')
      if (intent.status === 'succeeded' || intent.status === 'canceled') return copy(intent)
      try {
        const card = checkTestCard(input)
        if (card.number === TEST_CARDS.declined) throw cardError(CARD_MESSAGES.declined, 'card_declined')
        if (card.number === TEST_CARDS.insufficientFunds) {
          throw cardError(CARD_MESSAGES.insufficientFunds, 'insufficient_funds')
        }
        if (card.number !== TEST_CARDS.success) throw cardError(CARD_MESSAGES.declined, 'card_declined')
        Object.assign(intent, {
          status: 'succeeded',
          amountReceived: intent.amount,
          chargeId: randomId('ch'),
          paymentMethodId: randomId('pm'),
          card: { brand: 'visa', last4: card.last4, expMonth: card.expMonth, expYear: card.expYear },
          lastError: null,
        } satisfies Partial<ProviderIntent>)
        return copy(intent)
      } catch (error) {
        if (isCardError(error)) {
          intent.status = 'requires_payment_method'
          intent.lastError = { code: error.code, message: error.message }
        }
        throw error
      }
    },
  }
}

/**
 * Stripe when configured; the test provider outside production; null in production without Stripe keys (checkout
 * then says payments are not available, and the test provider is never offered).
 */
export function getPaymentProvider(env: Env = getEnv()): PaymentProvider | null {
  if (env.stripeEnabled) return stripeProvider(env)
  if (env.isProduction) return null
  return testProvider()
}
