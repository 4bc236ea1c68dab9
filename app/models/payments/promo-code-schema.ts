import '#app/zod-config.ts'
import { z } from 'zod'
import { idSchema, NUL_MESSAGE, text } from '#app/models/platform/input-rules.ts'
import { isValidIsoDate } from '#app/utils/time.ts'
import {
  MAX_FIXED_DISCOUNT_CENTS,
  MAX_PROMO_USES,
  normalizePromoCode,
  PROMO_CODE_MAX_LENGTH,
  PROMO_CODE_PATTERN,
  PROMO_TEXT,
} from './promo-code.ts'

/** A code as typed (any case, spaces around it): upper-cased, and refused unless it has the codes' format. */
export const promoCodeField = z
  .string({ error: PROMO_TEXT.required })
  .refine((value) => !value.includes('\0'), NUL_MESSAGE)
  .max(PROMO_CODE_MAX_LENGTH + 20, PROMO_TEXT.format)
  .transform(normalizePromoCode)
  .refine((code) => PROMO_CODE_PATTERN.test(code), PROMO_TEXT.format)

const DOLLARS = /^\d{1,7}(\.\d{1,2})?$/
const WHOLE = /^\d{1,7}$/

/**
 * The administrators' form of a new code. `value` is a percentage or dollars (by `kind`), `expiresOn` the last day
 * it may be used (platform time zone), `maxUses` empty for no limit; the checkbox `firstAdOnly` is sent when ticked.
 */
const newPromoCodeFields = z.object({
  intent: z.literal('create'),
  code: promoCodeField,
  kind: z.enum(['percent', 'fixed'], { error: PROMO_TEXT.kind }),
  value: text().max(20, PROMO_TEXT.fixed),
  expiresOn: text()
    .max(10, PROMO_TEXT.expiry)
    .refine((value) => isValidIsoDate(value), PROMO_TEXT.expiry)
    .optional(),
  maxUses: text()
    .max(7, PROMO_TEXT.maxUses)
    .regex(WHOLE, PROMO_TEXT.maxUses)
    .transform(Number)
    .pipe(z.number().int().min(1, PROMO_TEXT.maxUses).max(MAX_PROMO_USES, PROMO_TEXT.maxUses))
    .optional(),
  firstAdOnly: z.literal('on').optional(),
})

/** The value in the code's unit (a percentage, or cents), or a problem at `value`. */
function newPromoCode(form: z.output<typeof newPromoCodeFields>, ctx: z.RefinementCtx) {
  const value =
    form.kind === 'percent'
      ? WHOLE.test(form.value)
        ? Number(form.value)
        : NaN
      : DOLLARS.test(form.value)
        ? Math.round(Number(form.value) * 100)
        : NaN
  const valid =
    form.kind === 'percent' ? value >= 1 && value <= 100 : value > 0 && value <= MAX_FIXED_DISCOUNT_CENTS
  if (!valid) {
    ctx.addIssue({
      code: 'custom',
      path: ['value'],
      message: form.kind === 'percent' ? PROMO_TEXT.percent : PROMO_TEXT.fixed,
    })
    return z.NEVER
  }
  return {
    intent: form.intent,
    code: form.code,
    kind: form.kind,
    value,
    expiresOn: form.expiresOn ?? null,
    maxUses: form.maxUses ?? null,
    firstAdOnly: form.firstAdOnly === 'on',
  }
}

/** The promo codes page's forms: a new code, or turning one off. */
export const promoCodesFormSchema = z
  .discriminatedUnion('intent', [
    newPromoCodeFields,
    z.object({ intent: z.literal('turn-off'), id: idSchema }),
  ])
  .transform((form, ctx) => (form.intent === 'create' ? newPromoCode(form, ctx) : form))

export type NewPromoCode = Omit<ReturnType<typeof newPromoCode>, 'intent'>
