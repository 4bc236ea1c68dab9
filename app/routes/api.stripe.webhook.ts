import type { ActionFunctionArgs } from '@remix-run/node'
import { jsonError } from '#app/services/http.server.ts'
import { handleStripeWebhook } from '#app/services/payment-webhook.server.ts'
import { mailContext } from '#app/services/site-url.server.ts'
import { readBodyText } from '#app/services/request-body.server.ts'

/** POST /api/stripe/webhook: signed provider events (the signature covers the raw body, so it is read as text). */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return jsonError('Method not allowed', 405)
  const rawBody = await readBodyText(request)
  try {
    const { status, body } = await handleStripeWebhook(
      rawBody,
      request.headers.get('Stripe-Signature'),
      mailContext(request),
    )
    return Response.json(body, { status })
  } catch (error) {
    // A 5xx makes the provider retry later; the event id was not recorded, so the retry is processed.
    console.error('Processing a Stripe webhook failed', error)
    return jsonError('Webhook processing failed', 500)
  }
}
