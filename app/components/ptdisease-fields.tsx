import type { ReactNode } from 'react'
import { FormField, type FieldState } from '#app/components/form-field.tsx'

/** The patient-record form's controls: a labelled input, a checkbox, and a titled group of them. */

export const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ' +
  'focus:border-brand-500 focus:ring-1 focus:ring-brand-500 focus:outline-none aria-[invalid=true]:border-red-600'

export const labelClass = 'text-sm font-medium text-slate-700'

/** A field as `useCheckedForm`'s `field(name)` gives it. */
export type CheckedField = FieldState & { inputProps: { name: string; defaultValue?: string } }

export function InputField({
  field,
  label,
  type = 'text',
  required,
  autoFocus,
  hint,
  ...native
}: {
  field: CheckedField
  label: string
  type?: 'text' | 'date' | 'number'
  required?: boolean
  autoFocus?: boolean
  hint?: string
  maxLength?: number
  min?: string | number
  max?: string | number
  step?: number
  inputMode?: 'numeric' | 'text'
  pattern?: string
}) {
  return (
    <FormField field={field} label={label} description={hint} labelClassName={labelClass}>
      {(control) => (
        <>
          {required ? (
            <span className="ml-1 text-sm text-red-600" aria-hidden>
              *
            </span>
          ) : null}
          <input
            {...field.inputProps}
            {...control}
            type={type}
            required={required}
            {...native}
            autoFocus={autoFocus}
            className={inputClass}
          />
        </>
      )}
    </FormField>
  )
}

export function CheckboxField({
  field,
  label,
  ticked,
}: {
  field: FieldState & { inputProps: { name: string } }
  label: string
  /** Ticked when the form is drawn. */
  ticked: boolean
}) {
  return (
    // The box is drawn before its label (CSS order; the label comes first in the markup), a message under both.
    <FormField
      field={field}
      label={label}
      labelClassName={labelClass}
      className="flex flex-wrap items-center gap-x-2 [&>div]:basis-full [&>input]:-order-1"
    >
      {(control) => (
        <input
          {...control}
          name={field.inputProps.name}
          defaultChecked={ticked}
          type="checkbox"
          className="size-4 rounded border-slate-300 accent-brand-600"
        />
      )}
    </FormField>
  )
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="rounded-xl border border-slate-200 p-4">
      <legend className="px-1 text-base font-semibold text-ink">{title}</legend>
      <div className="grid gap-4 sm:grid-cols-2">{children}</div>
    </fieldset>
  )
}
