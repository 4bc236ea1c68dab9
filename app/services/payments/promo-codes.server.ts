/**
 * Promo codes at checkout: an advertiser applying one to an unpaid ad, and the payment's check of its rules, which
 * holds the use under the code's lock once the card payment is started, and counts it once paid. The administrators'
 * page is promo-code-admin.server.ts.
 */
import { db, type Transaction } from '#db/client.server.ts'
import type { Event, Payment, PromoCodeRow } from '#db/schema.ts'
import { lockEventRow, setUnpaidEventTotal } from '#app/models/payments/payment.server.ts'
import {
  findPromoCode,
  lockPromoCode,
  promoUseFacts,
  redeemPromoUse,
  releasePromoUse,
  reservePromoUse,
  setAdPromoCode,
  getPromoCode,
} from '#app/models/payments/promo-code.server.ts'
import {
  describePromoDiscount,
  PROMO_TEXT,
  promoDiscountCents,
  promoOfPaymentMetadata,
  promoRefusal,
  type PromoKind,
} from '#app/models/payments/promo-code.ts'
import { AppError } from '#app/utils/app-error.ts'
import { logger } from '../platform/logger.server.ts'
import {
  amountDueCents,
  assertPayable,
  EVENT_NOT_FOUND_MESSAGE,
  listPriceCents,
  NOT_YOUR_EVENT_MESSAGE,
} from './payment-rules.server.ts'
import { wasPaidFor } from '#app/models/payments/settled.ts'

/** The code of every refusal of a promo code at payment (turned off, expired, used up… since it was applied). */
export const PROMO_REFUSED_CODE = 'promo_code_refused'

const discountOf = (code: PromoCodeRow) => ({ kind: code.kind as PromoKind, value: code.value })

/* At checkout ---------------------------------------------------------------------------------------------------- */

/** The unpaid ad, locked until `tx` ends, when it is the business's. */
async function lockOwnUnpaidAd(tx: Transaction, businessID: number, eventID: number) {
  const event = await lockEventRow(tx, eventID)
  if (!event) throw new AppError(EVENT_NOT_FOUND_MESSAGE, 'not_found')
  if (event.businessID !== businessID) throw new AppError(NOT_YOUR_EVENT_MESSAGE, 'forbidden')
  assertPayable(event)
  return event
}

const refusedAtCode = (message: string, kind: 'invalid' | 'conflict') =>
  new AppError(message, kind, { fieldErrors: { code: [message] } })

/**
 * Applies the code the advertiser typed (already normalized) to the business's unpaid ad, after checking every rule
 * of its use; the ad's saved total becomes the new one. An unknown code is `invalid`, a code that may not be used a
 * `conflict`, each with its message at the field `code`.
 */
export async function applyPromoCode({
  businessID,
  eventID,
  code: typed,
}: {
  businessID: number
  eventID: number
  code: string
}) {
  return db.transaction(async (tx) => {
    const event = await lockOwnUnpaidAd(tx, businessID, eventID)
    const code = await findPromoCode(typed, tx)
    if (!code) throw refusedAtCode(PROMO_TEXT.notFound, 'invalid')
    const refusal = promoRefusal(await promoUseFacts(code, { businessID, eventID }, tx))
    if (refusal) throw refusedAtCode(refusal, 'conflict')
    await setAdPromoCode(tx, eventID, code.id)
    await setUnpaidEventTotal(eventID, await amountDueCents({ ...event, promoCodeId: code.id }, tx), tx)
    return {
      title: PROMO_TEXT.applied,
      description: `${code.code}: ${describePromoDiscount(discountOf(code))}`,
    }
  })
}

/** Takes the code off the business's unpaid ad (its reserved use released); the ad is at its list price again. */
export async function removePromoCode({ businessID, eventID }: { businessID: number; eventID: number }) {
  await db.transaction(async (tx) => {
    const event = await lockOwnUnpaidAd(tx, businessID, eventID)
    await setAdPromoCode(tx, eventID, null)
    await setUnpaidEventTotal(eventID, await listPriceCents(event, tx), tx)
  })
  return { title: PROMO_TEXT.removed, description: 'The ad is at its list price.' }
}

/** What the checkout page shows of an unpaid ad's code: the list price, the code and its discount. */
export interface CheckoutPromo {
  code: string
  description: string
  /** Dollars with cents, as the summary's total. */
  listTotal: string
  discount: string
}

/**
 * The code applied to an unpaid ad as checkout shows it, or null without one. A code that no longer applies (turned
 * off, expired, used up since) is taken off the ad, and `dropped` says why.
 */
export async function checkoutPromo(event: Event): Promise<{
  promo: { code: PromoCodeRow; listCents: number; discountCents: number } | null
  dropped: string | null
}> {
  if (event.promoCodeId === null) return { promo: null, dropped: null }
  const code = await getPromoCode(event.promoCodeId)
  const refusal = code
    ? promoRefusal(await promoUseFacts(code, { businessID: event.businessID, eventID: event.eventID }))
    : PROMO_TEXT.turnedOff
  if (!code || refusal) {
    await db.transaction(async (tx) => {
      const locked = await lockEventRow(tx, event.eventID)
      if (!locked || wasPaidFor(locked.paymentStatus)) return
      await setAdPromoCode(tx, event.eventID, null)
    })
    return { promo: null, dropped: PROMO_TEXT.droppedNotice(refusal ?? PROMO_TEXT.turnedOff) }
  }
  const listCents = await listPriceCents(event)
  return {
    promo: { code, listCents, discountCents: promoDiscountCents(discountOf(code), listCents) },
    dropped: null,
  }
}

/** What a payment of an ad charges, and the code behind its discount. */
export interface PaymentCharge {
  listCents: number
  discountCents: number
  cents: number
  promoCode: string | null
}

/**
 * What the ad's payment charges now, inside the payment's transaction (the ad's row locked): its list price, less
 * the discount of its code when every rule of the code's use still holds. A code that no longer applies is refused
 * (`PROMO_REFUSED_CODE`): nothing is charged, and checkout shows the ad without it. `holdUse`: the card payment is
 * being started (Pay pressed), so the code's row is locked and the ad's use held with it for PROMO_HOLD_MINUTES
 * (renewed if held already): a code's last use goes to one payment. Without it (the page setting up its card form)
 * the rules are only read, and nothing is held.
 */
export async function chargeOfPayment(
  tx: Transaction,
  event: Event,
  { holdUse }: { holdUse: boolean },
): Promise<PaymentCharge> {
  const listCents = await listPriceCents(event, tx)
  if (event.promoCodeId === null) return { listCents, discountCents: 0, cents: listCents, promoCode: null }
  const code = holdUse
    ? await lockPromoCode(tx, event.promoCodeId)
    : await getPromoCode(event.promoCodeId, tx)
  const refusal = code
    ? promoRefusal(await promoUseFacts(code, { businessID: event.businessID, eventID: event.eventID }, tx))
    : PROMO_TEXT.turnedOff
  if (!code || refusal)
    throw new AppError(refusal ?? PROMO_TEXT.turnedOff, 'conflict', { code: PROMO_REFUSED_CODE })
  const discountCents = promoDiscountCents(discountOf(code), listCents)
  if (holdUse) {
    await reservePromoUse(tx, {
      promoCodeId: code.id,
      businessID: event.businessID,
      eventID: event.eventID,
      discountCents,
    })
  }
  return { listCents, discountCents, cents: listCents - discountCents, promoCode: code.code }
}

/** A total of $0 is confirmed at checkout without a card: no provider is asked to charge nothing. */
export const NOTHING_TO_CHARGE_CODE = 'nothing_to_charge'
export const nothingToCharge = () =>
  new AppError('Nothing to pay: this ad is free with its promo code. Confirm it at checkout.', 'conflict', {
    code: NOTHING_TO_CHARGE_CODE,
  })

/** What a payment row keeps of its charge, for its receipt: the list price, the discount and the code. */
export function promoMetadata(charge: PaymentCharge) {
  return charge.promoCode === null
    ? {}
    : { listCents: charge.listCents, discountCents: charge.discountCents, promoCode: charge.promoCode }
}

/** The code a payment row was set up with (null: none). */
export const promoCodeOf = (payment: Pick<Payment, 'metadata'>) =>
  promoOfPaymentMetadata(payment.metadata)?.code ?? null

/**
 * The use of the code a payment now paid was set up with, counted (in the transaction that records it paid, which
 * happens once however many reports of it arrive): its hold redeemed, or a use recorded when its hold lapsed
 * meanwhile, since the card was charged at the discount.
 */
export async function redeemPromoOfPayment(tx: Transaction, payment: Payment) {
  const promo = promoOfPaymentMetadata(payment.metadata)
  if (!promo) return
  const code = await findPromoCode(promo.code, tx)
  if (!code) return
  const counted = await redeemPromoUse(tx, payment, {
    promoCodeId: code.id,
    discountCents: promo.discountCents,
  })
  if (!counted) {
    logger.warn(
      { paymentID: payment.paymentID, eventID: payment.eventID, promoCodeId: code.id },
      'A payment with a promo code was paid but its use could not be counted',
    )
  }
}

/** The ad's held use of a code released, its payment having failed: the use is free for another ad at once. */
export async function releasePromoOfFailedPayment(
  tx: Transaction,
  payment: Pick<Payment, 'eventID' | 'metadata'>,
) {
  if (promoOfPaymentMetadata(payment.metadata)) await releasePromoUse(tx, payment.eventID)
}
