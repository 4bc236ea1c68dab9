/**
 * The administrators' promo codes page: every code with its uses (paid, and held now by payments under way), making
 * one, turning one off (each audited).
 */
import type { PromoCodeRow } from '#db/schema.ts'
import { zonedInstant } from '#app/models/ads/zoned-times.ts'
import type { NewPromoCode } from '#app/models/payments/promo-code-schema.ts'
import {
  deactivatePromoCode,
  insertPromoCode,
  listPromoCodeChanges,
  listAdsPayingWithCode,
  listPromoCodes,
} from '#app/models/payments/promo-code.server.ts'
import {
  describePromoDiscount,
  describePromoUses,
  MAX_PROMO_YEARS,
  PROMO_TEXT,
  type PromoKind,
} from '#app/models/payments/promo-code.ts'
import { AppError } from '#app/utils/app-error.ts'
import { addDaysIso, isoDateInZone, todayInZone } from '#app/utils/time.ts'
import { getEnv } from '../platform/env.server.ts'
import { settleOpenPayments } from './payment-setup.server.ts'

const discountOf = (code: PromoCodeRow) => ({ kind: code.kind as PromoKind, value: code.value })

/** The last day a code may be used, in the platform time zone. */
const lastDayOf = (expiresAt: Date) =>
  isoDateInZone(new Date(expiresAt.getTime() - 1), getEnv().APP_TIME_ZONE)

function describeCode(
  code: Pick<PromoCodeRow, 'code' | 'kind' | 'value' | 'expiresAt' | 'maxUses' | 'firstAdOnly'>,
) {
  return [
    `${code.code}: ${describePromoDiscount(discountOf(code as PromoCodeRow))}`,
    code.expiresAt ? `until ${lastDayOf(code.expiresAt)}` : 'no expiry',
    code.maxUses === null ? 'no limit of uses' : `${code.maxUses} ${code.maxUses === 1 ? 'use' : 'uses'}`,
    ...(code.firstAdOnly ? ["a business's first paid ad only"] : []),
    'once per business',
  ].join(', ')
}

const HISTORY_SHOWN = 50

/**
 * The promo codes page: every code with its uses — `used` paid, `reserved` held now by payments under way (`uses` says
 * both) — and the history of changes, newest first.
 */
export async function promoCodesPage() {
  const now = Date.now()
  const [codes, history] = await Promise.all([listPromoCodes(), listPromoCodeChanges(HISTORY_SHOWN)])
  return {
    codes: codes.map(({ code, reserved, redeemed }) => ({
      id: code.id,
      code: code.code,
      discount: describePromoDiscount(discountOf(code)),
      used: redeemed,
      reserved,
      uses: describePromoUses({ used: redeemed, held: reserved, maxUses: code.maxUses }),
      maxUses: code.maxUses,
      lastDay: code.expiresAt ? lastDayOf(code.expiresAt) : null,
      firstAdOnly: code.firstAdOnly,
      status: !code.active
        ? 'Off'
        : code.expiresAt && code.expiresAt.getTime() <= now
          ? 'Expired'
          : code.maxUses !== null && redeemed + reserved >= code.maxUses
            ? 'Used up'
            : 'Active',
      active: code.active,
    })),
    history: history.map((entry) => ({
      id: entry.id,
      at: entry.changedAt.toISOString(),
      by: entry.changedByEmail,
      code: entry.code,
      what: entry.change === 'created' ? `Created — ${entry.details}` : entry.details,
    })),
  }
}

/**
 * Makes a code, by the administrator `userId`; the toast saying so. A last day in the past, or more than
 * MAX_PROMO_YEARS ahead, is refused.
 */
export async function createPromoCode(form: NewPromoCode, userId: string) {
  const timeZone = getEnv().APP_TIME_ZONE
  const today = todayInZone(timeZone)
  const latest = `${Number(today.slice(0, 4)) + MAX_PROMO_YEARS}${today.slice(4)}`
  if (form.expiresOn !== null && (form.expiresOn < today || form.expiresOn > latest)) {
    throw new AppError(PROMO_TEXT.expiry, 'invalid', { fieldErrors: { expiresOn: [PROMO_TEXT.expiry] } })
  }
  const code = {
    code: form.code,
    kind: form.kind,
    value: form.value,
    // The code may be used until the end of its last day.
    expiresAt:
      form.expiresOn === null ? null : zonedInstant(addDaysIso(form.expiresOn, 1), '00:00', timeZone),
    maxUses: form.maxUses,
    firstAdOnly: form.firstAdOnly,
  }
  await insertPromoCode(code, describeCode(code), userId)
  return { title: 'Promo code created', description: describeCode(code) }
}

/**
 * Turns a code off, by the administrator `userId`: no ad can use it from now on, and the payments set up with it and
 * not yet made are cancelled.
 */
export async function turnOffPromoCode(id: number, userId: string) {
  const result = await deactivatePromoCode(id, userId)
  if (!result) throw new AppError(PROMO_TEXT.notFound, 'not_found')
  // A card form already set up at the discount could still be paid: those payments are cancelled with the provider.
  for (const eventID of await listAdsPayingWithCode(result.code.code)) await settleOpenPayments(eventID)
  return {
    title: result.changed ? 'Promo code turned off' : 'Already off',
    description: `${result.code.code} can no longer be used.`,
  }
}
