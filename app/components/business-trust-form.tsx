/** A business's trust on an ad's admin page: whether its paid ads go live at payment, and why; grant or revoke it. */
import { Form } from '@remix-run/react'
import { TRUST_REASON_MAX } from '#app/models/moderation/trust-schema.ts'

export function BusinessTrustForm({
  businessID,
  trusted,
  because,
  refusal,
}: {
  businessID: number
  trusted: boolean
  because: string
  refusal?: string
}) {
  return (
    <section aria-labelledby="business-trust" className="mt-8">
      <h2 id="business-trust" className="text-xl font-semibold text-ink">
        The business&apos;s trust
      </h2>
      <p className="mt-2 text-slate-700" data-testid="business-trust">
        {trusted ? 'Trusted: its paid ads go live at payment' : 'Not trusted: its paid ads wait for a review'}{' '}
        ({because}).
      </p>
      <Form method="post" className="mt-3 grid gap-2">
        <input type="hidden" name="businessID" value={businessID} />
        <input type="hidden" name="intent" value={trusted ? 'revoke' : 'grant'} />
        <label htmlFor="trust-reason" className="text-sm font-medium text-slate-800">
          Reason (required)
        </label>
        <textarea
          id="trust-reason"
          name="reason"
          rows={2}
          required
          maxLength={TRUST_REASON_MAX}
          aria-describedby={refusal ? 'trust-refusal' : undefined}
          className="block w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
        />
        {refusal ? (
          <p id="trust-refusal" role="alert" className="text-sm text-red-700">
            {refusal}
          </p>
        ) : null}
        <div className="flex justify-end">
          <button
            type="submit"
            className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium hover:bg-slate-50"
          >
            {trusted ? 'Revoke trust' : 'Grant trust'}
          </button>
        </div>
      </Form>
    </section>
  )
}
