import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data, redirect } from '@remix-run/node'
import { useActionData, useLoaderData, useNavigate, type ShouldRevalidateFunction } from '@remix-run/react'
import { lazy, Suspense, useEffect } from 'react'
import { useHydrated } from '#app/components/account-ui.tsx'
import {
  PaymentCard,
  PaymentSucceeded,
  SettingUpPayment,
  SetupFailed,
  TestCardForm,
  type CheckoutSummary,
} from '#app/components/checkout-ui.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { toast } from '#app/components/toaster.tsx'
import { DELAY_AFTER_PAYMENT_MS, PRODUCT_NAME } from '#app/constants.ts'
import { getOwnedEvent } from '#app/models/event.server.ts'
import { parseIdParam } from '#app/models/format.ts'
import { requireBusiness, type BusinessSessionCopy } from '#app/services/auth.server.ts'
import { getEnv } from '#app/services/env.server.ts'
import { setEventPaymentData } from '#app/services/event-draft.server.ts'
import { combineHeaders, invariantResponse } from '#app/services/http.server.ts'
import { EVENT_CREATION_FAILED_CODE, PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import {
  amountDueCents,
  clearPaymentData,
  completeEventPayment,
  payWithTestCard,
  paymentDataFromEvent,
  paymentsMode,
  readPaymentData,
  setUpEventPayment,
} from '#app/services/payments.server.ts'
import { formatDollars } from '#app/utils/pricing.ts'
import { getSession, sessionStorage } from '#app/services/session.server.ts'
import { redirectWithToast } from '#app/services/toast.server.ts'
import type { Session } from '@remix-run/node'
import { readFormData } from '#app/services/request-body.server.ts'
import { AppError } from '#app/utils/app-error.ts'

// Stripe Elements only ever loads on this page, and only in the browser.
const StripeCheckout = lazy(() => import('#app/components/stripe-checkout.client.tsx'))

export const meta: MetaFunction = () => [{ title: `Checkout · ${PRODUCT_NAME}` }]

async function cookieHeaders(session: Session) {
  return { 'Set-Cookie': await sessionStorage.commitSession(session) }
}

async function noEventData(session: Session) {
  clearPaymentData(session)
  return redirectWithToast('/', PAYMENT_TEXT.noEventData, { headers: await cookieHeaders(session) })
}

async function paymentSucceeded(session: Session) {
  clearPaymentData(session)
  return redirectWithToast('/', PAYMENT_TEXT.success, { headers: await cookieHeaders(session) })
}

/** Back from a card check on the provider's page (3-D Secure): the provider says whether it was paid. */
/**
 * A payment that did not go through: paid but the ad could not be recorded (data cleared, support message), or not
 * paid (the payment data stays in the session, so the advertiser can try again).
 */
async function unpaidRedirect(session: Session, result: { code?: string; message?: string }) {
  if (result.code === EVENT_CREATION_FAILED_CODE) {
    clearPaymentData(session)
    return redirectWithToast(
      '/',
      { ...PAYMENT_TEXT.eventCreationFailed, variant: 'destructive' },
      { headers: await cookieHeaders(session) },
    )
  }
  return redirectWithToast('/checkout', {
    title: PAYMENT_TEXT.failed.title,
    description: result.message || PAYMENT_TEXT.failed.description,
    variant: 'destructive',
  })
}

async function finishRedirectedPayment(
  business: BusinessSessionCopy,
  session: Session,
  paymentIntentId: string,
) {
  try {
    const result = await completeEventPayment({ business, paymentIntentId })
    if (result.success) return paymentSucceeded(session)
    return unpaidRedirect(session, result)
  } catch (error) {
    if (!(error instanceof AppError)) console.error('Completing a redirected payment failed', error)
    return redirectWithToast('/checkout', {
      title: PAYMENT_TEXT.error.title,
      description: error instanceof AppError ? error.message : PAYMENT_TEXT.error.description,
      variant: 'destructive',
    })
  }
}

export async function loader({ request }: LoaderFunctionArgs) {
  const business = await requireBusiness(request)
  const session = await getSession(request)
  const url = new URL(request.url)

  const returnedIntent = url.searchParams.get('payment_intent')
  if (returnedIntent) return finishRedirectedPayment(business, session, returnedIntent)

  // "Confirm Ad" on /event/{id} sends an already saved ad here: it becomes the session's payment data.
  let headers: HeadersInit | undefined
  if (url.searchParams.has('eventID')) {
    const eventID = parseIdParam(url.searchParams.get('eventID'))
    const owned = eventID ? await getOwnedEvent(eventID, business.businessID) : null
    invariantResponse(owned, 'Event not found')
    if (owned.paymentStatus === 'paid' || owned.paymentStatus === 'refunded') {
      return redirectWithToast(`/event/${owned.eventID}?viewMode=true`, PAYMENT_TEXT.alreadyPaid)
    }
    setEventPaymentData(session, paymentDataFromEvent(owned))
    headers = await cookieHeaders(session)
  }

  const stored = readPaymentData(session)
  if (stored.status === 'none') return noEventData(session)
  if (stored.status === 'invalid') {
    clearPaymentData(session)
    return redirectWithToast(
      '/',
      { ...PAYMENT_TEXT.invalidEventData, variant: 'destructive' },
      { headers: await cookieHeaders(session) },
    )
  }
  const event =
    stored.data.businessID === business.businessID
      ? await getOwnedEvent(stored.data.eventID, business.businessID)
      : null
  if (!event) return noEventData(session)
  if (event.paymentStatus === 'paid' || event.paymentStatus === 'refunded') {
    clearPaymentData(session)
    return redirectWithToast('/dashboard', PAYMENT_TEXT.alreadyPaid, {
      headers: await cookieHeaders(session),
    })
  }

  const mode = paymentsMode()
  let setupError: string | null = null
  let totalCents = 0
  try {
    totalCents = amountDueCents(event)
    if (mode === 'test') await setUpEventPayment({ business, eventID: event.eventID })
  } catch (error) {
    if (!(error instanceof AppError)) console.error('Setting up a payment failed', error)
    setupError = error instanceof AppError ? error.message : PAYMENT_TEXT.setupFailed.description
  }

  const summary: CheckoutSummary = {
    eventID: event.eventID,
    eventTitle: event.eventTitle,
    dates: event.showAdOnDates,
    total: formatDollars(totalCents),
  }
  return data(
    {
      mode,
      summary,
      setupError,
      stripe:
        mode === 'stripe'
          ? {
              publishableKey: getEnv().STRIPE_PUBLISHABLE_KEY ?? '',
              // The body of the set-up and completion calls; dates and total are the event's own.
              paymentData: {
                ...stored.data,
                selectedDates: event.showAdOnDates,
                totalAmount: totalCents / 100,
              },
            }
          : null,
    },
    { headers },
  )
}

export async function action({ request }: ActionFunctionArgs) {
  const business = await requireBusiness(request)
  const session = await getSession(request)
  const form = await readFormData(request)
  const intent = form.get('intent')

  if (intent === 'cancel') {
    clearPaymentData(session)
    return redirect('/', { headers: await cookieHeaders(session) })
  }
  if (intent !== 'pay') return data({ message: 'Unknown action' }, { status: 400 })

  const stored = readPaymentData(session)
  if (stored.status === 'none') return noEventData(session)
  if (stored.status === 'invalid') {
    clearPaymentData(session)
    return redirectWithToast(
      '/',
      { ...PAYMENT_TEXT.invalidEventData, variant: 'destructive' },
      { headers: await cookieHeaders(session) },
    )
  }
  const text = (name: string) => {
    const value = form.get(name)
    return typeof value === 'string' ? value : ''
  }

  try {
    const result = await payWithTestCard({
      business,
      eventID: stored.data.eventID,
      card: { number: text('cardNumber'), expiry: text('expiry'), cvc: text('cvc') },
    })
    if (result.success) {
      if (form.get('js') !== '1') return paymentSucceeded(session)
      clearPaymentData(session)
      return data(
        { paid: true as const },
        {
          headers: combineHeaders(
            await cookieHeaders(session),
            (await redirectWithToast('/', PAYMENT_TEXT.success)).headers,
          ),
        },
      )
    }
    return unpaidRedirect(session, result)
  } catch (error) {
    if (error instanceof AppError && error.code === 'already_paid') {
      clearPaymentData(session)
      return redirectWithToast('/dashboard', PAYMENT_TEXT.alreadyPaid, {
        headers: await cookieHeaders(session),
      })
    }
    if (error instanceof AppError) {
      return redirectWithToast('/checkout', {
        title: PAYMENT_TEXT.setupFailed.title,
        description: error.message || PAYMENT_TEXT.setupFailed.description,
        variant: 'destructive',
      })
    }
    console.error('Paying with the test provider failed', error)
    return redirectWithToast('/checkout', { ...PAYMENT_TEXT.error, variant: 'destructive' })
  }
}

/** After a payment the stored data is gone; reloading this page would only say "No Event Data". */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) => {
  if ((actionResult as { paid?: boolean } | undefined)?.paid) return false
  return defaultShouldRevalidate
}

export default function CheckoutPage() {
  const { mode, summary, setupError, stripe } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const paid = Boolean(actionData && 'paid' in actionData && actionData.paid)
  const hydrated = useHydrated()
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
  } else if (mode === 'stripe' && stripe) {
    content = hydrated ? (
      <Suspense fallback={<SettingUpPayment />}>
        <StripeCheckout
          publishableKey={stripe.publishableKey}
          paymentData={stripe.paymentData}
          summary={summary}
        />
      </Suspense>
    ) : (
      <>
        <SettingUpPayment />
        <noscript>
          <p className="text-center text-slate-700">
            Card payments need JavaScript. Please turn it on to pay.
          </p>
        </noscript>
      </>
    )
  } else {
    content = (
      <PaymentCard summary={summary}>
        {paid ? <PaymentSucceeded /> : <TestCardForm total={summary.total} />}
      </PaymentCard>
    )
  }

  return <main className="px-4 py-10">{content}</main>
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
