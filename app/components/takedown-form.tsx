import { Form } from '@remix-run/react'
import { reportDecisionSchema, TAKEDOWN_REASON_MAX } from '#app/models/moderation/report-schema.ts'
import { useCheckedForm, type FormReply } from './checked-form.tsx'
import { ReasonField } from './reason-field.tsx'
import { zodCheck } from './zod-check.ts'

const takedownButtonClass = 'rounded-md bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800'

// A takedown's rule is the same wherever it is posted: a reason, within its length.
const checkTakedown = zodCheck(reportDecisionSchema)

/**
 * Taking an ad down, with the reason the advertiser reads: the same form wherever an administrator decides on an ad
 * (its reports, or its check after auto-approval). Posts `intent=takedown` to `action` (this page when unset); a
 * refused post's `reply` shows its messages at the reason.
 */
export function TakedownForm({
  id,
  eventID,
  action,
  reply,
}: {
  /** The form's id (its fields' ids start with it). */
  id: string
  eventID: number
  action?: string
  reply?: FormReply | null
}) {
  const { formProps, field } = useCheckedForm({
    id,
    reply,
    check: checkTakedown,
    browserChecksWithoutJs: true,
  })
  return (
    <Form method="post" action={action} {...formProps} className="grid gap-2">
      <input type="hidden" name="eventID" value={eventID} />
      <ReasonField
        field={field('reason')}
        label="Reason for a takedown (required; the advertiser reads it)"
        maxLength={TAKEDOWN_REASON_MAX}
      />
      <div className="flex justify-end">
        <button type="submit" name="intent" value="takedown" className={takedownButtonClass}>
          Take the ad down
        </button>
      </div>
    </Form>
  )
}
