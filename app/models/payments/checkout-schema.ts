import '#app/zod-config.ts'
import { z } from 'zod'
import { idSchema, NUL_MESSAGE } from '#app/models/platform/input-rules.ts'
import { promoCodeField } from './promo-code-schema.ts'
import {
  TEST_CARD_MAX_LENGTH,
  TEST_CARD_REQUIRED,
  testCardTooLong,
  type TestCardField,
} from './checkout-rules.ts'

export const UNKNOWN_CHECKOUT_ACTION = 'Unknown action'
export const TOTAL_AMOUNT_MESSAGE = 'totalAmount must be an amount in dollars'

const totalAmount = z
  .string()
  .max(20, TOTAL_AMOUNT_MESSAGE)
  .regex(/^\d{1,7}(\.\d{1,2})?$/, TOTAL_AMOUNT_MESSAGE)
  .transform(Number)

const cardField = (field: TestCardField) =>
  z
    .string({ error: TEST_CARD_REQUIRED[field] })
    .max(TEST_CARD_MAX_LENGTH[field], testCardTooLong(field))
    .refine((value) => !value.includes('\0'), NUL_MESSAGE)

/**
 * The checkout page's forms: "Cancel" (leave checkout), a promo code's "Apply" and "Remove", "Confirm" of an ad free
 * with its code, and "Pay" with the test provider's card form. The pay form
 * names its ad (`eventID`) and the total it showed (`totalAmount`), so a second payment of it is told it is paid once the first cleared checkout; `js` says
 * the page shows the success itself.
 */
export const checkoutFormSchema = z.discriminatedUnion(
  'intent',
  [
    z.object({ intent: z.literal('cancel') }),
    /** "Make it sponsored": the box ticked (`sponsored=on`) or not (absent); the total is shown again. */
    z.object({ intent: z.literal('sponsor'), sponsored: z.literal('on').optional() }),
    z.object({
      intent: z.literal('pay'),
      eventID: idSchema.optional(),
      js: z.literal('1').optional(),
      /**
       * The total the page showed, in dollars: a payment at any other price is refused. Optional here so that a form
       * without it is refused as a changed price is, with the total now (payment-setup.server.ts).
       */
      totalAmount: totalAmount.optional(),
      cardNumber: cardField('cardNumber'),
      expiry: cardField('expiry'),
      cvc: cardField('cvc'),
    }),
    /** A promo code for the ad: applied (the page then shows the new total) or removed. */
    z.object({ intent: z.literal('apply-code'), code: promoCodeField }),
    z.object({ intent: z.literal('remove-code') }),
    /** An ad free with its code: confirmed without a card, claiming the $0 the page showed. */
    z.object({
      intent: z.literal('confirm-free'),
      eventID: idSchema.optional(),
      js: z.literal('1').optional(),
      totalAmount,
    }),
  ],
  { error: UNKNOWN_CHECKOUT_ACTION },
)

/** A live ad's sponsor page: "Pay" with the test provider's card form, naming the total (dollars) the page showed. */
export const sponsorLiveFormSchema = z.object(
  {
    intent: z.literal('pay', { error: UNKNOWN_CHECKOUT_ACTION }),
    eventID: idSchema.optional(),
    js: z.literal('1').optional(),
    totalAmount,
    cardNumber: cardField('cardNumber'),
    expiry: cardField('expiry'),
    cvc: cardField('cvc'),
  },
  { error: UNKNOWN_CHECKOUT_ACTION },
)
