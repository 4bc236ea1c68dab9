import { fieldControlProps, FieldErrors } from '#app/components/form-field.tsx'
import type { CheckedField } from './values.ts'

/** The categories offered, as checkboxes named eventCategory (one or more). */
export function CategoryField({
  categories,
  chosen,
  onToggle,
  field,
}: {
  categories: string[]
  chosen: string[]
  onToggle: (name: string, on: boolean) => void
  field: CheckedField
}) {
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
      <FieldErrors id={field.errorId} errors={field.errors} />
    </fieldset>
  )
}
