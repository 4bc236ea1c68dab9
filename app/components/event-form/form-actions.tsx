import { Link } from '@remix-run/react'
import type { MouseEvent } from 'react'
import { describeTiers, HIGHEST_PRICE_NOTE, type PriceTier } from '#app/models/payments/price-list.ts'

/**
 * The form's foot: the total cost (the price table without JavaScript, which the preview page prices), Cancel, and
 * "Ready to Preview", shown with JavaScript once the title, description and a category are there.
 */
export function FormActions({
  hydrated,
  cost,
  priceTable,
  categoryPrices = {},
  pricedApart = false,
  readyToPreview,
  submitting,
  onCancel,
}: {
  hydrated: boolean
  cost: string
  priceTable: Array<{ label: string; price: string }>
  /** The categories priced apart and their tiers: listed without JavaScript under the default prices. */
  categoryPrices?: Record<string, PriceTier[]>
  /** The chosen categories are priced apart: the total is the highest of their prices, which the form says. */
  pricedApart?: boolean
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
          <>
            <input
              id="totalCost"
              readOnly
              value={`$${cost}`}
              aria-describedby={pricedApart ? 'highest-price-note' : undefined}
              className={`${costClass} w-32 font-semibold`}
            />
            {pricedApart ? (
              <p id="highest-price-note" className="mt-1 max-w-xs text-xs text-slate-600">
                {HIGHEST_PRICE_NOTE}
              </p>
            ) : null}
          </>
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
            {Object.keys(categoryPrices).length > 0 ? (
              <>
                <ul className="mt-1 text-xs text-slate-600" data-testid="category-prices">
                  {Object.entries(categoryPrices).map(([name, tiers]) => (
                    <li key={name}>
                      {name}: {describeTiers(tiers)}
                    </li>
                  ))}
                </ul>
                <p id="highest-price-note" className="mt-1 max-w-xs text-xs text-slate-600">
                  {HIGHEST_PRICE_NOTE}
                </p>
              </>
            ) : null}
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
