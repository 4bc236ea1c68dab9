import type { ActionFunctionArgs } from '@remix-run/node'
import { errorResponse } from '#app/services/http/http.server.ts'
import { applyStripeWebhook, verifyStripeWebhook } from '#app/services/payments/payment-webhook.server.ts'
import { mailContext } from '#app/services/http/site-url.server.ts'
import { readBodyText } from '#app/services/http/request-body.server.ts'
import { methodNotAllowed } from '#app/utils/app-error.ts'

/** POST /api/stripe/webhook: signed provider events (the signature covers the raw body, so it is read as text). */
export async function action({ request }: ActionFunctionArgs) {
  let verifying = false
  try {
    if (request.method !== 'POST') throw methodNotAllowed('POST')
    const rawBody = await readBodyText(request)
    verifying = true
    const webhook = verifyStripeWebhook(rawBody, request.headers.get('Stripe-Signature'))
    verifying = false
    const outcome = await applyStripeWebhook(webhook, mailContext(request))
    return Response.json({
      received: true,
      ...(outcome === 'duplicate' ? { duplicate: true } : {}),
      ...(outcome === 'ignored' ? { ignored: true } : {}),
    })
  } catch (error) {
    // A 5xx makes the provider retry later; the event id was not recorded, so the retry is processed.
    return errorResponse(error, {
      request,
      // A webhook refused at verification is acknowledged as not received.
      fields: () => (verifying ? { received: false } : {}),
      logAs: 'Processing a Stripe webhook failed',
      unexpectedMessage: 'Webhook processing failed',
    })
  }
}
