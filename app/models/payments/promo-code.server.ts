/**
 * Promo codes in the database: the codes, the append-only history of their changes, and their uses by ads
 * (reserved when an ad's payment is set up, redeemed when it is paid).
 */
import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm'
import { db, type Transaction } from '#db/client.server.ts'
import {
  events,
  promoCodeChanges,
  promoCodes,
  promoRedemptions,
  users,
  type Payment,
  type PromoCodeRow,
} from '#db/schema.ts'
import { AppError } from '#app/utils/app-error.ts'
import { isUniqueViolation } from '#app/models/platform/unique-violation.ts'
import { SETTLED, type Executor } from './payment.server.ts'
import { PROMO_TEXT, promoDiscountCents, type PromoKind, type PromoUseFacts } from './promo-code.ts'

export interface NewPromoCodeRow {
  code: string
  kind: PromoKind
  value: number
  expiresAt: Date | null
  maxUses: number | null
  firstAdOnly: boolean
}

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

/** Every code, newest first, with its uses (reserved and redeemed) counted in the same query. */
export async function listPromoCodes() {
  const uses = db
    .select({
      promoCodeId: promoRedemptions.promoCodeId,
      reserved: sql<number>`count(*) filter (where ${promoRedemptions.status} = 'reserved')`
        .mapWith(Number)
        .as('reserved'),
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
 * checked, and the use reserved, when the payment is set up.
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
 * The code locked until `tx` ends: the set-ups of payments using it take their turns, so its last use is reserved
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
        sql<number>`(select count(*) from ${promoRedemptions} where ${promoRedemptions.promoCodeId} = ${code.id} and ${promoRedemptions.eventID} <> ${eventID})`.mapWith(
          Number,
        ),
      usedByBusinessElsewhere: sql<boolean>`exists (select 1 from ${promoRedemptions} where ${promoRedemptions.promoCodeId} = ${code.id} and ${promoRedemptions.businessID} = ${businessID} and ${promoRedemptions.eventID} <> ${eventID})`,
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

/** Reserves (or keeps) the ad's use of the code, at `discountCents`. */
export async function reservePromoUse(
  tx: Transaction,
  use: { promoCodeId: number; businessID: number; eventID: number; discountCents: number },
) {
  await tx
    .insert(promoRedemptions)
    .values({ ...use, status: 'reserved' })
    .onConflictDoUpdate({
      target: promoRedemptions.eventID,
      set: { discountCents: use.discountCents },
      setWhere: and(
        eq(promoRedemptions.status, 'reserved'),
        eq(promoRedemptions.promoCodeId, use.promoCodeId),
      ),
    })
}

/** The ad's reserved use, redeemed by its payment (with the discount that payment had). */
export async function redeemPromoUse(tx: Transaction, payment: Payment, discountCents: number) {
  await tx
    .update(promoRedemptions)
    .set({ status: 'redeemed', paymentID: payment.paymentID, discountCents, redeemedAt: new Date() })
    .where(and(eq(promoRedemptions.eventID, payment.eventID), eq(promoRedemptions.status, 'reserved')))
}

/** The ads holding a reserved use of the code (their payments set up with it, not yet made). */
export async function listReservingAds(promoCodeId: number) {
  const rows = await db
    .select({ eventID: promoRedemptions.eventID })
    .from(promoRedemptions)
    .where(and(eq(promoRedemptions.promoCodeId, promoCodeId), eq(promoRedemptions.status, 'reserved')))
  return rows.map((row) => row.eventID)
}
