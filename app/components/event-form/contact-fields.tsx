import { useEffect, useRef, useState } from 'react'
import { FormField } from '#app/components/form-field.tsx'
import type { CheckedField, EventFormValues } from './values.ts'

const CONTACT_FIELDS = [
  ['contactPerson', 'Contact person', 'text'],
  ['contactPhone', 'Contact phone', 'tel'],
  ['contactEmail', 'Contact email', 'email'],
] as const

export const CONTACT_FIELD_NAMES = CONTACT_FIELDS.map(([name]) => name)

/** The optional contact for this one ad, folded away (open when one has a problem); read when the preview opens. */
export function ContactFields({
  initial,
  field,
}: {
  initial: EventFormValues
  field: (name: string) => CheckedField
}) {
  const checked = CONTACT_FIELDS.map(([name, label, type]) => ({ name, label, type, ...field(name) }))
  const anyErrors = checked.some((f) => f.errors)
  // Open as rendered by the server when it names a problem here, and once one appears; closed only by the advertiser.
  const [openAtFirst] = useState(anyErrors)
  const details = useRef<HTMLDetailsElement>(null)
  useEffect(() => {
    if (anyErrors && details.current) details.current.open = true
  }, [anyErrors])
  return (
    <details
      ref={details}
      className="rounded-md border border-slate-200 p-3 text-sm"
      open={openAtFirst || undefined}
    >
      <summary className="cursor-pointer font-medium">Contact for this event (optional)</summary>
      <div className="mt-3 grid gap-3 md:grid-cols-3">
        {checked.map(({ name, label, type, errors, errorId }) => (
          <FormField key={name} field={{ id: name, errors, errorId }} label={label} labelClassName="block">
            {(control) => (
              <input
                {...control}
                name={name}
                type={type}
                defaultValue={initial[name]}
                className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
              />
            )}
          </FormField>
        ))}
      </div>
    </details>
  )
}
