import type { ActionFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { assertOwnBusiness, getBusiness } from '#app/services/auth.server.ts'
import { jsonError } from '#app/services/http.server.ts'
import { PaymentError, setUpEventPayment } from '#app/services/payments.server.ts'

const numberish = z.union([z.number(), z.string().trim().min(1)]).transform(Number)

const bodySchema = z.object({
  businessID: numberish,
  eventID: numberish,
  totalAmount: numberish.nullish(),
  selectedDates: z.array(z.string()).optional(),
  eventData: z.unknown().optional(),
})

/** POST /api/create-event-payment → { clientSecret, totalAmount, selectedDatesCount }; the amount comes from the event row. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return jsonError('Method not allowed', 405)
  const business = await getBusiness(request)
  if (!business) return jsonError('Unauthorized', 401)
  const parsed = bodySchema.safeParse(await request.json().catch(() => null))
  if (!parsed.success) return jsonError('businessID and eventID are required', 400)
  assertOwnBusiness(business, parsed.data.businessID)
  try {
    const setup = await setUpEventPayment({
      business,
      eventID: parsed.data.eventID,
      claimedTotalDollars: parsed.data.totalAmount,
    })
    return Response.json({
      clientSecret: setup.clientSecret,
      totalAmount: setup.totalCents / 100,
      selectedDatesCount: setup.selectedDatesCount,
    })
  } catch (error) {
    if (error instanceof PaymentError)
      return jsonError(error.message, error.status, error.code ? { code: error.code } : {})
    console.error('Setting up a payment failed', error)
    return jsonError('Unable to setup payment. Please try again.', 502)
  }
}
