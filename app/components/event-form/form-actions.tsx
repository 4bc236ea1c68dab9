import { Link } from '@remix-run/react'
import type { MouseEvent } from 'react'

/**
 * The form's foot: the total cost (the price table without JavaScript, which the preview page prices), Cancel, and
 * "Ready to Preview", shown with JavaScript once the title, description and a category are there.
 */
export function FormActions({
  hydrated,
  cost,
  priceTable,
  readyToPreview,
  submitting,
  onCancel,
}: {
  hydrated: boolean
  cost: string
  priceTable: Array<{ label: string; price: string }>
  readyToPreview: boolean
  submitting: boolean
  onCancel: (event: MouseEvent) => void
}) {
  const costClass = 'mt-1 rounded-md border border-slate-200 bg-slate-50 px-3 py-2'
  return (
    <div className="flex flex-wrap items-end justify-between gap-4 border-t border-slate-200 pt-6">
      <div>
        <label htmlFor="totalCost" className="block text-sm font-medium">
          Total cost
        </label>
        {hydrated ? (
          <input id="totalCost" readOnly value={`$${cost}`} className={`${costClass} w-32 font-semibold`} />
        ) : (
          <>
            <input
              id="totalCost"
              readOnly
              value="Shown on the preview"
              className={`${costClass} w-48 text-sm`}
            />
            <ul className="mt-2 text-xs text-slate-600">
              {priceTable.map((p) => (
                <li key={p.label}>
                  {p.label}: ${p.price}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
      <div className="flex gap-3">
        {hydrated ? (
          <button
            type="button"
            onClick={onCancel}
            className="rounded-md border border-slate-300 px-4 py-2 font-medium"
          >
            Cancel
          </button>
        ) : (
          <Link to="/dashboard" className="rounded-md border border-slate-300 px-4 py-2 font-medium">
            Cancel
          </Link>
        )}
        {!hydrated || readyToPreview ? (
          <button
            type="submit"
            name="intent"
            value="preview"
            disabled={submitting}
            className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
          >
            {submitting ? 'Preparing preview...' : 'Ready to Preview'}
          </button>
        ) : null}
      </div>
    </div>
  )
}
