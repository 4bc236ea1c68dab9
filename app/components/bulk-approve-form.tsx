/**
 * Bulk approval on the moderation page: one form with the "Approve selected" button, and a checkbox on each queued
 * ad that belongs to it through the `form` attribute (the ads' own review forms sit in between). No script needed.
 */
import { Form, useNavigation } from '@remix-run/react'

export const BULK_APPROVE_FORM_ID = 'bulk-approve'

export function BulkApproveForm({ date, count }: { date: string; count: number }) {
  const navigation = useNavigation()
  const sending = navigation.state !== 'idle' && navigation.formAction === '/admin/bulk-approve'
  return (
    <Form
      id={BULK_APPROVE_FORM_ID}
      method="post"
      action="/admin/bulk-approve"
      className="mt-6 flex flex-wrap items-center justify-between gap-3 rounded-md border border-slate-200 bg-slate-50 px-4 py-3"
    >
      <input type="hidden" name="date" value={date} />
      <p className="text-sm text-slate-700">
        Tick &ldquo;Select for bulk approval&rdquo; on the ads to approve ({count} in this list), then approve them
        at once. Each advertiser is told as if approved alone.
      </p>
      <button
        type="submit"
        disabled={sending}
        className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
      >
        {sending ? 'Approving...' : 'Approve selected'}
      </button>
    </Form>
  )
}

/** The tick of one queued ad for {@link BulkApproveForm}. */
export function BulkApproveCheckbox({ eventID }: { eventID: number }) {
  const id = `bulk-approve-${eventID}`
  return (
    <div className="mt-3 flex items-center gap-2 text-sm">
      <input
        id={id}
        type="checkbox"
        name="eventID"
        value={eventID}
        form={BULK_APPROVE_FORM_ID}
        aria-describedby={`pending-${eventID}`}
        className="size-4"
      />
      <label htmlFor={id} className="font-medium text-slate-800">
        Select for bulk approval
      </label>
    </div>
  )
}
