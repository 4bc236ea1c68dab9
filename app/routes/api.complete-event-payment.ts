import type { ActionFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { idSchema } from '#app/models/platform/input-rules.ts'
import { requireOwnBusinessJson } from '#app/services/accounts/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import { completeBrowserPayment } from '#app/services/payments/checkout.server.ts'

const bodySchema = z.object({
  paymentIntentId: z.string().trim().min(1),
  businessID: idSchema,
  selectedDates: z.array(z.string()).optional(),
  eventData: z.unknown().optional(),
})

/**
 * POST /api/complete-event-payment → { success, message }; "paid" is read from the provider, never from the body.
 * A refusal keeps that shape (`success: false`) with its code, status and headers (Retry-After, Allow).
 */
export async function action({ request }: ActionFunctionArgs) {
  try {
    const { business, body } = await requireOwnBusinessJson(
      request,
      bodySchema,
      'paymentIntentId and businessID are required',
    )
    const { result, headers } = await completeBrowserPayment(request, business, body.paymentIntentId)
    return Response.json(
      { success: result.success, message: result.message, ...(result.code ? { code: result.code } : {}) },
      { status: result.status, headers },
    )
  } catch (error) {
    return errorResponse(error, {
      request,
      fields: () => ({ success: false }),
      logAs: 'Completing a payment failed',
      unexpectedMessage: PAYMENT_TEXT.error.description,
      unexpectedKind: 'upstream_failed',
    })
  }
}
