import { Form, useNavigation } from '@remix-run/react'
import { SUBMIT_FREE_LABEL } from '#app/models/payments/free-listing.ts'
import {
  normalizePromoCode,
  PROMO_CODE_MAX_LENGTH,
  PROMO_CODE_PATTERN,
  PROMO_TEXT,
} from '#app/models/payments/promo-code.ts'
import { inputClass, primaryButtonClass, secondaryButtonClass, Spinner, useHydrated } from './account-ui.tsx'
import { useCheckedForm, type FormReply } from './checked-form.tsx'
import { InputField } from './form-controls.tsx'

/** A promo code applied to the ad at checkout, as the page shows it. */
export interface ShownPromo {
  code: string
  description: string
  listTotal: string
  discount: string
}

/** The list price and the discount, above the total of the checkout's summary. */
export function PromoLines({ promo }: { promo: ShownPromo }) {
  return (
    <>
      <div className="flex items-baseline justify-between border-t border-slate-200 pt-3">
        <dt className="font-medium text-slate-500">List price</dt>
        <dd className="text-slate-900">${promo.listTotal}</dd>
      </div>
      <div className="flex items-baseline justify-between">
        <dt className="font-medium text-slate-500">
          Promo code {promo.code} ({promo.description})
        </dt>
        <dd className="text-slate-900">−${promo.discount}</dd>
      </div>
    </>
  )
}

const codeProblems = (values: Partial<Record<string, string>>): Record<string, string> => {
  const code = (values.code ?? '').trim()
  if (code === '') return { code: PROMO_TEXT.required }
  return PROMO_CODE_PATTERN.test(normalizePromoCode(code)) ? {} : { code: PROMO_TEXT.format }
}

/**
 * "Promo code" at checkout: a plain POST (works without JavaScript) that applies the code typed, or removes the one
 * applied; the page then shows the new total. `notice` says why a code applied before was taken off.
 */
export function PromoCodeForm({
  promo,
  notice,
  reply,
}: {
  promo: ShownPromo | null
  notice: string | null
  reply?: FormReply | null
}) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle' && String(navigation.formData?.get('intent')).endsWith('-code')
  const { formProps, field } = useCheckedForm({
    id: 'promo-code',
    reply,
    check: codeProblems,
    trimmed: ['code'],
  })
  return (
    <section
      aria-labelledby="promo-code-title"
      className="mx-auto mb-6 max-w-lg rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="promo-code-title" className="text-lg font-semibold text-ink">
        Promo code
      </h2>
      {notice ? (
        <p
          role="status"
          className="mt-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          {notice}
        </p>
      ) : null}
      {promo ? (
        <Form method="post" action="/checkout" className="mt-3 flex flex-wrap items-center gap-3">
          <p className="text-slate-800">
            <strong>{promo.code}</strong> applied: {promo.description}.
          </p>
          <button
            type="submit"
            name="intent"
            value="remove-code"
            disabled={busy}
            className={secondaryButtonClass}
          >
            Remove
          </button>
        </Form>
      ) : (
        <Form method="post" action="/checkout" {...formProps} className="mt-3 flex flex-wrap items-end gap-3">
          <input type="hidden" name="intent" value="apply-code" />
          <InputField
            field={field('code')}
            label="Code"
            fieldClassName="grow"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={PROMO_CODE_MAX_LENGTH}
            className={`${inputClass} mt-1`}
          />
          <button type="submit" disabled={busy} className={secondaryButtonClass}>
            {busy ? <Spinner /> : null} Apply
          </button>
        </Form>
      )}
    </section>
  )
}

/**
 * "Confirm" of an ad free with its promo code, or "Submit for review" of a free listing: no card, a plain POST
 * claiming the $0 the page shows.
 */
export function ConfirmFreeForm({
  eventID,
  total,
  freeListing = false,
}: {
  eventID: number
  total: string
  freeListing?: boolean
}) {
  const hydrated = useHydrated()
  const navigation = useNavigation()
  const confirming = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'confirm-free'
  return (
    <Form method="post" action="/checkout" className="space-y-4">
      <input type="hidden" name="intent" value="confirm-free" />
      <input type="hidden" name="eventID" value={eventID} />
      <input type="hidden" name="totalAmount" value={total} />
      {hydrated ? <input type="hidden" name="js" value="1" /> : null}
      <p className="text-sm text-slate-700">
        {freeListing
          ? 'Nothing to pay: this listing is free. No card is needed.'
          : 'Nothing to pay: your promo code covers the whole price. No card is needed.'}
      </p>
      <button type="submit" disabled={confirming} className={`${primaryButtonClass} w-full`}>
        {confirming ? (
          <>
            <Spinner /> Confirming...
          </>
        ) : freeListing ? (
          SUBMIT_FREE_LABEL
        ) : (
          'Confirm'
        )}
      </button>
    </Form>
  )
}
