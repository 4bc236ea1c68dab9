import { Form } from '@remix-run/react'
import { TAKEDOWN_REASON_MAX } from '#app/models/moderation/report-schema.ts'

const takedownButtonClass = 'rounded-md bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800'

/**
 * Taking an ad down, with the reason the advertiser reads: the same form wherever an administrator decides on an ad
 * (its reports, or its check after auto-approval). Posts `intent=takedown` to `action` (this page when unset).
 */
export function TakedownForm({
  eventID,
  reasonId,
  action,
}: {
  eventID: number
  reasonId: string
  action?: string
}) {
  return (
    <Form method="post" action={action} className="grid gap-2">
      <input type="hidden" name="eventID" value={eventID} />
      <label htmlFor={reasonId} className="text-sm font-medium text-slate-800">
        Reason for a takedown (required; the advertiser reads it)
      </label>
      <textarea
        id={reasonId}
        name="reason"
        rows={2}
        required
        maxLength={TAKEDOWN_REASON_MAX}
        className="block w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
      />
      <div className="flex justify-end">
        <button type="submit" name="intent" value="takedown" className={takedownButtonClass}>
          Take the ad down
        </button>
      </div>
    </Form>
  )
}
