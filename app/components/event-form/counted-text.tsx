import { FieldError } from './field-error.tsx'
import type { CheckedField } from './values.ts'

/** A required text input (or textarea) with its "n/max" count beside it; input past `max` is cut off. */
export function CountedText({
  name,
  label,
  max,
  value,
  onChange,
  rows,
  field: { errors, errorId, aria },
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
  const props = {
    id: name,
    name,
    required: true,
    maxLength: max,
    value,
    ...aria,
    'aria-describedby': [`${name}-count`, aria['aria-describedby']].filter(Boolean).join(' '),
    className: 'mt-1 w-full rounded-md border border-slate-300 px-3 py-2',
  }
  return (
    <div>
      <label htmlFor={name} className="block font-medium">
        {label}
      </label>
      {rows ? (
        <textarea {...props} rows={rows} onChange={(e) => onChange(e.target.value.slice(0, max))} />
      ) : (
        <input {...props} onChange={(e) => onChange(e.target.value.slice(0, max))} />
      )}
      <p id={`${name}-count`} className="mt-1 text-right text-xs text-slate-500">
        {value.length}/{max}
      </p>
      <FieldError id={errorId} messages={errors} />
    </div>
  )
}
