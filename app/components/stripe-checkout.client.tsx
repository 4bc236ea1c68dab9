/**
 * Stripe Elements for /checkout: the page's one heavy island, loaded lazily and only in the browser. It sets the
 * payment up through /api/create-event-payment, confirms in the browser (a redirect only when the card needs one),
 * then has the server check the result with Stripe through /api/complete-event-payment.
 */
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js'
import { loadStripe, type Stripe } from '@stripe/stripe-js'
import { useNavigate } from '@remix-run/react'
import { useEffect, useState, type FormEvent } from 'react'
import { DELAY_AFTER_PAYMENT_MS } from '#app/constants.ts'
import { EVENT_CREATION_FAILED_CODE, PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import {
  CancelPaymentButton,
  PayButton,
  PaymentCard,
  PaymentSucceeded,
  SettingUpPayment,
  SetupFailed,
  type CheckoutSummary,
} from './checkout-ui.tsx'
import { toast } from './toaster.tsx'

export interface StripeCheckoutProps {
  publishableKey: string
  /** The ad's payment data (eventPaymentData), sent as the set-up and completion calls' body. */
  paymentData: {
    businessID: number
    selectedDates: string[]
    eventData: unknown
    totalAmount: number
    eventID: number
  }
  summary: CheckoutSummary
}

type SetupState =
  | { status: 'loading' }
  | { status: 'ready'; clientSecret: string; stripe: Stripe }
  | { status: 'failed'; message: string }

const CARD_FORM_UNAVAILABLE = 'Unable to load the card form. Please check your connection and try again.'

async function readMessage(response: Response) {
  const body = (await response.json().catch(() => null)) as { message?: unknown } | null
  return typeof body?.message === 'string' && body.message ? body.message : null
}

let stripePromise: { key: string; promise: Promise<Stripe | null> } | undefined

function loadStripeOnce(key: string) {
  if (stripePromise?.key !== key) {
    const promise = loadStripe(key).catch(() => {
      // Forget the failure, so a later visit tries again.
      stripePromise = undefined
      return null
    })
    stripePromise = { key, promise }
  }
  return stripePromise.promise
}

async function setUpPayment(publishableKey: string, body: string, signal: AbortSignal): Promise<SetupState> {
  const failed = (message: string | null): SetupState => ({
    status: 'failed',
    message: message ?? PAYMENT_TEXT.setupFailed.description,
  })
  let response: Response
  try {
    response = await fetch('/api/create-event-payment', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body,
      signal,
    })
  } catch {
    return failed(null)
  }
  if (!response.ok) return failed(await readMessage(response))
  const result = (await response.json().catch(() => null)) as { clientSecret?: unknown } | null
  if (typeof result?.clientSecret !== 'string' || !result.clientSecret) return failed(null)
  const stripe = await loadStripeOnce(publishableKey)
  if (!stripe) return failed(CARD_FORM_UNAVAILABLE)
  return { status: 'ready', clientSecret: result.clientSecret, stripe }
}

export default function StripeCheckout({ publishableKey, paymentData, summary }: StripeCheckoutProps) {
  const [setup, setSetup] = useState<SetupState>({ status: 'loading' })
  // A string, so a revalidated copy of the same data does not set the payment up again.
  const requestBody = JSON.stringify(paymentData)

  useEffect(() => {
    const controller = new AbortController()
    void setUpPayment(publishableKey, requestBody, controller.signal).then((state) => {
      if (controller.signal.aborted) return
      if (state.status === 'failed') {
        toast({ title: PAYMENT_TEXT.setupFailed.title, description: state.message, variant: 'destructive' })
      }
      setSetup(state)
    })
    return () => controller.abort()
  }, [publishableKey, requestBody])

  if (setup.status === 'loading') return <SettingUpPayment />
  if (setup.status === 'failed') return <SetupFailed message={setup.message} />
  return (
    <PaymentCard summary={summary}>
      <Elements stripe={setup.stripe} options={{ clientSecret: setup.clientSecret }}>
        <PaymentForm paymentData={paymentData} total={summary.total} />
      </Elements>
    </PaymentCard>
  )
}

function PaymentForm({
  paymentData,
  total,
}: {
  paymentData: StripeCheckoutProps['paymentData']
  total: string
}) {
  const stripe = useStripe()
  const elements = useElements()
  const navigate = useNavigate()
  const [ready, setReady] = useState(false)
  const [busy, setBusy] = useState(false)
  const [paid, setPaid] = useState(false)

  useEffect(() => {
    if (!paid) return
    const timer = setTimeout(() => navigate('/'), DELAY_AFTER_PAYMENT_MS)
    return () => clearTimeout(timer)
  }, [paid, navigate])

  async function complete(paymentIntentId: string) {
    const response = await fetch('/api/complete-event-payment', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        paymentIntentId,
        businessID: paymentData.businessID,
        selectedDates: paymentData.selectedDates,
        eventData: paymentData.eventData,
      }),
    })
    const body = (await response.json().catch(() => null)) as {
      success?: boolean
      message?: string
      code?: string
    } | null
    if (response.ok && body?.success) {
      toast({ title: PAYMENT_TEXT.success.title, description: PAYMENT_TEXT.success.description })
      setPaid(true)
      return
    }
    if (body?.code === EVENT_CREATION_FAILED_CODE) {
      toast({
        title: PAYMENT_TEXT.eventCreationFailed.title,
        description: PAYMENT_TEXT.eventCreationFailed.description,
        variant: 'destructive',
      })
      return
    }
    toast({
      title: PAYMENT_TEXT.failed.title,
      description: body?.message || PAYMENT_TEXT.failed.description,
      variant: 'destructive',
    })
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (!stripe || !elements || busy) return
    setBusy(true)
    try {
      const { error, paymentIntent } = await stripe.confirmPayment({
        elements,
        redirect: 'if_required',
        confirmParams: { return_url: new URL('/checkout', window.location.origin).toString() },
      })
      if (error) {
        const isCardProblem = error.type === 'card_error' || error.type === 'validation_error'
        toast({
          title: isCardProblem ? PAYMENT_TEXT.failed.title : PAYMENT_TEXT.error.title,
          description:
            error.message ||
            (isCardProblem ? PAYMENT_TEXT.failed.description : PAYMENT_TEXT.error.description),
          variant: 'destructive',
        })
        return
      }
      if (paymentIntent) await complete(paymentIntent.id)
    } catch (error) {
      toast({
        title: PAYMENT_TEXT.error.title,
        description: error instanceof Error && error.message ? error.message : PAYMENT_TEXT.error.description,
        variant: 'destructive',
      })
    } finally {
      setBusy(false)
    }
  }

  if (paid) return <PaymentSucceeded />
  return (
    <>
      <form onSubmit={onSubmit} className="space-y-4">
        {ready ? null : <SettingUpPayment />}
        <PaymentElement onReady={() => setReady(true)} />
        <PayButton total={total} busy={busy} disabled={!stripe || !elements || !ready} />
      </form>
      <CancelPaymentButton disabled={busy} />
    </>
  )
}
