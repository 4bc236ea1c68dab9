/** A business's trust on an ad's admin page: whether its paid ads go live at payment, and why; grant or revoke it. */
import { Form } from '@remix-run/react'
import { TRUST_REASON_MAX, trustFormSchema } from '#app/models/moderation/trust-schema.ts'
import { useCheckedForm, type FormReply } from './checked-form.tsx'
import { otherMessages } from './form-messages.ts'
import { ReasonField } from './reason-field.tsx'
import { zodCheck } from './zod-check.ts'

const checkTrust = zodCheck(trustFormSchema)

export function BusinessTrustForm({
  businessID,
  trusted,
  because,
  reply,
}: {
  businessID: number
  trusted: boolean
  because: string
  /** A refused grant or revoke: its reason's messages at the reason, the others above the form. */
  reply?: FormReply | null
}) {
  const { formProps, field, formErrorId } = useCheckedForm({
    id: 'trust',
    reply,
    check: checkTrust,
    browserChecksWithoutJs: true,
  })
  const refusal = otherMessages(reply, ['reason'])
  return (
    <section aria-labelledby="business-trust" className="mt-8">
      <h2 id="business-trust" className="text-xl font-semibold text-ink">
        The business&apos;s trust
      </h2>
      <p className="mt-2 text-slate-700" data-testid="business-trust">
        {trusted ? 'Trusted: its paid ads go live at payment' : 'Not trusted: its paid ads wait for a review'}{' '}
        ({because}).
      </p>
      <Form method="post" {...formProps} className="mt-3 grid gap-2">
        <input type="hidden" name="businessID" value={businessID} />
        <input type="hidden" name="intent" value={trusted ? 'revoke' : 'grant'} />
        {refusal ? (
          <p id={formErrorId} role="alert" className="text-sm text-red-700">
            {refusal}
          </p>
        ) : null}
        <ReasonField field={field('reason')} label="Reason (required)" maxLength={TRUST_REASON_MAX} />
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
