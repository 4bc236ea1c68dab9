import {
  checkSubscriptionForm,
  followBusinessText,
  SUBSCRIPTION_EMAIL_MAX,
} from '#app/models/subscriptions/subscription-rules.ts'
import { inputClass, secondaryButtonClass } from './account-ui.tsx'
import { useCheckedForm, type FormReply } from './checked-form.tsx'
import { FormField } from './form-field.tsx'
import { SUBSCRIBE_PATH } from './subscribe-form.tsx'

/** "Email me new events from Blue Door Cafe": at most one email a day, after the address is confirmed. A plain form. */
export function FollowBusinessForm({
  businessID,
  businessName,
  reply,
}: {
  businessID: number
  businessName: string
  reply?: FormReply | null
}) {
  const { formProps, field } = useCheckedForm({
    id: 'follow-business',
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
      aria-labelledby="follow-business-heading"
      className="mt-8 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id="follow-business-heading" className="text-lg font-semibold text-ink">
        {followBusinessText(businessName)}
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        At most one email a day, when it has a new event. No account needed; you confirm by email first and
        can unsubscribe in one click.
      </p>
      <input type="hidden" name="kind" value="business" />
      <input type="hidden" name="businessID" value={businessID} />
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
              Email me
            </button>
          </div>
        )}
      </FormField>
    </form>
  )
}
