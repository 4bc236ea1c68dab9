import { calendarSearchParams, type CalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import {
  checkSubscriptionForm,
  describeSearch,
  FREQUENCY_LABELS,
  savedSearchFilters,
  SEARCH_FREQUENCIES,
  SUBSCRIPTION_EMAIL_MAX,
} from '#app/models/subscriptions/subscription-rules.ts'
import { inputClass, primaryButtonClass } from './account-ui.tsx'
import { useCheckedForm, type FormReply } from './checked-form.tsx'
import { InputField } from './form-controls.tsx'
import { FieldErrors } from './form-field.tsx'

export const SUBSCRIBE_PATH = '/subscribe'

/**
 * "Email me these events": a plain form (no script needed) posting the calendar's filters on screen — dates become
 * "upcoming" — with an address and a frequency. Nothing is sent but a confirmation email until its link is followed.
 */
export function SubscribeForm({
  filters,
  reply,
  id = 'subscribe',
}: {
  filters: CalendarFilters
  reply?: FormReply | null
  id?: string
}) {
  const saved = savedSearchFilters(filters)
  const { formProps, field } = useCheckedForm({
    id,
    reply,
    check: checkSubscriptionForm,
    trimmed: ['email'],
    browserChecksWithoutJs: true,
  })
  const email = field('email')
  const frequency = field('frequency')
  const chosen = typeof reply?.initialValue?.frequency === 'string' ? reply.initialValue.frequency : 'weekly'
  return (
    <form
      method="post"
      action={SUBSCRIBE_PATH}
      {...formProps}
      aria-labelledby={`${id}-heading`}
      className="mt-8 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id={`${id}-heading`} className="text-lg font-semibold text-ink">
        Email me these events
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {describeSearch(saved)}. No account needed; you confirm by email first and can unsubscribe in one
        click.
      </p>
      <input type="hidden" name="kind" value="search" />
      {[...calendarSearchParams(saved)].map(([name, value]) => (
        <input key={`${name}=${value}`} type="hidden" name={name} value={value} />
      ))}
      <InputField
        field={email}
        label="Your email address"
        fieldClassName="mt-3"
        type="email"
        autoComplete="email"
        required
        maxLength={SUBSCRIPTION_EMAIL_MAX}
        className={`mt-1 ${inputClass}`}
      />
      <fieldset className="mt-3" aria-describedby={frequency.errors?.length ? frequency.errorId : undefined}>
        <legend className="text-sm font-medium text-slate-800">How often</legend>
        {SEARCH_FREQUENCIES.map((value) => (
          <label key={value} className="mt-1 flex items-center gap-2 text-sm text-slate-800">
            <input type="radio" name="frequency" value={value} defaultChecked={value === chosen} />
            {value === 'weekly'
              ? `${FREQUENCY_LABELS.weekly}: new events and the coming week`
              : FREQUENCY_LABELS[value]}
          </label>
        ))}
        <FieldErrors id={frequency.errorId} errors={frequency.errors} />
      </fieldset>
      <button type="submit" className={`mt-4 ${primaryButtonClass}`}>
        Email me these events
      </button>
    </form>
  )
}
