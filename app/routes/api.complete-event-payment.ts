import type { ActionFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { assertOwnBusiness, getBusiness } from '#app/services/auth.server.ts'
import { jsonError } from '#app/services/http.server.ts'
import { PAYMENT_TEXT } from '#app/services/payment-messages.ts'
import {
  clearPaymentData,
  completeEventPayment,
  PaymentError,
  readPaymentData,
} from '#app/services/payments.server.ts'
import { getSession, sessionStorage } from '#app/services/session.server.ts'

const bodySchema = z.object({
  paymentIntentId: z.string().trim().min(1),
  businessID: z.union([z.number(), z.string().trim().min(1)]).transform(Number),
  selectedDates: z.array(z.string()).optional(),
  eventData: z.unknown().optional(),
})

/** POST /api/complete-event-payment → { success, message }; "paid" is read from the provider, never from the body. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return jsonError('Method not allowed', 405)
  const business = await getBusiness(request)
  if (!business) return jsonError('Unauthorized', 401)
  const parsed = bodySchema.safeParse(await request.json().catch(() => null))
  if (!parsed.success) return jsonError('paymentIntentId and businessID are required', 400)
  assertOwnBusiness(business, parsed.data.businessID)
  try {
    const result = await completeEventPayment({ business, paymentIntentId: parsed.data.paymentIntentId })
    const headers = new Headers()
    if (result.success) {
      const session = await getSession(request)
      const stored = readPaymentData(session)
      if (stored.status === 'ok' && stored.data.eventID === result.eventID) {
        clearPaymentData(session)
        headers.set('Set-Cookie', await sessionStorage.commitSession(session))
      }
    }
    return Response.json(
      { success: result.success, message: result.message, ...(result.code ? { code: result.code } : {}) },
      { status: result.status, headers },
    )
  } catch (error) {
    if (error instanceof PaymentError) {
      return Response.json({ success: false, message: error.message }, { status: error.status })
    }
    console.error('Completing a payment failed', error)
    return Response.json({ success: false, message: PAYMENT_TEXT.error.description }, { status: 502 })
  }
}
