import { FormField } from '#app/components/form-field.tsx'
import type { CheckedField } from './values.ts'

/** A required text input (or textarea) with its "n/max" count beside it; input past `max` is cut off. */
export function CountedText({
  name,
  label,
  max,
  value,
  onChange,
  rows,
  field,
}: {
  name: string
  label: string
  max: number
  value: string
  onChange: (value: string) => void
  /** A textarea of this many rows; an input without it. */
  rows?: number
  field: CheckedField
}) {
  const countId = `${name}-count`
  return (
    <FormField field={{ ...field, id: name }} label={label} labelClassName="block font-medium">
      {(control) => {
        const props = {
          ...control,
          // The count is read first, then any errors.
          'aria-describedby': [countId, control['aria-describedby']].filter(Boolean).join(' '),
          name,
          required: true,
          maxLength: max,
          value,
          className: 'mt-1 w-full rounded-md border border-slate-300 px-3 py-2',
        }
        return (
          <>
            {rows ? (
              <textarea {...props} rows={rows} onChange={(e) => onChange(e.target.value.slice(0, max))} />
            ) : (
              <input {...props} onChange={(e) => onChange(e.target.value.slice(0, max))} />
            )}
            <p id={countId} className="mt-1 text-right text-xs text-slate-500">
              {value.length}/{max}
            </p>
          </>
        )
      }}
    </FormField>
  )
}
