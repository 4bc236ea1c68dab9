import type { ActionFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { idSchema } from '#app/models/platform/input-rules.ts'
import { requireOwnBusinessJson } from '#app/services/http/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { setUpSponsorship } from '#app/services/payments/sponsor-live.server.ts'
import { formatDollars } from '#app/utils/pricing.ts'

const bodySchema = z.object({
  businessID: idSchema,
  eventID: idSchema,
  /** The total the sponsor page showed, in cents: any other price is refused with the new one. */
  totalCents: z.number().int().min(0).max(100_000_000),
})

/**
 * POST /api/sponsor-payment → { clientSecret, totalAmount }: the PaymentIntent of a live ad's sponsorship for Stripe's
 * form on /dashboard/events/{id}/sponsor (the amount comes from the ad and today's prices, never from the body).
 */
export async function action({ request }: ActionFunctionArgs) {
  try {
    const { business, body } = await requireOwnBusinessJson(
      request,
      bodySchema,
      'businessID, eventID and totalCents are required',
    )
    const setup = await setUpSponsorship({
      businessID: business.businessID,
      eventID: body.eventID,
      claimedCents: body.totalCents,
    })
    return Response.json({ clientSecret: setup.clientSecret, totalAmount: formatDollars(setup.quote.cents) })
  } catch (error) {
    return errorResponse(error, {
      request,
      logAs: 'Setting up a sponsorship payment failed',
      unexpectedMessage: 'Unable to setup payment. Please try again.',
      unexpectedKind: 'upstream_failed',
    })
  }
}
