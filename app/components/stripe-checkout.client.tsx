/**
 * Stripe Elements for /checkout: the page's one heavy island, loaded lazily and only in the browser. The card form is
 * drawn for the total shown, with no payment behind it yet; Pay sets the payment up through
 * /api/create-event-payment (which holds a promo code's use for it), confirms in the browser (a redirect only when the
 * card needs one), then has the server check the result with Stripe through /api/complete-event-payment. A set-up
 * the server refuses (a changed price, a code that no longer applies) is told in a toast and the page is read again,
 * so it shows the total now.
 */
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js'
import { loadStripe, type Stripe } from '@stripe/stripe-js'
import { useNavigate, useRevalidator } from '@remix-run/react'
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

type LoadState =
  { status: 'loading' } | { status: 'ready'; stripe: Stripe } | { status: 'failed'; message: string }

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

/**
 * Pay pressed: the payment set up at the total shown (the server refuses another). The client secret, or the
 * server's reason for refusing.
 */
async function setUpPayment(body: string): Promise<{ clientSecret: string } | { refused: string }> {
  let response: Response
  try {
    response = await fetch('/api/create-event-payment', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body,
    })
  } catch {
    return { refused: PAYMENT_TEXT.setupFailed.description }
  }
  if (!response.ok) return { refused: (await readMessage(response)) ?? PAYMENT_TEXT.setupFailed.description }
  const result = (await response.json().catch(() => null)) as { clientSecret?: unknown } | null
  if (typeof result?.clientSecret !== 'string' || !result.clientSecret)
    return { refused: PAYMENT_TEXT.setupFailed.description }
  return { clientSecret: result.clientSecret }
}

/** The total shown ("29.00" dollars) in cents, as Stripe's card form takes it. */
const centsOf = (dollars: number) => Math.round(dollars * 100)

export default function StripeCheckout({ publishableKey, paymentData, summary }: StripeCheckoutProps) {
  const [load, setLoad] = useState<LoadState>({ status: 'loading' })

  useEffect(() => {
    let current = true
    void loadStripeOnce(publishableKey).then((stripe) => {
      if (!current) return
      if (!stripe) {
        toast({
          title: PAYMENT_TEXT.setupFailed.title,
          description: CARD_FORM_UNAVAILABLE,
          variant: 'destructive',
        })
        setLoad({ status: 'failed', message: CARD_FORM_UNAVAILABLE })
      } else setLoad({ status: 'ready', stripe })
    })
    return () => {
      current = false
    }
  }, [publishableKey])

  if (load.status === 'loading') return <SettingUpPayment />
  if (load.status === 'failed') return <SetupFailed message={load.message} />
  return (
    <PaymentCard summary={summary}>
      <Elements
        stripe={load.stripe}
        options={{ mode: 'payment', amount: centsOf(paymentData.totalAmount), currency: 'usd' }}
      >
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
  const revalidator = useRevalidator()
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
      // The card details checked in the browser first: nothing is set up (or held) for a form that is incomplete.
      const { error: incomplete } = await elements.submit()
      if (incomplete) return
      const setup = await setUpPayment(JSON.stringify(paymentData))
      if ('refused' in setup) {
        toast({ title: PAYMENT_TEXT.setupFailed.title, description: setup.refused, variant: 'destructive' })
        // The page read again shows the total now (a changed price, a code taken off the ad).
        revalidator.revalidate()
        return
      }
      const { error, paymentIntent } = await stripe.confirmPayment({
        elements,
        clientSecret: setup.clientSecret,
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
