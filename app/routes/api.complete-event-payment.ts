import type { ActionFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { idSchema } from '#app/models/input-rules.ts'
import { requireOwnBusinessJson } from '#app/services/auth.server.ts'
import { PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import { completeBrowserPayment } from '#app/services/checkout.server.ts'
import { AppError } from '#app/utils/app-error.ts'

const bodySchema = z.object({
  paymentIntentId: z.string().trim().min(1),
  businessID: idSchema,
  selectedDates: z.array(z.string()).optional(),
  eventData: z.unknown().optional(),
})

/** POST /api/complete-event-payment → { success, message }; "paid" is read from the provider, never from the body. */
export async function action({ request }: ActionFunctionArgs) {
  const { business, body } = await requireOwnBusinessJson(
    request,
    bodySchema,
    'paymentIntentId and businessID are required',
  )
  try {
    const { result, headers } = await completeBrowserPayment(request, business, body.paymentIntentId)
    return Response.json(
      { success: result.success, message: result.message, ...(result.code ? { code: result.code } : {}) },
      { status: result.status, headers },
    )
  } catch (error) {
    if (error instanceof AppError) {
      return Response.json({ success: false, message: error.message }, { status: error.status })
    }
    console.error('Completing a payment failed', error)
    return Response.json({ success: false, message: PAYMENT_TEXT.error.description }, { status: 502 })
  }
}
