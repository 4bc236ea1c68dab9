/**
 * The checkout flow: the ad to pay for waits in the server session (payment-data.server.ts), the page sets up the
 * payment with the provider, the built-in test provider's card form pays it here, and a payment completed in the
 * browser (Stripe) or on the provider's page (3-D Secure) ends checkout.
 */
import { data, redirect, type Session } from '@remix-run/node'
import { getOwnedEvent } from '#app/models/ads/event.server.ts'
import type { MailContext } from '#app/models/mail/notifications.server.ts'
import type { Event } from '#db/schema.ts'
import { AppError } from '#app/utils/app-error.ts'
import { EVENT_CREATION_FAILED_CODE, PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import { centsToDollars, formatDollars } from '#app/utils/pricing.ts'
import type { BusinessSessionCopy } from '../accounts/auth.server.ts'
import { getEnv } from '../platform/env.server.ts'
import { combineHeaders, errorResponse } from '../http/http.server.ts'
import {
  clearPaymentData,
  paymentDataFromEvent,
  readPaymentData,
  setEventPaymentData,
  type EventPaymentData,
} from './payment-data.server.ts'
import { completeEventPayment, payWithTestCard } from './payment-completion.server.ts'
import { amountDueCents, paymentsMode } from './payment-rules.server.ts'
import { setUpEventPayment } from './payment-setup.server.ts'
import { readFormData } from '../http/request-body.server.ts'
import { mailContext } from '../http/site-url.server.ts'
import { getSession, sessionStorage } from '../accounts/session.server.ts'
import { redirectWithToast } from '../http/toast.server.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import { trustOf } from '../moderation/trust.server.ts'

/* The checkout page ---------------------------------------------------------------------------------------------- */

async function cookieHeaders(session: Session) {
  return { 'Set-Cookie': await sessionStorage.commitSession(session) }
}

/** Leaves checkout for `to` with a toast, the payment data cleared. */
async function leaveCheckout(session: Session, to: string, toast: Parameters<typeof redirectWithToast>[1]) {
  clearPaymentData(session)
  return redirectWithToast(to, toast, { headers: await cookieHeaders(session) })
}

const alreadyPaid = (session: Session) => leaveCheckout(session, '/dashboard', PAYMENT_TEXT.alreadyPaid)
const paymentSucceeded = (session: Session) => leaveCheckout(session, '/', PAYMENT_TEXT.success)

/** The session's payment data, or the way out of checkout when there is none (or it is unreadable). */
async function storedPaymentData(session: Session): Promise<EventPaymentData | Response> {
  const stored = readPaymentData(session)
  if (stored.status === 'none') return leaveCheckout(session, '/', PAYMENT_TEXT.noEventData)
  if (stored.status === 'invalid') {
    return leaveCheckout(session, '/', { ...PAYMENT_TEXT.invalidEventData, variant: 'destructive' })
  }
  return stored.data
}

/**
 * A payment that did not go through: paid but the ad could not be recorded (data cleared, support message), or not
 * paid (the payment data stays in the session, so the advertiser can try again).
 */
function unpaidRedirect(session: Session, result: { code?: string; message?: string }) {
  if (result.code === EVENT_CREATION_FAILED_CODE) {
    return leaveCheckout(session, '/', { ...PAYMENT_TEXT.eventCreationFailed, variant: 'destructive' })
  }
  return redirectWithToast('/checkout', {
    title: PAYMENT_TEXT.failed.title,
    description: result.message || PAYMENT_TEXT.failed.description,
    variant: 'destructive',
  })
}

/** Back from a card check on the provider's page (3-D Secure): the provider says whether it was paid. */
async function finishRedirectedPayment(
  business: BusinessSessionCopy,
  session: Session,
  paymentIntentId: string,
  mail: MailContext,
) {
  try {
    const result = await completeEventPayment({ business, paymentIntentId, mail })
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

const isPaid = (event: Event) => event.paymentStatus === 'paid' || event.paymentStatus === 'refunded'

/**
 * The checkout page: the ad of the session's payment data (or of `?eventID=`, "Confirm Ad" on /event/{id}), its
 * summary and how to pay for it; back from the provider's page (`?payment_intent=`), the payment is completed.
 */
export async function checkoutPage(request: Request, business: BusinessSessionCopy) {
  const session = await getSession(request)
  const url = new URL(request.url)

  const returnedIntent = url.searchParams.get('payment_intent')
  if (returnedIntent) return finishRedirectedPayment(business, session, returnedIntent, mailContext(request))

  let headers: HeadersInit | undefined
  if (url.searchParams.has('eventID')) {
    const eventID = parseId(url.searchParams.get('eventID'))
    const owned = eventID ? await getOwnedEvent(eventID, business.businessID) : null
    if (!owned) throw errorResponse(new AppError('Event not found', 'not_found'))
    if (isPaid(owned)) {
      return redirectWithToast(`/event/${owned.eventID}?viewMode=true`, PAYMENT_TEXT.alreadyPaid)
    }
    setEventPaymentData(session, paymentDataFromEvent(owned))
    headers = await cookieHeaders(session)
  }

  const stored = await storedPaymentData(session)
  if (stored instanceof Response) return stored
  const event =
    stored.businessID === business.businessID
      ? await getOwnedEvent(stored.eventID, business.businessID)
      : null
  if (!event) return leaveCheckout(session, '/', PAYMENT_TEXT.noEventData)
  if (isPaid(event)) return alreadyPaid(session)

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

  const summary = {
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
      goesLiveAtPayment: (await trustOf(business.businessID)).trusted,
      stripe:
        mode === 'stripe'
          ? {
              publishableKey: getEnv().STRIPE_PUBLISHABLE_KEY ?? '',
              // The body of the set-up and completion calls; dates and total are the event's own.
              paymentData: {
                ...stored,
                selectedDates: event.showAdOnDates,
                totalAmount: centsToDollars(totalCents),
              },
            }
          : null,
    },
    { headers },
  )
}

/**
 * A payment posted for an ad the session no longer holds: when the form's ad is the business's own and paid (another
 * tab or click paid it and cleared checkout), the payer is told so.
 */
async function paidMeanwhile(business: BusinessSessionCopy, session: Session, form: FormData) {
  const named = form.get('eventID')
  const eventID = typeof named === 'string' ? parseId(named) : null
  const owned = eventID ? await getOwnedEvent(eventID, business.businessID) : null
  return owned && isPaid(owned) ? alreadyPaid(session) : null
}

/** The checkout form: "cancel" leaves checkout, "pay" pays with the test provider's card form. */
export async function checkoutAction(request: Request, business: BusinessSessionCopy) {
  const session = await getSession(request)
  const form = await readFormData(request)
  const intent = form.get('intent')

  if (intent === 'cancel') {
    clearPaymentData(session)
    return redirect('/', { headers: await cookieHeaders(session) })
  }
  if (intent !== 'pay') return data({ message: 'Unknown action' }, { status: 400 })

  const stored = await storedPaymentData(session)
  if (stored instanceof Response) return (await paidMeanwhile(business, session, form)) ?? stored
  const text = (name: string) => {
    const value = form.get(name)
    return typeof value === 'string' ? value : ''
  }

  try {
    const result = await payWithTestCard({
      business,
      eventID: stored.eventID,
      card: { number: text('cardNumber'), expiry: text('expiry'), cvc: text('cvc') },
      mail: mailContext(request),
    })
    if (!result.success) return unpaidRedirect(session, result)
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
  } catch (error) {
    if (error instanceof AppError && error.code === 'already_paid') return alreadyPaid(session)
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

/**
 * POST /api/complete-event-payment (the browser's Stripe flow): the provider says whether the ad was paid; once it
 * is, the session's payment data for that ad is cleared, and `headers` carries the session.
 */
export async function completeBrowserPayment(
  request: Request,
  business: BusinessSessionCopy,
  paymentIntentId: string,
) {
  const result = await completeEventPayment({ business, paymentIntentId, mail: mailContext(request) })
  const headers = new Headers()
  if (result.success) {
    const session = await getSession(request)
    const stored = readPaymentData(session)
    if (stored.status === 'ok' && stored.data.eventID === result.eventID) {
      clearPaymentData(session)
      headers.set('Set-Cookie', await sessionStorage.commitSession(session))
    }
  }
  return { result, headers }
}
