import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData, useNavigate, type ShouldRevalidateFunction } from '@remix-run/react'
import { lazy, Suspense, useEffect } from 'react'
import { useHydrated } from '#app/components/account-ui.tsx'
import {
  PaymentCard,
  PaymentSucceeded,
  SettingUpPayment,
  SetupFailed,
  TestCardForm,
} from '#app/components/checkout-ui.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { toast } from '#app/components/toaster.tsx'
import { DELAY_AFTER_PAYMENT_MS, PRODUCT_NAME } from '#app/constants.ts'
import { requireBusiness } from '#app/services/accounts/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { checkoutAction, checkoutPage } from '#app/services/payments/checkout.server.ts'
import { PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import { GoLiveNotice } from '#app/components/go-live-notice.tsx'

// Stripe Elements only ever loads on this page, and only in the browser.
const StripeCheckout = lazy(() => import('#app/components/stripe-checkout.client.tsx'))

export const meta: MetaFunction = () => [{ title: `Checkout · ${PRODUCT_NAME}` }]

export async function loader({ request }: LoaderFunctionArgs) {
  return checkoutPage(request, await requireBusiness(request))
}

export async function action({ request }: ActionFunctionArgs) {
  try {
    return await checkoutAction(request, await requireBusiness(request))
  } catch (error) {
    // A body the reader refuses (413/415/400), or a failure: the page's error boundary shows it.
    throw errorResponse(error, { request })
  }
}

/** After a payment the stored data is gone; reloading this page would only say "No Event Data". */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) => {
  if ((actionResult as { paid?: boolean } | undefined)?.paid) return false
  return defaultShouldRevalidate
}

export default function CheckoutPage() {
  const { mode, summary, setupError, stripe, goesLiveAtPayment } = useLoaderData<typeof loader>()
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
        {paid ? <PaymentSucceeded /> : <TestCardForm total={summary.total} eventID={summary.eventID} />}
      </PaymentCard>
    )
  }

  return (
    <main className="px-4 py-10">
      {paid ? null : <GoLiveNotice atOnce={goesLiveAtPayment} />}
      {content}
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
