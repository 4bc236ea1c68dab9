import { fieldControlProps, FieldErrors } from '#app/components/form-field.tsx'
import { describeAllowance, type FreeAllowance } from '#app/models/payments/free-listing.ts'
import type { CheckedField } from './values.ts'

/** The categories offered, as checkboxes named eventCategory (one or more). */
export function CategoryField({
  categories,
  chosen,
  onToggle,
  field,
  free = {},
}: {
  categories: string[]
  chosen: string[]
  onToggle: (name: string, on: boolean) => void
  field: CheckedField
  /** The categories listed free, and what a free listing in each includes. */
  free?: Record<string, FreeAllowance>
}) {
  const freeOffered = categories.filter((name) => Object.hasOwn(free, name))
  return (
    <fieldset aria-describedby={fieldControlProps(field)['aria-describedby']}>
      <legend className="font-medium">Category</legend>
      <p className="text-sm text-slate-600">Choose one or more.</p>
      <div className="mt-2 flex flex-wrap gap-2">
        {categories.map((name) => (
          <label
            key={name}
            className="flex items-center gap-2 rounded-full border border-slate-300 px-3 py-1 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
          >
            <input
              type="checkbox"
              name="eventCategory"
              value={name}
              checked={chosen.includes(name)}
              onChange={(e) => onToggle(name, e.target.checked)}
            />
            {name}
          </label>
        ))}
      </div>
      {freeOffered.length > 0 ? (
        <p className="mt-2 text-sm text-slate-700" data-testid="free-categories">
          Listed free, with no card:{' '}
          {freeOffered.map((name) => `${name} (${describeAllowance(free[name]!)})`).join('; ')}. An ad is free
          when every category it has is free.
        </p>
      ) : null}
      <FieldErrors id={field.errorId} errors={field.errors} />
    </fieldset>
  )
}
