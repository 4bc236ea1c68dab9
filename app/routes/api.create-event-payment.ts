import type { ActionFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { idSchema } from '#app/models/platform/input-rules.ts'
import { requireOwnBusinessJson } from '#app/services/http/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { setUpEventPayment } from '#app/services/payments/payment-setup.server.ts'
import { centsToDollars } from '#app/utils/pricing.ts'

const numberish = z.union([z.number(), z.string().trim().min(1)]).transform(Number)

const bodySchema = z.object({
  businessID: idSchema,
  eventID: idSchema,
  totalAmount: numberish.nullish(),
  selectedDates: z.array(z.string()).optional(),
  eventData: z.unknown().optional(),
})

/**
 * POST /api/create-event-payment → { clientSecret, totalAmount, selectedDatesCount }, when Pay is pressed on Stripe's
 * card form: the amount comes from the event row and must be the `totalAmount` the page showed (none, or another, is
 * a 400 with the total now); a promo code's use is held for the payment.
 */
export async function action({ request }: ActionFunctionArgs) {
  try {
    const { business, body } = await requireOwnBusinessJson(
      request,
      bodySchema,
      'businessID and eventID are required',
    )
    const setup = await setUpEventPayment({
      businessID: business.businessID,
      eventID: body.eventID,
      claimedTotalDollars: body.totalAmount,
      paying: true,
    })
    return Response.json({
      clientSecret: setup.clientSecret,
      totalAmount: centsToDollars(setup.totalCents),
      selectedDatesCount: setup.selectedDatesCount,
    })
  } catch (error) {
    return errorResponse(error, {
      request,
      logAs: 'Setting up a payment failed',
      unexpectedMessage: 'Unable to setup payment. Please try again.',
      unexpectedKind: 'upstream_failed',
    })
  }
}
