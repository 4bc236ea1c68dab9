/**
 * Promo codes in the database: the codes, the append-only history of their changes, and their uses by ads
 * (reserved for PROMO_HOLD_MINUTES when an ad's card payment is started, redeemed when it is paid).
 */
import { and, desc, eq, inArray, ne, notInArray, or, sql } from 'drizzle-orm'
import { db, type Transaction } from '#db/client.server.ts'
import {
  events,
  payments,
  promoCodeChanges,
  promoCodes,
  promoRedemptions,
  users,
  type Payment,
  type PromoCodeRow,
} from '#db/schema.ts'
import { AppError } from '#app/utils/app-error.ts'
import { isUniqueViolation } from '#app/models/platform/unique-violation.ts'
import type { Executor } from './payment.server.ts'
import { SETTLED } from './settled.ts'
import {
  PROMO_HOLD_MINUTES,
  PROMO_TEXT,
  promoDiscountCents,
  type PromoKind,
  type PromoUseFacts,
} from './promo-code.ts'

export interface NewPromoCodeRow {
  code: string
  kind: PromoKind
  value: number
  expiresAt: Date | null
  maxUses: number | null
  firstAdOnly: boolean
}

const HOLD = sql.raw(`interval '${PROMO_HOLD_MINUTES} minutes'`)
/** Until when a reservation is held (one of the release before, without `reservedUntil`: its minutes from its making). */
const heldUntil = sql`coalesce(${promoRedemptions.reservedUntil}, ${promoRedemptions.createdAt} + ${HOLD})`
/** A reserved use whose payment is still under way. */
const heldNow = sql`(${promoRedemptions.status} = 'reserved' and ${heldUntil} > now())`
/** A use that counts against the code's limit now: redeemed, or held. */
const countsNow = sql`(${promoRedemptions.status} = 'redeemed' or ${heldNow})`

const changedBy = (userId: string) =>
  sql`coalesce((select ${users.email} from ${users} where ${users.id} = ${userId}), '')`

/** Saves a new code and its "created" line in the history; a code of that name is a conflict. */
export async function insertPromoCode(code: NewPromoCodeRow, details: string, userId: string) {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(promoCodes)
        .values({ ...code, createdByUserId: userId })
        .returning()
      await tx.insert(promoCodeChanges).values({
        promoCodeId: row!.id,
        change: 'created',
        details,
        changedByUserId: userId,
        changedByEmail: changedBy(userId),
      })
      return row!
    })
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError(PROMO_TEXT.exists, 'conflict', { fieldErrors: { code: [PROMO_TEXT.exists] } })
    throw error
  }
}

/**
 * Turns a code off, with its line in the history; the code row is locked, so a payment being set up with it either
 * finished before (its use reserved) or sees it off. Null when there is no such code; false when it was off already.
 */
export async function deactivatePromoCode(id: number, userId: string) {
  return db.transaction(async (tx) => {
    const [code] = await tx.select().from(promoCodes).where(eq(promoCodes.id, id)).for('update')
    if (!code) return null
    if (!code.active) return { code, changed: false }
    await tx.update(promoCodes).set({ active: false }).where(eq(promoCodes.id, id))
    await tx.insert(promoCodeChanges).values({
      promoCodeId: id,
      change: 'turned_off',
      details: 'Turned off',
      changedByUserId: userId,
      changedByEmail: changedBy(userId),
    })
    return { code, changed: true }
  })
}

/** Every code, newest first, with its uses (held now by payments under way, and redeemed) counted in the same query. */
export async function listPromoCodes() {
  const uses = db
    .select({
      promoCodeId: promoRedemptions.promoCodeId,
      reserved: sql<number>`count(*) filter (where ${heldNow})`.mapWith(Number).as('reserved'),
      redeemed: sql<number>`count(*) filter (where ${promoRedemptions.status} = 'redeemed')`
        .mapWith(Number)
        .as('redeemed'),
    })
    .from(promoRedemptions)
    .groupBy(promoRedemptions.promoCodeId)
    .as('uses')
  return db
    .select({
      code: promoCodes,
      reserved: sql<number>`coalesce(${uses.reserved}, 0)`.mapWith(Number),
      redeemed: sql<number>`coalesce(${uses.redeemed}, 0)`.mapWith(Number),
    })
    .from(promoCodes)
    .leftJoin(uses, eq(uses.promoCodeId, promoCodes.id))
    .orderBy(desc(promoCodes.id))
}

/** The history of every code's changes, newest first. */
export async function listPromoCodeChanges(limit: number) {
  return db
    .select({
      id: promoCodeChanges.id,
      code: promoCodes.code,
      change: promoCodeChanges.change,
      details: promoCodeChanges.details,
      changedAt: promoCodeChanges.changedAt,
      changedByEmail: promoCodeChanges.changedByEmail,
    })
    .from(promoCodeChanges)
    .innerJoin(promoCodes, eq(promoCodes.id, promoCodeChanges.promoCodeId))
    .orderBy(desc(promoCodeChanges.id))
    .limit(limit)
}

export async function findPromoCode(code: string, executor: Executor = db): Promise<PromoCodeRow | null> {
  const [row] = await executor.select().from(promoCodes).where(eq(promoCodes.code, code)).limit(1)
  return row ?? null
}

export async function getPromoCode(id: number, executor: Executor = db): Promise<PromoCodeRow | null> {
  const [row] = await executor.select().from(promoCodes).where(eq(promoCodes.id, id)).limit(1)
  return row ?? null
}

/**
 * What the code applied to an unpaid ad takes off its list price now (0 without one). The rules of its use are
 * checked when the payment is set up, and the use reserved when the card payment is started.
 */
export async function adPromoDiscountCents(
  event: { promoCodeId: number | null },
  listCents: number,
  executor: Executor = db,
) {
  if (event.promoCodeId === null) return 0
  const code = await getPromoCode(event.promoCodeId, executor)
  return code ? promoDiscountCents({ kind: code.kind as PromoKind, value: code.value }, listCents) : 0
}

/**
 * The code locked until `tx` ends: the payments started with it take their turns, so its last use is reserved
 * once. Taken after the ad's row lock, as every payment path does.
 */
export async function lockPromoCode(tx: Transaction, id: number): Promise<PromoCodeRow | null> {
  const [row] = await tx.select().from(promoCodes).where(eq(promoCodes.id, id)).limit(1).for('update')
  return row ?? null
}

/** What decides whether `code` may be used on the business's ad `eventID`, read in one statement. */
export async function promoUseFacts(
  code: PromoCodeRow,
  { businessID, eventID }: { businessID: number; eventID: number },
  executor: Executor = db,
): Promise<PromoUseFacts> {
  const [row] = await executor
    .select({
      usesByOtherAds:
        sql<number>`(select count(*) from ${promoRedemptions} where ${promoRedemptions.promoCodeId} = ${code.id} and ${promoRedemptions.eventID} <> ${eventID} and ${countsNow})`.mapWith(
          Number,
        ),
      usedByBusinessElsewhere: sql<boolean>`exists (select 1 from ${promoRedemptions} where ${promoRedemptions.promoCodeId} = ${code.id} and ${promoRedemptions.businessID} = ${businessID} and ${promoRedemptions.eventID} <> ${eventID} and ${countsNow})`,
      businessHasPaidAd: sql<boolean>`exists (select 1 from ${events} where ${events.businessID} = ${businessID} and ${events.eventID} <> ${eventID} and ${inArray(events.paymentStatus, [...SETTLED])})`,
    })
    .from(sql`(select 1) as one`)
  return {
    active: code.active,
    expiresAt: code.expiresAt,
    maxUses: code.maxUses,
    firstAdOnly: code.firstAdOnly,
    usesByOtherAds: row!.usesByOtherAds,
    usedByBusinessElsewhere: Boolean(row!.usedByBusinessElsewhere),
    businessHasPaidAd: Boolean(row!.businessHasPaidAd),
  }
}

/** The code an unpaid ad carries (null: none); its use reserved by another code goes with the change. */
export async function setAdPromoCode(tx: Transaction, eventID: number, promoCodeId: number | null) {
  await tx.update(events).set({ promoCodeId }).where(eq(events.eventID, eventID))
  await tx
    .delete(promoRedemptions)
    .where(
      and(
        eq(promoRedemptions.eventID, eventID),
        eq(promoRedemptions.status, 'reserved'),
        promoCodeId === null ? undefined : ne(promoRedemptions.promoCodeId, promoCodeId),
      ),
    )
}

/**
 * Holds the ad's use of the code, at `discountCents`, for PROMO_HOLD_MINUTES from now: a new reservation, or the ad's
 * own renewed (its checkout paying again). Under the code's lock (lockPromoCode), after its rules were checked.
 * Reservations of the code that lapsed are free again and go, so the business may hold the code on this ad.
 */
export async function reservePromoUse(
  tx: Transaction,
  use: { promoCodeId: number; businessID: number; eventID: number; discountCents: number },
) {
  const until = sql`now() + ${HOLD}`
  await tx
    .delete(promoRedemptions)
    .where(
      and(
        eq(promoRedemptions.status, 'reserved'),
        or(
          and(eq(promoRedemptions.eventID, use.eventID), ne(promoRedemptions.promoCodeId, use.promoCodeId)),
          and(
            eq(promoRedemptions.promoCodeId, use.promoCodeId),
            ne(promoRedemptions.eventID, use.eventID),
            sql`${heldUntil} <= now()`,
          ),
        ),
      ),
    )
  await tx
    .insert(promoRedemptions)
    .values({ ...use, status: 'reserved', reservedUntil: until })
    .onConflictDoUpdate({
      target: promoRedemptions.eventID,
      set: { discountCents: use.discountCents, reservedUntil: until },
      setWhere: and(
        eq(promoRedemptions.status, 'reserved'),
        eq(promoRedemptions.promoCodeId, use.promoCodeId),
      ),
    })
}

/** The ad's reserved use released: its payment failed, so another ad may have it at once. */
export async function releasePromoUse(tx: Transaction, eventID: number) {
  await tx
    .delete(promoRedemptions)
    .where(and(eq(promoRedemptions.eventID, eventID), eq(promoRedemptions.status, 'reserved')))
}

/**
 * The ad's use of the code redeemed by its payment, with the discount that payment had: its reservation, or — when
 * that lapsed and went meanwhile (a card check longer than the hold) — a new row, since the card was charged at the
 * discount. False when the use could not be recorded (the business holds the code on another ad).
 */
export async function redeemPromoUse(
  tx: Transaction,
  payment: Payment,
  use: { promoCodeId: number; discountCents: number },
) {
  const redeemed = {
    status: 'redeemed',
    paymentID: payment.paymentID,
    discountCents: use.discountCents,
    redeemedAt: new Date(),
    reservedUntil: null,
  }
  const [reserved] = await tx
    .update(promoRedemptions)
    .set(redeemed)
    .where(
      and(
        eq(promoRedemptions.eventID, payment.eventID),
        eq(promoRedemptions.status, 'reserved'),
        eq(promoRedemptions.promoCodeId, use.promoCodeId),
      ),
    )
    .returning({ id: promoRedemptions.id })
  if (reserved) return true
  await releasePromoUse(tx, payment.eventID)
  const [inserted] = await tx
    .insert(promoRedemptions)
    .values({
      ...redeemed,
      promoCodeId: use.promoCodeId,
      eventID: payment.eventID,
      businessID: sql`(select ${events.businessID} from ${events} where ${events.eventID} = ${payment.eventID})`,
    })
    .onConflictDoNothing()
    .returning({ id: promoRedemptions.id })
  return Boolean(inserted)
}

/** The ads with a payment set up with the code and not paid (or refunded): its card form could still pay it. */
export async function listAdsPayingWithCode(code: string) {
  const rows = await db
    .selectDistinct({ eventID: payments.eventID })
    .from(payments)
    .where(
      and(
        sql`${payments.metadata}->>'promoCode' = ${code}`,
        notInArray(payments.payment_status, [...SETTLED]),
      ),
    )
  return rows.map((row) => row.eventID)
}
