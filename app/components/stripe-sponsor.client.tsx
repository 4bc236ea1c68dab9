/**
 * Stripe Elements for a live ad's sponsor page, loaded lazily and only in the browser. /api/sponsor-payment sets the
 * payment up for the total the page showed; the card is confirmed in the browser, then the page's loader has the
 * server check the result with Stripe (`?payment_intent=`, also where a card check on Stripe's page returns).
 */
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js'
import { loadStripe, type Stripe } from '@stripe/stripe-js'
import { useNavigate } from '@remix-run/react'
import { useEffect, useState, type FormEvent } from 'react'
import { PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import { PayButton, SettingUpPayment, SetupFailed } from './checkout-ui.tsx'

export interface StripeSponsorProps {
  publishableKey: string
  /** The sponsor page's path: its loader completes the payment. */
  pagePath: string
  /** What /api/sponsor-payment sets up: the ad and the total (cents) the page showed. */
  setUp: { businessID: number; eventID: number; totalCents: number }
  /** The total the page showed, in dollars ("15.00"). */
  total: string
}

type SetupState =
  | { status: 'loading' }
  | { status: 'ready'; clientSecret: string; stripe: Stripe }
  | { status: 'failed'; message: string }

/** Sets the payment up through /api/sponsor-payment: the form's client secret, or why not. */
async function setUpPayment(publishableKey: string, requestBody: string, signal: AbortSignal) {
  const failed = (message?: string | null): SetupState => ({
    status: 'failed',
    message: message || PAYMENT_TEXT.setupFailed.description,
  })
  try {
    const response = await fetch('/api/sponsor-payment', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: requestBody,
      signal,
    })
    const answer = (await response.json().catch(() => null)) as {
      clientSecret?: unknown
      message?: unknown
    } | null
    if (!response.ok || typeof answer?.clientSecret !== 'string')
      return failed(typeof answer?.message === 'string' ? answer.message : null)
    const stripe = await loadStripe(publishableKey)
    return stripe ? { status: 'ready' as const, clientSecret: answer.clientSecret, stripe } : failed()
  } catch {
    return failed()
  }
}

export default function StripeSponsorPayment({ publishableKey, pagePath, setUp, total }: StripeSponsorProps) {
  const [setup, setSetup] = useState<SetupState>({ status: 'loading' })
  // A string, so a revalidated copy of the same data does not set the payment up again.
  const body = JSON.stringify(setUp)

  useEffect(() => {
    const controller = new AbortController()
    void setUpPayment(publishableKey, body, controller.signal).then((state) => {
      if (!controller.signal.aborted) setSetup(state)
    })
    return () => controller.abort()
  }, [publishableKey, body])

  if (setup.status === 'loading') return <SettingUpPayment />
  if (setup.status === 'failed') return <SetupFailed message={setup.message} />
  return (
    <Elements stripe={setup.stripe} options={{ clientSecret: setup.clientSecret }}>
      <PaymentForm pagePath={pagePath} total={total} />
    </Elements>
  )
}

function PaymentForm({ pagePath, total }: { pagePath: string; total: string }) {
  const stripe = useStripe()
  const elements = useElements()
  const navigate = useNavigate()
  const [ready, setReady] = useState(false)
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (!stripe || !elements || busy) return
    setBusy(true)
    setProblem(null)
    try {
      const { error, paymentIntent } = await stripe.confirmPayment({
        elements,
        redirect: 'if_required',
        confirmParams: { return_url: new URL(pagePath, window.location.origin).toString() },
      })
      if (error) setProblem(error.message || PAYMENT_TEXT.failed.description)
      else if (paymentIntent) navigate(`${pagePath}?payment_intent=${encodeURIComponent(paymentIntent.id)}`)
    } catch (error) {
      setProblem(error instanceof Error && error.message ? error.message : PAYMENT_TEXT.error.description)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4">
      <PaymentElement onReady={() => setReady(true)} />
      {problem ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {problem}
        </p>
      ) : null}
      <PayButton total={total} busy={busy} disabled={!ready} />
    </form>
  )
}
