/**
 * An ad's payment attempts: reading them, recording a new one, and marking one paid, failed or refunded together
 * with its event, under the event row's lock.
 */
import { and, desc, eq, inArray, notInArray, sql } from 'drizzle-orm'
import { db, type Transaction } from '#db/client.server.ts'
import { events, payments, type Payment } from '#db/schema.ts'
import { announcePublicPagesChanged } from '#app/models/calendar/public-pages-changes.server.ts'
import { centsToDollars } from '#app/utils/pricing.ts'
import { SETTLED } from './settled.ts'
import { isSponsorshipPayment, SPONSORSHIP_PURPOSE } from './sponsorship.ts'

/** A payment for the ad itself, not for a sponsorship bought later (sponsorship.ts). */
export const forTheAd = sql`coalesce(${payments.metadata}->>'purpose', '') <> ${SPONSORSHIP_PURPOSE}`
const forSponsorship = sql`coalesce(${payments.metadata}->>'purpose', '') = ${SPONSORSHIP_PURPOSE}`

/** A database or an open transaction. */
export type Executor = Transaction | typeof db

export async function getEventRow(eventID: number) {
  const [row] = await db.select().from(events).where(eq(events.eventID, eventID)).limit(1)
  return row ?? null
}

/**
 * The event row, locked until `tx` ends: whoever sets up or settles its payment meanwhile waits, so two requests
 * for one ad cannot both find no open payment and each create one.
 */
export async function lockEventRow(tx: Transaction, eventID: number) {
  const [row] = await tx.select().from(events).where(eq(events.eventID, eventID)).limit(1).for('update')
  return row ?? null
}

/**
 * Locks the event row of the payment with this intent until the transaction ends. Whoever changes a payment and its
 * event takes the event's lock first, as the checkout's set-up does (`lockEventRow`), so two transactions never each
 * hold a row the other waits for (a deadlock on PostgreSQL).
 */
export async function lockEventOfIntent(executor: Executor, paymentIntentId: string) {
  const eventOfIntent = executor
    .select({ eventID: payments.eventID })
    .from(payments)
    .where(eq(payments.payment_intent_id, paymentIntentId))
  await executor
    .select({ eventID: events.eventID })
    .from(events)
    .where(inArray(events.eventID, eventOfIntent))
    .for('update')
}

export async function getPaymentByIntentId(
  paymentIntentId: string,
  executor: Executor = db,
): Promise<Payment | null> {
  const [row] = await executor
    .select()
    .from(payments)
    .where(eq(payments.payment_intent_id, paymentIntentId))
    .limit(1)
  return row ?? null
}

/** The newest attempt for an event that has not been paid or refunded. */
export async function getOpenPaymentForEvent(
  eventID: number,
  executor: Executor = db,
): Promise<Payment | null> {
  const [row] = await executor
    .select()
    .from(payments)
    .where(and(eq(payments.eventID, eventID), notInArray(payments.payment_status, [...SETTLED]), forTheAd))
    .orderBy(desc(payments.created_at), desc(payments.paymentID))
    .limit(1)
  return row ?? null
}

/** The open attempts to buy a live ad's sponsorship, newest first. */
export async function listOpenSponsorshipPayments(eventID: number, executor: Executor = db) {
  return executor
    .select()
    .from(payments)
    .where(
      and(eq(payments.eventID, eventID), notInArray(payments.payment_status, [...SETTLED]), forSponsorship),
    )
    .orderBy(desc(payments.created_at), desc(payments.paymentID))
}

/** The paid sponsorships of a live ad (their receipts), newest first. */
export async function listPaidSponsorshipPayments(eventID: number) {
  return db
    .select({ paymentID: payments.paymentID, amountPaidCents: payments.amount_paid_cents })
    .from(payments)
    .where(and(eq(payments.eventID, eventID), inArray(payments.payment_status, [...SETTLED]), forSponsorship))
    .orderBy(desc(payments.paid_at), desc(payments.paymentID))
}

/** The payment that settled an event (paid, or paid and then refunded); a sponsorship bought later is not it. */
export async function getSettledPaymentForEvent(eventID: number): Promise<Payment | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.eventID, eventID), inArray(payments.payment_status, [...SETTLED]), forTheAd))
    .orderBy(desc(payments.paid_at), desc(payments.paymentID))
    .limit(1)
  return row ?? null
}

export async function countPaymentsForEvent(eventID: number, executor: Executor = db) {
  const [row] = await executor
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(payments)
    .where(eq(payments.eventID, eventID))
  return row?.n ?? 0
}

/** Every attempt to pay for an event that has not been paid or refunded. */
export async function listOpenPaymentsForEvent(eventID: number) {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.eventID, eventID), notInArray(payments.payment_status, [...SETTLED]), forTheAd))
}

export interface NewPayment {
  eventID: number
  amountDueCents: number
  currency: string
  idempotencyKey: string
  paymentIntentId: string
  expiresAt: Date | null
  metadata: Record<string, unknown>
}

/**
 * An unpaid ad's total set to what it costs now (checkout shows it before the payment); a paid or refunded ad keeps
 * the total it was paid. True when the saved total changed.
 */
export async function setUnpaidEventTotal(eventID: number, cents: number, executor: Executor = db) {
  const total = centsToDollars(cents)
  const changed = await executor
    .update(events)
    .set({ totalCost: total })
    .where(
      and(
        eq(events.eventID, eventID),
        notInArray(events.paymentStatus, [...SETTLED]),
        sql`${events.totalCost} <> ${total}`,
      ),
    )
    .returning({ eventID: events.eventID })
  return changed.length > 0
}

/**
 * Whether an unpaid ad of `businessID` is to be sponsored, and the surcharge in its price (`surchargeCents`, 0 when
 * not). A paid or refunded ad, or another business's, is left alone: false.
 */
export async function setUnpaidEventSponsored(
  {
    eventID,
    businessID,
    sponsored,
    surchargeCents,
  }: {
    eventID: number
    businessID: number
    sponsored: boolean
    surchargeCents: number
  },
  executor: Executor = db,
) {
  const changed = await executor
    .update(events)
    .set({ sponsored, sponsoredCents: sponsored ? surchargeCents : 0 })
    .where(
      and(
        eq(events.eventID, eventID),
        eq(events.businessID, businessID),
        notInArray(events.paymentStatus, [...SETTLED]),
      ),
    )
    .returning({ eventID: events.eventID })
  return changed.length > 0
}

/**
 * Records a new attempt. Two set-ups racing for one event get the same intent from the provider (same idempotency
 * key), so the second insert finds the first row instead of failing.
 */
export async function insertPayment(input: NewPayment, executor: Executor = db): Promise<Payment> {
  const now = new Date()
  const [inserted] = await executor
    .insert(payments)
    .values({
      eventID: input.eventID,
      totalCost: centsToDollars(input.amountDueCents),
      currency: input.currency,
      amount_due_cents: input.amountDueCents,
      idempotency_key: input.idempotencyKey,
      payment_intent_id: input.paymentIntentId,
      payment_status: 'pending',
      payment_expires_at: input.expiresAt,
      metadata: input.metadata,
      created_at: now,
      updated_at: now,
    })
    .onConflictDoNothing()
    .returning()
  if (inserted) return inserted
  const existing = await getPaymentByIntentId(input.paymentIntentId, executor)
  if (existing) return existing
  throw new Error(`A payment with idempotency key ${input.idempotencyKey} exists for another intent`)
}

export interface PaidDetails {
  paymentIntentId: string
  amountPaidCents: number
  currency: string
  paidAt: Date
  chargeId: string | null
  customerId: string | null
  paymentMethodId: string | null
  cardBrand: string | null
  cardLast4: string | null
  cardExpMonth: number | null
  cardExpYear: number | null
  receiptUrl: string | null
  receiptEmail: string | null
}

export type MarkPaidResult =
  | { outcome: 'paid'; payment: Payment }
  | { outcome: 'already-paid'; payment: Payment }
  | { outcome: 'amount-short'; payment: Payment }
  | { outcome: 'not-found' }

/**
 * Marks an attempt paid and its event paid, in one transaction. The completion call and the webhook both land
 * here, possibly at the same moment: the conditional UPDATE lets exactly one of them win (Postgres re-checks the
 * WHERE after waiting for the other's row lock), so the paid fields are written once.
 */
export async function markPaymentPaid(details: PaidDetails, executor?: Executor): Promise<MarkPaidResult> {
  if (!executor) return db.transaction((tx) => markPaymentPaid(details, tx))
  await lockEventOfIntent(executor, details.paymentIntentId)
  const [payment] = await executor
    .update(payments)
    .set({
      payment_status: 'paid',
      amount_paid_cents: details.amountPaidCents,
      totalPaid: centsToDollars(details.amountPaidCents),
      paid_at: details.paidAt,
      datePaid: details.paidAt,
      stripe_charge_id: details.chargeId,
      stripe_customer_id: details.customerId,
      payment_method_id: details.paymentMethodId,
      card_brand: details.cardBrand,
      card_last4: details.cardLast4,
      card_exp_month: details.cardExpMonth,
      card_exp_year: details.cardExpYear,
      receipt_url: details.receiptUrl,
      receipt_email: details.receiptEmail,
      error_code: null,
      error_message: null,
      updated_at: new Date(),
    })
    .where(
      and(
        eq(payments.payment_intent_id, details.paymentIntentId),
        notInArray(payments.payment_status, [...SETTLED]),
        sql`${payments.amount_due_cents} <= ${details.amountPaidCents}`,
        eq(payments.currency, details.currency),
      ),
    )
    .returning()
  if (payment && isSponsorshipPayment(payment.metadata)) {
    // A live ad's sponsorship: the ad keeps its own payment and price; the surcharge paid is added to its sponsorship.
    await executor
      .update(events)
      .set({
        sponsored: true,
        sponsoredCents: sql`${events.sponsoredCents} + ${payment.amount_due_cents}`,
        sponsoredAt: details.paidAt,
      })
      .where(eq(events.eventID, payment.eventID))
    // The Sponsored slots take it in from the next page.
    await announcePublicPagesChanged(executor)
    return { outcome: 'paid', payment }
  }
  if (payment) {
    await executor
      .update(events)
      .set({
        paymentStatus: 'paid',
        payment_intent_id: details.paymentIntentId,
        // The ad keeps the price it was paid, whatever the prices become.
        totalCost: centsToDollars(payment.amount_due_cents),
        sponsoredAt: sql`CASE WHEN ${events.sponsored} THEN coalesce(${events.sponsoredAt}, ${details.paidAt.toISOString()}::timestamptz) END`,
      })
      .where(eq(events.eventID, payment.eventID))
    return { outcome: 'paid', payment }
  }
  const [existing] = await executor
    .select()
    .from(payments)
    .where(eq(payments.payment_intent_id, details.paymentIntentId))
    .limit(1)
  if (!existing) return { outcome: 'not-found' }
  if ((SETTLED as readonly string[]).includes(existing.payment_status))
    return { outcome: 'already-paid', payment: existing }
  return { outcome: 'amount-short', payment: existing }
}

/**
 * A declined or failed attempt; the event stays unpaid so the advertiser can try again. The attempt (its ad and
 * metadata) when it was open, null when it was settled already or is not known.
 */
export async function markPaymentFailed(
  paymentIntentId: string,
  error: { code: string | null; message: string },
  executor: Executor = db,
) {
  const rows = await executor
    .update(payments)
    .set({
      payment_status: 'failed',
      error_code: error.code,
      error_message: error.message,
      updated_at: new Date(),
    })
    .where(
      and(eq(payments.payment_intent_id, paymentIntentId), notInArray(payments.payment_status, [...SETTLED])),
    )
    .returning({ paymentID: payments.paymentID, eventID: payments.eventID, metadata: payments.metadata })
  return rows[0] ?? null
}

/**
 * Records a refund of `amountRefundedCents` in total. A full refund makes the payment and its event 'refunded'
 * (once: a second report of the same refund changes nothing).
 */
export async function markPaymentRefunded(
  paymentIntentId: string,
  { amountRefundedCents, full, reason }: { amountRefundedCents: number; full: boolean; reason?: string },
  executor?: Executor,
): Promise<{ changed: boolean; payment: Payment | null }> {
  if (!executor)
    return db.transaction((tx) =>
      markPaymentRefunded(paymentIntentId, { amountRefundedCents, full, reason }, tx),
    )
  await lockEventOfIntent(executor, paymentIntentId)
  const [payment] = await executor
    .update(payments)
    .set({
      amount_refunded_cents: sql`greatest(${payments.amount_refunded_cents}, ${amountRefundedCents})`,
      ...(full ? { payment_status: 'refunded' } : {}),
      ...(reason
        ? {
            metadata: sql`coalesce(${payments.metadata}, '{}'::jsonb) || jsonb_build_object('refundReason', ${reason}::text)`,
          }
        : {}),
      updated_at: new Date(),
    })
    .where(
      and(
        eq(payments.payment_intent_id, paymentIntentId),
        eq(payments.payment_status, 'paid'),
        full ? undefined : sql`${payments.amount_refunded_cents} < ${amountRefundedCents}`,
      ),
    )
    .returning()
  if (payment && full && isSponsorshipPayment(payment.metadata)) {
    // A sponsorship refunded: the ad stays live, out of the Sponsored slots.
    await executor
      .update(events)
      .set({
        sponsored: false,
        sponsoredCents: sql`greatest(${events.sponsoredCents} - ${payment.amount_paid_cents}, 0)`,
      })
      .where(eq(events.eventID, payment.eventID))
    await announcePublicPagesChanged(executor)
  } else if (payment && full) {
    await executor
      .update(events)
      .set({ paymentStatus: 'refunded' })
      .where(eq(events.eventID, payment.eventID))
    // A refunded ad is no longer shown.
    await announcePublicPagesChanged(executor)
  }
  if (payment) return { changed: true, payment }
  const [existing] = await executor
    .select()
    .from(payments)
    .where(eq(payments.payment_intent_id, paymentIntentId))
    .limit(1)
  return { changed: false, payment: existing ?? null }
}
