import { Link } from '@remix-run/react'

/**
 * A dialog's foot: a way out (a link: Cancel, or Edit) and the form's submit button, which reads `busyLabel` and is
 * disabled while its post is under way. Put it inside the form it submits.
 */
export function DialogActions({
  leave,
  submit,
  className = 'flex flex-wrap justify-end gap-3',
}: {
  leave?: { to: string; label: string; autoFocus?: boolean }
  submit: {
    label: string
    busyLabel: string
    busy: boolean
    /** `danger` for a step that cannot be undone. */
    tone?: 'primary' | 'danger'
    name?: string
    value?: string
  }
  className?: string
}) {
  const tone = submit.tone === 'danger' ? 'bg-red-600 hover:bg-red-700' : 'bg-brand-600 hover:bg-brand-700'
  return (
    <div className={className}>
      {leave ? (
        <Link
          to={leave.to}
          preventScrollReset
          autoFocus={leave.autoFocus}
          className="inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-4 py-2 font-medium text-slate-700 hover:bg-slate-50"
        >
          {leave.label}
        </Link>
      ) : null}
      <button
        type="submit"
        name={submit.name}
        value={submit.value}
        disabled={submit.busy}
        className={`inline-flex items-center justify-center rounded-md px-4 py-2 font-semibold text-white disabled:opacity-60 ${tone}`}
      >
        {submit.busy ? submit.busyLabel : submit.label}
      </button>
    </div>
  )
}
