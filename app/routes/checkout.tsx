import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, Session } from '@remix-run/node'
import { data, redirect } from '@remix-run/node'
import { useActionData, useLoaderData, useNavigate, type ShouldRevalidateFunction } from '@remix-run/react'
import { lazy, useEffect } from 'react'
import { ConfirmFreeForm, PromoCodeForm } from '#app/components/promo-code-ui.tsx'
import {
  CancelPaymentButton,
  PaymentCard,
  PaymentSucceeded,
  StripeFormSlot,
  SponsorshipForm,
  SetupFailed,
  TestCardForm,
} from '#app/components/checkout-ui.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { toast } from '#app/components/toaster.tsx'
import { DELAY_AFTER_PAYMENT_MS, PRODUCT_NAME } from '#app/constants.ts'
import { checkoutFormSchema } from '#app/models/payments/checkout-schema.ts'
import { requireBusiness } from '#app/services/http/auth.server.ts'
import {
  fieldsTooLongToEcho,
  formRefusal,
  parseFormSubmission,
} from '#app/services/http/form-submission.server.ts'
import { clientIp } from '#app/services/http/client-address.server.ts'
import { combineHeaders, errorResponse } from '#app/services/http/http.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { REQUEST_ID_HEADER } from '#app/services/http/request-log.server.ts'
import { getSession, sessionStorage } from '#app/services/http/session.server.ts'
import { mailContext } from '#app/services/http/site-url.server.ts'
import { createToastHeaders, redirectWithToast, type ToastInput } from '#app/services/http/toast.server.ts'
import { logError } from '#app/services/platform/logger.server.ts'
import {
  applyCodeAtCheckout,
  checkoutPage,
  chooseSponsorshipAtCheckout,
  confirmFreeAtCheckout,
  INVALID_EVENT_DATA_CODE,
  removeCodeAtCheckout,
  NO_EVENT_DATA_CODE,
  payAtCheckout,
} from '#app/services/payments/checkout.server.ts'
import { completeEventPayment } from '#app/services/payments/payment-completion.server.ts'
import {
  clearPaymentData,
  readPaymentData,
  setEventPaymentData,
} from '#app/services/payments/payment-data.server.ts'
import { ALREADY_PAID_CODE } from '#app/services/payments/payment-rules.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { EVENT_CREATION_FAILED_CODE, PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import { GoLiveNotice } from '#app/components/go-live-notice.tsx'

// Stripe Elements only ever loads on this page, and only in the browser.
const StripeCheckout = lazy(() => import('#app/components/stripe-checkout.client.tsx'))

export const meta: MetaFunction = () => [{ title: `Checkout · ${PRODUCT_NAME}` }]

/** The card numbers are never sent back with a refused form. */
const CARD_SECRETS = ['cardNumber', 'cvc']
/** A value this long (a code far over any code's length) is not sent back with the refusal either. */
const ECHO_MAX = 100

const requestIdOf = (request: Request) => request.headers.get(REQUEST_ID_HEADER) ?? undefined

async function cookieHeaders(session: Session) {
  return { 'Set-Cookie': await sessionStorage.commitSession(session) }
}

/** Leaves checkout for `to` with a toast, the payment data cleared. */
async function leaveCheckout(session: Session, to: string, toast: ToastInput) {
  clearPaymentData(session)
  return redirectWithToast(to, toast, { headers: await cookieHeaders(session) })
}

/** Back to the card form with a toast; the payment data stays, so the advertiser can try again. */
const backToCheckout = (toast: { title: string; description: string }) =>
  redirectWithToast('/checkout', { ...toast, variant: 'destructive' })

/** Where a refusal that ends checkout leads, by its code. */
const LEAVING: Record<string, { to: string; toast: ToastInput }> = {
  [NO_EVENT_DATA_CODE]: { to: '/', toast: PAYMENT_TEXT.noEventData },
  [INVALID_EVENT_DATA_CODE]: { to: '/', toast: { ...PAYMENT_TEXT.invalidEventData, variant: 'destructive' } },
  [ALREADY_PAID_CODE]: { to: '/dashboard', toast: PAYMENT_TEXT.alreadyPaid },
  // Paid, but the ad could not be recorded: support's message.
  [EVENT_CREATION_FAILED_CODE]: {
    to: '/',
    toast: { ...PAYMENT_TEXT.eventCreationFailed, variant: 'destructive' },
  },
}

/**
 * The answer to a refusal that ends checkout, or to a payment the provider did not take (back to the form); null
 * for anything else.
 */
function checkoutRefusal(error: unknown, session: Session) {
  if (!(error instanceof AppError)) return null
  const leaving = error.code ? LEAVING[error.code] : undefined
  if (leaving) return leaveCheckout(session, leaving.to, leaving.toast)
  if (error.kind !== 'payment_refused') return null
  return backToCheckout({
    title: PAYMENT_TEXT.failed.title,
    description: error.message || PAYMENT_TEXT.failed.description,
  })
}

/** Back from a card check on the provider's page (3-D Secure): the provider says whether it was paid. */
async function finishRedirectedPayment(
  request: Request,
  businessID: number,
  session: Session,
  paymentIntentId: string,
) {
  const requestId = requestIdOf(request)
  try {
    await completeEventPayment({ businessID, paymentIntentId, mail: mailContext(request), requestId })
    return leaveCheckout(session, '/', PAYMENT_TEXT.success)
  } catch (error) {
    const refusal = checkoutRefusal(error, session)
    if (refusal) return refusal
    if (!(error instanceof AppError))
      logError(error, { requestId, msg: 'Completing a redirected payment failed' })
    return backToCheckout({
      title: PAYMENT_TEXT.error.title,
      description: error instanceof AppError ? error.message : PAYMENT_TEXT.error.description,
    })
  }
}

/**
 * The checkout page: the ad of the session's payment data (or of `?eventID=`, "Confirm Ad" on /event/{id}), its
 * summary and how to pay for it; back from the provider's page (`?payment_intent=`), the payment is completed.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const business = await requireBusiness(request)
  const session = await getSession(request)
  const url = new URL(request.url)
  const returnedIntent = url.searchParams.get('payment_intent')
  if (returnedIntent) return finishRedirectedPayment(request, business.businessID, session, returnedIntent)
  try {
    const shown = await checkoutPage({
      businessID: business.businessID,
      stored: readPaymentData(session),
      confirmEventID: url.searchParams.get('eventID'),
      requestId: requestIdOf(request),
    })
    if (shown.kind === 'paid_ad') {
      return redirectWithToast(`/event/${shown.eventID}?viewMode=true`, PAYMENT_TEXT.alreadyPaid)
    }
    if (!shown.confirmed) return data(shown.page)
    setEventPaymentData(session, shown.confirmed)
    return data(shown.page, { headers: await cookieHeaders(session) })
  } catch (error) {
    const refusal = checkoutRefusal(error, session)
    if (refusal) return refusal
    throw errorResponse(error, { request })
  }
}

/** The checkout forms: "Cancel" leaves checkout, "Pay" pays with the test provider's card form. */
export async function action({ request }: ActionFunctionArgs) {
  const business = await requireBusiness(request)
  const form = await readFormData(request).catch((error: unknown) => {
    // A body the reader refuses (413/415/400): the page's error boundary shows it.
    throw errorResponse(error, { request })
  })
  const submission = parseFormSubmission(form, checkoutFormSchema)
  if (submission.status !== 'success') {
    return formRefusal(
      submission.reply({ hideFields: [...CARD_SECRETS, ...fieldsTooLongToEcho(form, ECHO_MAX)] }),
    )
  }
  const posted = submission.value
  const session = await getSession(request)
  if (posted.intent === 'cancel') {
    clearPaymentData(session)
    return redirect('/', { headers: await cookieHeaders(session) })
  }
  if (posted.intent === 'apply-code' || posted.intent === 'remove-code') {
    const ad = { businessID: business.businessID, stored: readPaymentData(session) }
    try {
      const done =
        posted.intent === 'apply-code'
          ? await applyCodeAtCheckout({ ...ad, code: posted.code })
          : await removeCodeAtCheckout(ad)
      return redirectWithToast('/checkout', done)
    } catch (error) {
      const refusal = checkoutRefusal(error, session)
      if (refusal) return refusal
      return errorResponse(error, {
        request,
        reply: (refused) => ({ result: submission.reply({ fieldErrors: { code: [refused.message] } }) }),
      })
    }
  }

  if (posted.intent === 'sponsor') return chooseSponsorship(request, business.businessID, session, posted)

  const requestId = requestIdOf(request)
  try {
    if (posted.intent === 'confirm-free') {
      await confirmFreeAtCheckout({
        businessID: business.businessID,
        stored: readPaymentData(session),
        postedEventID: posted.eventID,
        claimedTotalDollars: posted.totalAmount,
        mail: mailContext(request),
        ip: clientIp(request),
      })
    } else
      await payAtCheckout({
        businessID: business.businessID,
        stored: readPaymentData(session),
        postedEventID: posted.eventID,
        claimedTotalDollars: posted.totalAmount,
        card: { number: posted.cardNumber, expiry: posted.expiry, cvc: posted.cvc },
        mail: mailContext(request),
        requestId,
      })
  } catch (error) {
    const refusal = checkoutRefusal(error, session)
    if (refusal) return refusal
    if (error instanceof AppError) {
      return backToCheckout({
        title: PAYMENT_TEXT.setupFailed.title,
        description: error.message || PAYMENT_TEXT.setupFailed.description,
      })
    }
    logError(error, { requestId, msg: 'Paying with the test provider failed' })
    return backToCheckout(PAYMENT_TEXT.error)
  }
  // With JavaScript the page shows the success itself and leaves after a pause; without, the server redirects.
  if (!posted.js) return leaveCheckout(session, '/', PAYMENT_TEXT.success)
  clearPaymentData(session)
  return data(
    { paid: true as const },
    {
      headers: combineHeaders(await cookieHeaders(session), await createToastHeaders(PAYMENT_TEXT.success)),
    },
  )
}

/** "Make it sponsored" ticked or not: back to the page, which shows the new total. */
async function chooseSponsorship(
  request: Request,
  businessID: number,
  session: Session,
  posted: { sponsored?: 'on' },
) {
  try {
    await chooseSponsorshipAtCheckout({
      businessID,
      stored: readPaymentData(session),
      sponsored: posted.sponsored === 'on',
    })
  } catch (error) {
    const refusal = checkoutRefusal(error, session)
    if (refusal) return refusal
    if (error instanceof AppError)
      return backToCheckout({ title: SPONSORSHIP_REFUSED_TITLE, description: error.message })
    throw errorResponse(error, { request })
  }
  return redirect('/checkout')
}

const SPONSORSHIP_REFUSED_TITLE = 'Sponsorship not changed'

/** After a payment the stored data is gone; reloading this page would only say "No Event Data". */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) => {
  if ((actionResult as { paid?: boolean } | undefined)?.paid) return false
  return defaultShouldRevalidate
}

export default function CheckoutPage() {
  const {
    mode,
    summary,
    setupError,
    stripe,
    goesLiveAtPayment,
    sponsorship,
    promoNotice,
    free,
    freeListing,
  } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const paid = Boolean(actionData && 'paid' in actionData && actionData.paid)
  const reply = actionData && 'result' in actionData ? actionData.result : null
  const codeReply = reply?.initialValue?.intent === 'apply-code' ? reply : null
  const navigate = useNavigate()

  useEffect(() => {
    if (setupError)
      toast({ title: PAYMENT_TEXT.setupFailed.title, description: setupError, variant: 'destructive' })
  }, [setupError])

  useEffect(() => {
    if (!paid) return
    const timer = setTimeout(() => navigate('/'), DELAY_AFTER_PAYMENT_MS)
    return () => clearTimeout(timer)
  }, [paid, navigate])

  let content
  if (mode === 'unavailable') {
    content = <SetupFailed message={PAYMENT_TEXT.unavailable} />
  } else if (setupError) {
    content = <SetupFailed message={setupError} />
  } else if (free || paid) {
    content = (
      <PaymentCard summary={summary}>
        {paid ? (
          <PaymentSucceeded />
        ) : (
          <ConfirmFreeForm eventID={summary.eventID} total={summary.total} freeListing={freeListing} />
        )}
        {paid ? null : <CancelPaymentButton />}
      </PaymentCard>
    )
  } else if (mode === 'stripe' && stripe) {
    content = (
      <StripeFormSlot>
        <StripeCheckout
          publishableKey={stripe.publishableKey}
          paymentData={stripe.paymentData}
          summary={summary}
        />
      </StripeFormSlot>
    )
  } else {
    content = (
      <PaymentCard summary={summary}>
        {paid ? (
          <PaymentSucceeded />
        ) : (
          <TestCardForm total={summary.total} eventID={summary.eventID} reply={reply} />
        )}
      </PaymentCard>
    )
  }

  return (
    <main className="px-4 py-10">
      {paid ? null : <GoLiveNotice atOnce={goesLiveAtPayment} />}
      {paid || !sponsorship || mode === 'unavailable' || setupError ? null : (
        <SponsorshipForm sponsorship={sponsorship} />
      )}
      {paid || mode === 'unavailable' ? null : (
        <PromoCodeForm promo={summary.promo} notice={promoNotice} reply={codeReply} />
      )}
      {content}
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
