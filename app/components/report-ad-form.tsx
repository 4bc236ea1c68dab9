/** "Report this ad": the visitor's form (reason, optional details). */
import { Form, useNavigation } from '@remix-run/react'
import { SIGNUP_HONEYPOT_FIELD, SIGNUP_STARTED_FIELD } from '#app/constants.ts'
import { REPORT_DETAILS_MAX, REPORT_REASONS } from '#app/models/moderation/report-rules.ts'
import { reportFormSchema } from '#app/models/moderation/report-schema.ts'
import { useCheckedForm, type FormReply } from './checked-form.tsx'
import { ChoiceOptions } from './form-controls.tsx'
import { FormField } from './form-field.tsx'
import { zodCheck } from './zod-check.ts'

const checkReport = zodCheck(reportFormSchema)
const control = 'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2'

export function ReportAdForm({
  eventID,
  formStartedAt,
  reply,
}: {
  eventID: number
  formStartedAt: string
  reply?: FormReply | null
}) {
  const navigation = useNavigation()
  const sending = navigation.state !== 'idle'
  const { formProps, field, formErrors, formErrorId } = useCheckedForm({
    id: 'report-ad',
    reply,
    check: checkReport,
    browserChecksWithoutJs: true,
  })
  const reason = field('reason')
  const details = field('details')
  return (
    <Form method="post" action={`/event/${eventID}/report`} {...formProps} className="mt-6 grid gap-5">
      {formErrors.length ? (
        <div
          id={formErrorId}
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
        >
          {formErrors.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      ) : null}
      <input
        type="hidden"
        name={SIGNUP_STARTED_FIELD}
        // A refused post's own stamp, so correcting a field is not refused as too quick.
        value={String(reply?.initialValue?.[SIGNUP_STARTED_FIELD] ?? formStartedAt)}
      />
      <div aria-hidden className="hidden">
        <label htmlFor="report-ad-nickname">Leave this field empty</label>
        <input id="report-ad-nickname" name={SIGNUP_HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" />
      </div>
      <FormField field={reason} label="Why are you reporting this ad?">
        {(props) => (
          <select
            {...reason.inputProps}
            {...props}
            required
            defaultValue={reason.inputProps.defaultValue ?? ''}
            className={control}
          >
            <option value="" disabled>
              Choose a reason
            </option>
            <ChoiceOptions choices={REPORT_REASONS} />
          </select>
        )}
      </FormField>
      <FormField
        field={details}
        label="Details (optional)"
        description={`Up to ${REPORT_DETAILS_MAX} characters.`}
      >
        {(props) => (
          <textarea
            {...details.inputProps}
            {...props}
            rows={4}
            maxLength={REPORT_DETAILS_MAX}
            className={control}
          />
        )}
      </FormField>
      <div className="flex justify-end">
        <button
          type="submit"
          disabled={sending}
          className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
        >
          {sending ? 'Sending...' : 'Send report'}
        </button>
      </div>
    </Form>
  )
}
