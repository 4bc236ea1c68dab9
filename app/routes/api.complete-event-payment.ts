import type { ActionFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { idSchema } from '#app/models/platform/input-rules.ts'
import { requireOwnBusinessJson } from '#app/services/http/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { REQUEST_ID_HEADER } from '#app/services/http/request-log.server.ts'
import { getSession, sessionStorage } from '#app/services/http/session.server.ts'
import { mailContext } from '#app/services/http/site-url.server.ts'
import { completeEventPayment } from '#app/services/payments/payment-completion.server.ts'
import { clearPaymentDataOf } from '#app/services/payments/payment-data.server.ts'
import { PAYMENT_TEXT } from '#app/utils/payment-messages.ts'

const bodySchema = z.object({
  paymentIntentId: z.string().trim().min(1),
  businessID: idSchema,
  selectedDates: z.array(z.string()).optional(),
  eventData: z.unknown().optional(),
})

/**
 * POST /api/complete-event-payment → { success, message }; "paid" is read from the provider, never from the body.
 * A refusal keeps that shape (`success: false`) with its code, status and headers (Retry-After, Allow): not paid
 * (yet) is a 402 with the provider's reason, paid but not recorded a 500 with `event_creation_failed`.
 */
export async function action({ request }: ActionFunctionArgs) {
  try {
    const { business, body } = await requireOwnBusinessJson(
      request,
      bodySchema,
      'paymentIntentId and businessID are required',
    )
    const paid = await completeEventPayment({
      businessID: business.businessID,
      paymentIntentId: body.paymentIntentId,
      mail: mailContext(request),
      requestId: request.headers.get(REQUEST_ID_HEADER) ?? undefined,
    })
    // Once the ad is paid, the session's payment data for it is done with.
    const session = await getSession(request)
    const headers = new Headers()
    if (clearPaymentDataOf(session, paid.eventID)) {
      headers.set('Set-Cookie', await sessionStorage.commitSession(session))
    }
    return Response.json({ success: true, message: PAYMENT_TEXT.success.description }, { headers })
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
