import { FieldError } from './field-error.tsx'
import type { EventFormValues, FieldErrors } from './values.ts'

const CONTACT_FIELDS = [
  ['contactPerson', 'Contact person', 'text'],
  ['contactPhone', 'Contact phone', 'tel'],
  ['contactEmail', 'Contact email', 'email'],
] as const

export type ContactField = (typeof CONTACT_FIELDS)[number][0]

/** The optional contact for this one ad, folded away; uncontrolled, read when the preview opens. */
export function ContactFields({ initial, errors }: { initial: EventFormValues; errors: FieldErrors }) {
  return (
    <details className="rounded-md border border-slate-200 p-3 text-sm">
      <summary className="cursor-pointer font-medium">Contact for this event (optional)</summary>
      <div className="mt-3 grid gap-3 md:grid-cols-3">
        {CONTACT_FIELDS.map(([name, label, type]) => (
          <div key={name}>
            <label htmlFor={name} className="block">
              {label}
            </label>
            <input
              id={name}
              name={name}
              type={type}
              defaultValue={initial[name]}
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
            />
            <FieldError id={`${name}-error`} messages={errors[name]} />
          </div>
        ))}
      </div>
    </details>
  )
}
