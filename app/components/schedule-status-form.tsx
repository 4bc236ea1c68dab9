/**
 * A live ad's schedule status and the form that changes it (Cancelled, Postponed, Sold out, Back on, with a note for
 * visitors): a plain post (a document request even with JavaScript, so a refusal is drawn by the page it goes to). Once cancelled there is nothing left to choose.
 */
import { Form, Link } from '@remix-run/react'
import {
  SCHEDULE_CHOICE_LABELS,
  SCHEDULE_NOTE_MAX,
  SCHEDULE_NOTE_TOO_LONG_MESSAGE,
  SCHEDULE_STATUS_LABELS,
  NOT_LIVE_SCHEDULE_MESSAGE,
  UNKNOWN_SCHEDULE_STATUS_MESSAGE,
  isScheduleChoice,
  scheduleChoices,
  scheduleStatusOf,
} from '#app/models/ads/schedule-status.ts'
import { useCheckedForm, type FieldValues, type FormReply } from './checked-form.tsx'
import { FieldErrors, FormField } from './form-field.tsx'
import { otherMessages } from './form-messages.ts'

export const NO_REFUND_LINE = 'Marking an ad cancelled, postponed or sold out does not refund it.'

/** The same rules as the server's schema, without zod (the advertiser's pages load no validation library). */
function checkStatus(values: FieldValues) {
  const problems: Record<string, string> = {}
  if (!isScheduleChoice(values.status)) problems.status = UNKNOWN_SCHEDULE_STATUS_MESSAGE
  if ((values.note ?? '').trim().length > SCHEDULE_NOTE_MAX) problems.note = SCHEDULE_NOTE_TOO_LONG_MESSAGE
  return problems
}

/** A postponed ad's dates as its new dates' fields start from, and how many it may have. */
export interface NewDatesFields {
  ownDate: boolean
  dates: string[]
  limit: number
}

export function ScheduleStatusForm({
  action,
  status,
  note,
  newDates,
  reply,
}: {
  /** Where the form posts: the ad's status address on the dashboard or the admin pages. */
  action: string
  status: string | null
  note: string
  /** A postponed ad's new dates' fields (drawn on the status page; elsewhere a link to it). */
  newDates?: NewDatesFields | null
  reply?: FormReply | null
}) {
  const { formProps, field, formErrorId } = useCheckedForm({
    id: 'schedule-status',
    reply,
    check: checkStatus,
  })
  const current = scheduleStatusOf(status)
  const choices = scheduleChoices(current)
  const statusField = field('status')
  const noteField = field('note')
  const datesField = field('newDates')
  const refusal = otherMessages(reply, ['status', 'note', 'newDates'])
  return (
    <section aria-labelledby="schedule-status-heading" className="mt-8">
      <h2 id="schedule-status-heading" className="text-xl font-bold text-ink">
        Is the event still on?
      </h2>
      <p className="mt-2 text-slate-700">
        Status for visitors:{' '}
        <strong data-testid="schedule-status">
          {current ? SCHEDULE_STATUS_LABELS[current] : 'On as advertised'}
        </strong>
        {current && note ? (
          <>
            {' '}
            — <span data-testid="schedule-note">{note}</span>
          </>
        ) : null}
      </p>
      {refusal ? (
        <p id={formErrorId} role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {refusal}
        </p>
      ) : null}
      {choices.length === 0 ? null : (
        <Form
          method="post"
          action={action}
          reloadDocument
          {...formProps}
          className="mt-3 grid max-w-xl gap-3"
        >
          <fieldset aria-describedby={statusField.errors?.length ? statusField.errorId : undefined}>
            <legend className="text-sm font-medium text-slate-800">Change it to</legend>
            <div className="mt-1 flex flex-wrap gap-x-5 gap-y-1">
              {choices.map((choice) => (
                <label key={choice} className="flex items-center gap-2 text-slate-800">
                  <input
                    type="radio"
                    name="status"
                    value={choice}
                    required
                    defaultChecked={reply?.initialValue?.status === choice}
                  />
                  {SCHEDULE_CHOICE_LABELS[choice]}
                </label>
              ))}
            </div>
            <FieldErrors id={statusField.errorId} errors={statusField.errors} />
          </fieldset>
          <FormField
            field={noteField}
            label="Note for visitors (optional)"
            description={`Such as "Moved to the gym" or "New date to follow". Up to ${SCHEDULE_NOTE_MAX} characters.`}
          >
            {(control) => (
              <input
                {...noteField.inputProps}
                {...control}
                type="text"
                maxLength={SCHEDULE_NOTE_MAX}
                className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2"
              />
            )}
          </FormField>
          {current === 'postponed' ? (
            newDates ? (
              <NewDatesFieldset
                fields={newDates}
                sent={reply?.initialValue?.newDates}
                errorId={datesField.errorId}
                errors={datesField.errors}
              />
            ) : (
              <p className="text-sm text-slate-700">
                Has the event a new date?{' '}
                <Link to={action} className="font-medium text-brand-700 underline">
                  Give it its new dates
                </Link>{' '}
                with "Back on".
              </p>
            )
          ) : null}
          <p className="text-sm text-slate-600">{NO_REFUND_LINE}</p>
          <div>
            <button
              type="submit"
              className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
            >
              Change the status
            </button>
          </div>
        </Form>
      )}
    </section>
  )
}

/**
 * A postponed ad's new dates, sent with "Back on": its own event date, or up to `limit` display dates (those already
 * past stay). Left as they are, the ad is back on with its dates.
 */
function NewDatesFieldset({
  fields,
  sent,
  errorId,
  errors,
}: {
  fields: NewDatesFields
  /** What a refused post sent, drawn again. */
  sent?: unknown
  errorId: string
  errors?: string[]
}) {
  const count = fields.ownDate ? 1 : Math.max(fields.limit, fields.dates.length, 1)
  const shown = sent === undefined ? fields.dates : [sent].flat().map(String)
  const label = fields.ownDate ? 'New event date' : 'New date'
  return (
    <fieldset aria-describedby={errors?.length ? errorId : undefined} className="grid gap-2">
      <legend className="text-sm font-medium text-slate-800">New dates, with "Back on" (optional)</legend>
      <p className="text-sm text-slate-600">
        {fields.ownDate
          ? 'Change the date to the one the event moved to.'
          : `Change the dates to the ones the event moved to: up to ${fields.limit} in all, the days already past included.`}{' '}
        Left as they are, the ad is back on with its dates.
      </p>
      <div className="flex flex-wrap gap-2">
        {Array.from({ length: count }, (_, i) => (
          <label key={i} className="text-sm text-slate-800">
            <span className="sr-only">{count > 1 ? `${label} ${i + 1}` : label}</span>
            <input
              type="date"
              name="newDates"
              defaultValue={shown[i] ?? ''}
              className="block rounded-md border border-slate-300 px-2 py-1"
            />
          </label>
        ))}
      </div>
      <FieldErrors id={errorId} errors={errors} />
    </fieldset>
  )
}

/**
 * The status form on a page of its own (`/dashboard/events/{id}/status`, `/admin/events/{id}/status`): the ad's title,
 * a link back to its page (`adPath`), and the form while the ad is live.
 */
export function ScheduleStatusPage({
  ad,
  adPath,
  reply,
}: {
  ad: {
    eventTitle: string
    status: string | null
    note: string
    live: boolean
    newDates?: NewDatesFields | null
  }
  adPath: string
  reply?: FormReply | null
}) {
  return (
    <main className="mx-auto max-w-3xl px-4 py-8">
      <p className="text-sm">
        <Link to={adPath} className="font-medium text-brand-700 underline">
          ← Back to {ad.eventTitle}
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold break-words text-ink">{ad.eventTitle}</h1>
      {ad.live ? (
        <ScheduleStatusForm
          action={`${adPath}/status`}
          status={ad.status}
          note={ad.note}
          newDates={ad.newDates}
          reply={reply}
        />
      ) : (
        <p className="mt-4 text-slate-700">{NOT_LIVE_SCHEDULE_MESSAGE}</p>
      )}
    </main>
  )
}
