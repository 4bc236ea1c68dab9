/**
 * The rules of promo codes, safe for the browser: their format, the discount they give on an ad's list price, and
 * every text an advertiser or a host reads about them.
 */
import { formatDollars } from '#app/utils/pricing.ts'

export type PromoKind = 'percent' | 'fixed'

/** What a code gives: `value` is a percentage (1–100) or cents. */
export interface PromoDiscount {
  kind: PromoKind
  value: number
}

export const PROMO_CODE_MIN_LENGTH = 3
export const PROMO_CODE_MAX_LENGTH = 32
/** Upper-case letters, digits and `-`, once what was typed is trimmed and upper-cased. */
export const PROMO_CODE_PATTERN = /^[A-Z0-9-]{3,32}$/
/** The most a fixed code takes off, in cents: more than any price list charges. */
export const MAX_FIXED_DISCOUNT_CENTS = 1_000_000
export const MAX_PROMO_USES = 1_000_000
/** How many years ahead a code's last day may be: a campaign, not a date at the end of the calendar. */
export const MAX_PROMO_YEARS = 10
/**
 * How long a use is held for an ad whose card payment was started (Pay pressed), renewed each time that checkout
 * pays again: long enough for a card check, short enough that an abandoned payment frees the use soon.
 */
export const PROMO_HOLD_MINUTES = 15

/** The texts of promo codes, in one place. */
export const PROMO_TEXT = {
  required: 'Enter a promo code.',
  format: `A promo code has ${PROMO_CODE_MIN_LENGTH}–${PROMO_CODE_MAX_LENGTH} letters, digits or dashes.`,
  notFound: 'No such promo code.',
  turnedOff: 'This code is no longer valid.',
  expired: 'This code has expired.',
  usedUp: 'This code has been used up.',
  firstAdOnly: "This code is for a business's first paid ad.",
  usedBefore: 'You have already used this code.',
  exists: 'A promo code with this name exists already.',
  percent: 'Enter a whole percentage from 1 to 100.',
  fixed: `Enter an amount in dollars above $0.00 and at most $${formatDollars(MAX_FIXED_DISCOUNT_CENTS)}.`,
  kind: 'Choose a percentage or a fixed amount.',
  maxUses: `Enter a whole number of uses from 1 to ${MAX_PROMO_USES}, or leave it empty for no limit.`,
  expiry: `Enter the last day as a date (YYYY-MM-DD), from today to ${MAX_PROMO_YEARS} years ahead, or leave it empty.`,
  applied: 'Promo code applied',
  removed: 'Promo code removed',
  /** The checkout's notice when the code applied to the ad stopped applying: the ad is at its list price again. */
  droppedNotice: (reason: string) => `${reason} The promo code was removed from this ad.`,
} as const

/** What the advertiser typed, as codes are stored: trimmed and upper-cased. */
export function normalizePromoCode(typed: string) {
  return typed.trim().toUpperCase()
}

/** The cents `code` takes off `listCents`: a percentage rounded to the cent, never more than the price. */
export function promoDiscountCents(code: PromoDiscount, listCents: number) {
  const off = code.kind === 'percent' ? Math.round((listCents * code.value) / 100) : code.value
  return Math.max(0, Math.min(listCents, off))
}

/** A code's uses as its host reads them: "3 of 10 used · 1 held by a payment under way" ("3 used" without a limit). */
export function describePromoUses({
  used,
  held,
  maxUses,
}: {
  used: number
  held: number
  maxUses: number | null
}) {
  const paid = maxUses === null ? `${used} used` : `${used} of ${maxUses} used`
  if (held === 0) return paid
  return `${paid} · ${held} held by ${held === 1 ? 'a payment' : 'payments'} under way`
}

/** "20% off", "$5.00 off". */
export function describePromoDiscount(code: PromoDiscount) {
  return code.kind === 'percent' ? `${code.value}% off` : `$${formatDollars(code.value)} off`
}

/** What decides whether a code may be used on an ad, read under the code's lock. */
export interface PromoUseFacts {
  active: boolean
  expiresAt: Date | null
  maxUses: number | null
  firstAdOnly: boolean
  /** Uses by other ads: redeemed, or held by a payment under way. */
  usesByOtherAds: number
  /** The business used the code on another ad, or holds it there for a payment under way. */
  usedByBusinessElsewhere: boolean
  /** The business has a paid (or refunded) ad other than this one. */
  businessHasPaidAd: boolean
}

/** Why the code may not be used on the ad (the advertiser's message), or null when it may. */
export function promoRefusal(facts: PromoUseFacts, now: Date = new Date()): string | null {
  if (!facts.active) return PROMO_TEXT.turnedOff
  if (facts.expiresAt && facts.expiresAt.getTime() <= now.getTime()) return PROMO_TEXT.expired
  if (facts.usedByBusinessElsewhere) return PROMO_TEXT.usedBefore
  if (facts.firstAdOnly && facts.businessHasPaidAd) return PROMO_TEXT.firstAdOnly
  if (facts.maxUses !== null && facts.usesByOtherAds >= facts.maxUses) return PROMO_TEXT.usedUp
  return null
}

/** What a payment row keeps of a promo code (in its metadata), for its receipt. */
export interface PaymentPromo {
  code: string
  listCents: number
  discountCents: number
}

/** The promo code a payment was set up with, read from the payment's metadata; null without one. */
export function promoOfPaymentMetadata(metadata: unknown): PaymentPromo | null {
  const { promoCode, listCents, discountCents } = (metadata ?? {}) as Record<string, unknown>
  return typeof promoCode === 'string' && typeof listCents === 'number' && typeof discountCents === 'number'
    ? { code: promoCode, listCents, discountCents }
    : null
}
