import { Form, Link, useNavigation } from '@remix-run/react'
import { Suspense, type ReactNode } from 'react'
import { TEST_CARD_MAX_LENGTH, testCardProblems } from '#app/models/payments/checkout-rules.ts'
import { formatShortDate } from '#app/utils/format.ts'
import { PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import { inputClass, primaryButtonClass, secondaryButtonClass, Spinner, useHydrated } from './account-ui.tsx'
import { useCheckedForm, type FormReply } from './checked-form.tsx'
import { InputField } from './form-controls.tsx'
import { PromoLines, type ShownPromo } from './promo-code-ui.tsx'

export interface CheckoutSummary {
  eventID: number
  eventTitle: string
  dates: string[]
  /** Dollars with cents, e.g. "29.00". */
  total: string
  /** The promo code applied, with the list price and the discount. */
  promo?: ShownPromo | null
}

export function SettingUpPayment() {
  return (
    <div role="status" className="flex items-center justify-center gap-3 py-16 text-slate-700">
      <Spinner className="size-6 text-brand-600" />
      <span>{PAYMENT_TEXT.settingUp}</span>
    </div>
  )
}

export function SetupFailed({ message }: { message?: string | null }) {
  return (
    <section className="mx-auto max-w-lg rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
      <h1 className="text-2xl font-bold text-ink">{PAYMENT_TEXT.setupFailedHeading}</h1>
      {message ? <p className="mt-3 text-slate-600">{message}</p> : null}
      <Link to="/dashboard" className={`${primaryButtonClass} mt-6`}>
        {PAYMENT_TEXT.returnToEvents}
      </Link>
    </section>
  )
}

export function PaymentCard({ summary, children }: { summary: CheckoutSummary; children: ReactNode }) {
  return (
    <section
      aria-labelledby="payment-title"
      className="mx-auto max-w-lg rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
    >
      <h1 id="payment-title" className="text-2xl font-bold text-ink">
        Complete Your Payment
      </h1>
      <dl className="mt-4 space-y-3 rounded-lg bg-slate-50 p-4 text-sm">
        <div>
          <dt className="font-medium text-slate-500">Event</dt>
          <dd className="text-base font-semibold text-slate-900">{summary.eventTitle}</dd>
        </div>
        <div>
          <dt className="font-medium text-slate-500">
            Display dates ({summary.dates.length} {summary.dates.length === 1 ? 'day' : 'days'})
          </dt>
          <dd>
            <ul className="mt-1 flex flex-wrap gap-1.5">
              {summary.dates.map((date) => (
                <li key={date} className="rounded bg-white px-2 py-0.5 text-slate-800 ring-1 ring-slate-200">
                  <time dateTime={date}>{formatShortDate(date, { withYear: true })}</time>
                </li>
              ))}
            </ul>
          </dd>
        </div>
        {summary.promo ? <PromoLines promo={summary.promo} /> : null}
        <div className="flex items-baseline justify-between border-t border-slate-200 pt-3">
          <dt className="font-medium text-slate-500">Total</dt>
          <dd className="text-xl font-bold text-slate-900">${summary.total}</dd>
        </div>
      </dl>
      <div className="mt-6">{children}</div>
    </section>
  )
}

/** The checkout's "Make it sponsored" label: the surcharge for the ad's display days. */
export const sponsoredChoiceLabel = (surcharge: string) => `Make it sponsored (+$${surcharge})`

/**
 * "Make it sponsored": a plain form of its own (no JavaScript needed) whose answer is the page again, its total with
 * or without the surcharge.
 */
export function SponsorshipForm({ sponsorship }: { sponsorship: { sponsored: boolean; surcharge: string } }) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'sponsor'
  return (
    <Form
      method="post"
      action="/checkout"
      aria-labelledby="sponsorship-heading"
      className="mx-auto mb-6 max-w-lg rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="sponsorship-heading" className="text-lg font-semibold text-ink">
        Sponsored placement
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        A sponsored ad is also shown, labelled “Sponsored”, at the top of the calendar and first in the
        Featured strip for the searches it matches, sharing those places fairly with the other sponsored ads.
      </p>
      <input type="hidden" name="intent" value="sponsor" />
      <label className="mt-3 flex items-center gap-2 font-medium text-slate-900">
        <input
          type="checkbox"
          name="sponsored"
          value="on"
          defaultChecked={sponsorship.sponsored}
          className="size-4"
        />
        {sponsoredChoiceLabel(sponsorship.surcharge)}
      </label>
      <button type="submit" disabled={busy} className={`${secondaryButtonClass} mt-3`}>
        Update total
      </button>
    </Form>
  )
}

/** Clears the stored payment data and returns to /; a form of its own so it never trips the card fields' checks. */
export function CancelPaymentButton({ disabled = false }: { disabled?: boolean }) {
  return (
    <Form method="post" action="/checkout" className="mt-3">
      <button
        type="submit"
        name="intent"
        value="cancel"
        disabled={disabled}
        className={`${secondaryButtonClass} w-full`}
      >
        Cancel
      </button>
    </Form>
  )
}

export function PaymentSucceeded() {
  return (
    <div role="status" className="rounded-lg border border-green-200 bg-green-50 p-4 text-green-900">
      <p className="font-semibold">{PAYMENT_TEXT.success.title}</p>
      <p className="mt-1 text-sm">{PAYMENT_TEXT.success.description}</p>
      <p className="mt-2 flex items-center gap-2 text-sm">
        <Spinner /> Returning to the home page...
      </p>
    </div>
  )
}

const cardInputClass = `${inputClass} mt-1`

/**
 * The built-in test provider's card form: a plain POST, so it works without JavaScript. `reply` is the server's
 * answer to a form it could not read; whether the card pays is told in a toast.
 */
export function TestCardForm({
  total,
  eventID,
  reply,
  action = '/checkout',
  cancelHref,
}: {
  total: string
  eventID: number
  reply?: FormReply | null
  /** Where the card is posted: the checkout, or a live ad's sponsor page. */
  action?: string
  /** A page to go back to instead of the checkout's "Cancel" (which clears its payment data). */
  cancelHref?: string
}) {
  const hydrated = useHydrated()
  const navigation = useNavigation()
  const paying = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'pay'
  const { formProps, field } = useCheckedForm({
    id: 'test-card',
    reply,
    check: testCardProblems,
    browserChecksWithoutJs: true,
  })
  return (
    <>
      <p className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm font-semibold text-amber-900">
        {PAYMENT_TEXT.testModeLabel}
      </p>
      <Form method="post" action={action} autoComplete="off" {...formProps} className="space-y-4">
        <input type="hidden" name="intent" value="pay" />
        {/* Which ad: a second payment of it (another tab) is told it is paid once the first cleared checkout. */}
        <input type="hidden" name="eventID" value={eventID} />
        {/* The total shown: if the prices changed since, the payment is refused and the new total shown. */}
        <input type="hidden" name="totalAmount" value={total} />
        {/* With JavaScript the page shows the success itself and leaves after a pause; without, the server redirects. */}
        {hydrated ? <input type="hidden" name="js" value="1" /> : null}
        <InputField
          field={field('cardNumber')}
          label="Card number"
          inputMode="numeric"
          autoComplete="off"
          placeholder="4242 4242 4242 4242"
          required
          maxLength={TEST_CARD_MAX_LENGTH.cardNumber}
          className={cardInputClass}
        />
        <div className="grid grid-cols-2 gap-4">
          <InputField
            field={field('expiry')}
            label="Expiry (MM/YY)"
            autoComplete="off"
            placeholder="MM/YY"
            required
            maxLength={TEST_CARD_MAX_LENGTH.expiry}
            className={cardInputClass}
          />
          <InputField
            field={field('cvc')}
            label="CVC"
            inputMode="numeric"
            autoComplete="off"
            placeholder="123"
            required
            maxLength={TEST_CARD_MAX_LENGTH.cvc}
            className={cardInputClass}
          />
        </div>
        <p className="text-xs text-slate-500">
          Use 4242 4242 4242 4242 with any future expiry and any CVC. 4000 0000 0000 0002 is declined; 4000
          0000 0000 9995 has insufficient funds.
        </p>
        <PayButton total={total} busy={paying} />
      </Form>
      {cancelHref ? (
        <a href={cancelHref} className={`${secondaryButtonClass} mt-3 block w-full text-center`}>
          Cancel
        </a>
      ) : (
        <CancelPaymentButton disabled={paying} />
      )}
    </>
  )
}

/**
 * Where Stripe's card form (a lazy island) goes: it loads once the page runs its script; before that, and without
 * JavaScript, the page says card payments need it.
 */
export function StripeFormSlot({ children }: { children: ReactNode }) {
  const hydrated = useHydrated()
  if (hydrated) return <Suspense fallback={<SettingUpPayment />}>{children}</Suspense>
  return (
    <>
      <SettingUpPayment />
      <noscript>
        <p className="text-center text-slate-700">Card payments need JavaScript. Please turn it on to pay.</p>
      </noscript>
    </>
  )
}

/** "Pay $X", or a spinner while the payment is under way. */
export function PayButton({
  total,
  busy,
  disabled = false,
}: {
  total: string
  busy: boolean
  disabled?: boolean
}) {
  return (
    <button type="submit" disabled={disabled || busy} className={`${primaryButtonClass} w-full`}>
      {busy ? (
        <>
          <Spinner /> Processing...
        </>
      ) : (
        `Pay $${total}`
      )}
    </button>
  )
}
