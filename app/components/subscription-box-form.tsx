import type { ReactNode } from 'react'
import {
  checkSubscriptionForm,
  SUBSCRIPTION_EMAIL_MAX,
} from '#app/models/subscriptions/subscription-rules.ts'
import { inputClass, secondaryButtonClass } from './account-ui.tsx'
import { useCheckedForm, type FormReply } from './checked-form.tsx'
import { FormField } from './form-field.tsx'
import { SUBSCRIBE_PATH } from './subscribe-form.tsx'

/**
 * A one-address subscription box on a public page (a reminder, a followed business): a heading, what the visitor gets,
 * the subscription's own hidden fields, and the address with its button. A plain form posted to /subscribe.
 */
export function SubscriptionBoxForm({
  id,
  heading,
  explanation,
  hidden,
  submitLabel,
  className,
  reply,
}: {
  id: string
  heading: ReactNode
  explanation: ReactNode
  /** The subscription's kind and what it is for, as hidden fields. */
  hidden: Record<string, string | number>
  submitLabel: string
  className: string
  reply?: FormReply | null
}) {
  const { formProps, field } = useCheckedForm({
    id,
    reply,
    check: checkSubscriptionForm,
    trimmed: ['email'],
    browserChecksWithoutJs: true,
  })
  const email = field('email')
  return (
    <form
      method="post"
      action={SUBSCRIBE_PATH}
      {...formProps}
      aria-labelledby={`${id}-heading`}
      className={`rounded-lg border border-slate-200 bg-white p-4 ${className}`}
    >
      <h2 id={`${id}-heading`} className="text-lg font-semibold text-ink">
        {heading}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{explanation}</p>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <FormField field={email} label="Your email address" className="mt-3">
        {(control) => (
          <div className="mt-1 flex flex-wrap gap-2">
            <input
              {...email.inputProps}
              {...control}
              type="email"
              autoComplete="email"
              required
              maxLength={SUBSCRIPTION_EMAIL_MAX}
              className={`min-w-0 flex-1 ${inputClass}`}
            />
            <button type="submit" className={secondaryButtonClass}>
              {submitLabel}
            </button>
          </div>
        )}
      </FormField>
    </form>
  )
}
