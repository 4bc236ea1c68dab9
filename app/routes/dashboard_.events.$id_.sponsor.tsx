import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { lazy } from 'react'
import { StripeFormSlot, TestCardForm } from '#app/components/checkout-ui.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { sponsorLiveFormSchema } from '#app/models/payments/checkout-schema.ts'
import { SPONSOR_LIVE_TEXT } from '#app/models/payments/sponsorship.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import { requireBusiness } from '#app/services/http/auth.server.ts'
import {
  fieldsTooLongToEcho,
  formRefusal,
  parseFormSubmission,
} from '#app/services/http/form-submission.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { REQUEST_ID_HEADER } from '#app/services/http/request-log.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { mailContext } from '#app/services/http/site-url.server.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'
import {
  completeSponsorship,
  paySponsorshipWithTestCard,
  sponsorPage,
} from '#app/services/payments/sponsor-live.server.ts'
import { requireOwnEvent } from '#app/services/payments/payment-rules.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import { formatDatesLine } from '#app/utils/format.ts'
import { formatDollars } from '#app/utils/pricing.ts'

// Stripe's card form is a script of its own, loaded only in the browser (the test provider's is a plain POST).
const StripeSponsorPayment = lazy(() => import('#app/components/stripe-sponsor.client.tsx'))

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Make ${data ? `“${data.eventTitle}”` : 'the ad'} sponsored · ${PRODUCT_NAME}` },
]

/** The card fields never sent back to the page; nor is anything too long to echo. */
const CARD_SECRETS = ['cardNumber', 'cvc']
const ECHO_MAX = 100
const requestIdOf = (request: Request) => request.headers.get(REQUEST_ID_HEADER) ?? undefined

function eventIdOf(id: string | undefined) {
  const eventID = parseId(id)
  if (!eventID) throw new AppError('Event not found', 'not_found')
  return eventID
}

/**
 * GET /dashboard/events/{id}/sponsor: what making the live ad sponsored costs now (its display days left at today's
 * price per day) and the card form; 404 for no such ad, 403 for another's, 409 with why for an ad that cannot be.
 * Back from Stripe (`?payment_intent=`), the payment is checked with Stripe and the advertiser goes to the ad's page,
 * or back to this one with why it was not paid.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const business = await requireBusiness(request)
  try {
    const eventID = eventIdOf(params.id)
    const returned = new URL(request.url).searchParams.get('payment_intent')
    if (returned) {
      try {
        await completeSponsorship({
          businessID: business.businessID,
          eventID,
          paymentIntentId: returned,
          mail: mailContext(request),
          requestId: requestIdOf(request),
        })
      } catch (error) {
        // Not paid (a refused card, a check abandoned on Stripe's page): back to this page, told why, to try again.
        if (!(error instanceof AppError && error.kind === 'payment_refused')) throw error
        return redirectWithToast(`/dashboard/events/${eventID}/sponsor`, {
          title: PAYMENT_TEXT.failed.title,
          description: error.message,
          variant: 'destructive',
        })
      }
      return redirectWithToast(`/dashboard/events/${eventID}`, SPONSOR_LIVE_TEXT.done)
    }
    const page = await sponsorPage(business.businessID, eventID)
    return {
      eventID: page.eventID,
      eventTitle: page.eventTitle,
      days: page.quote.days,
      perDay: formatDollars(page.quote.centsPerDay),
      total: formatDollars(page.quote.cents),
      totalCents: page.quote.cents,
      businessID: business.businessID,
      mode: page.mode,
      publishableKey: page.publishableKey,
    }
  } catch (error) {
    throw errorResponse(error, { request })
  }
}

/**
 * POST: pays the total the page showed with the test provider's card, then back to the ad's page with a toast. A
 * changed price, a refused card or an ad that can no longer be sponsored is drawn on this page (4xx), nothing charged.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const business = await requireBusiness(request)
  let eventID: number
  try {
    // Whose ad it is first: another business learns nothing from how its post would have been read.
    eventID = (await requireOwnEvent(business.businessID, eventIdOf(params.id))).eventID
  } catch (error) {
    throw errorResponse(error, { request })
  }
  const form = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const submission = parseFormSubmission(form, sponsorLiveFormSchema)
  const hideFields = [...CARD_SECRETS, ...fieldsTooLongToEcho(form, ECHO_MAX)]
  if (submission.status !== 'success') return formRefusal(submission.reply({ hideFields }))
  const posted = submission.value
  try {
    await paySponsorshipWithTestCard({
      businessID: business.businessID,
      eventID,
      claimedCents: Math.round(posted.totalAmount * 100),
      card: { number: posted.cardNumber, expiry: posted.expiry, cvc: posted.cvc },
      mail: mailContext(request),
      requestId: requestIdOf(request),
    })
    return redirectWithToast(`/dashboard/events/${eventID}`, SPONSOR_LIVE_TEXT.done)
  } catch (error) {
    const atForm =
      error instanceof AppError && ['invalid', 'conflict', 'payment_refused'].includes(error.kind)
    if (!atForm) throw errorResponse(error, { request })
    return errorResponse(error, {
      request,
      reply: (refusal) => ({ result: submission.reply({ formErrors: [refusal.message], hideFields }) }),
    })
  }
}

export default function SponsorLiveAd() {
  const page = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const adPath = `/dashboard/events/${page.eventID}`
  const refused = answer?.result?.error?.[''] ?? []
  return (
    <main className="mx-auto max-w-xl px-4 py-8">
      <h1 className="text-2xl font-bold break-words text-ink">Make “{page.eventTitle}” sponsored</h1>
      <p className="mt-3 text-slate-700">
        A sponsored ad also takes turns in the “Sponsored” slots at the top of the calendar and first in the
        Featured strip, on the pages whose filters it matches, on each of its display days left:
      </p>
      <p className="mt-2 font-medium text-ink">{formatDatesLine(page.days, '')}</p>
      <p className="mt-3 text-slate-700">
        {page.days.length} day{page.days.length === 1 ? '' : 's'} at ${page.perDay} a day:{' '}
        <strong className="text-ink">${page.total}</strong>. It is charged once, now; no review is needed. The
        ad stays as it is.
      </p>
      {refused.length > 0 ? (
        <p role="alert" className="mt-4 rounded-md bg-red-50 px-3 py-2 text-red-800">
          {refused.join(' ')}
        </p>
      ) : null}
      <section aria-label="Payment" className="mt-6">
        {page.mode === 'test' ? (
          <TestCardForm
            total={page.total}
            eventID={page.eventID}
            reply={answer?.result}
            action={`${adPath}/sponsor`}
            cancelHref={adPath}
          />
        ) : (
          <StripeFormSlot>
            <StripeSponsorPayment
              publishableKey={page.publishableKey}
              pagePath={`${adPath}/sponsor`}
              setUp={{ businessID: page.businessID, eventID: page.eventID, totalCents: page.totalCents }}
              total={page.total}
            />
          </StripeFormSlot>
        )}
      </section>
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
