import {
  checkSubscriptionForm,
  SUBSCRIPTION_EMAIL_MAX,
} from '#app/models/subscriptions/subscription-rules.ts'
import { inputClass, secondaryButtonClass } from './account-ui.tsx'
import { useCheckedForm, type FormReply } from './checked-form.tsx'
import { FormField } from './form-field.tsx'
import { SUBSCRIBE_PATH } from './subscribe-form.tsx'

/** "Remind me": one email the day before the event, after the address is confirmed. A plain form. */
export function RemindMeForm({ eventID, reply }: { eventID: number; reply?: FormReply | null }) {
  const { formProps, field } = useCheckedForm({
    id: 'remind-me',
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
      aria-labelledby="remind-me-heading"
      className="mt-6 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id="remind-me-heading" className="text-lg font-semibold text-ink">
        Remind me
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        One email the day before the event. You confirm by email first.
      </p>
      <input type="hidden" name="kind" value="reminder" />
      <input type="hidden" name="eventID" value={eventID} />
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
              Remind me
            </button>
          </div>
        )}
      </FormField>
    </form>
  )
}
