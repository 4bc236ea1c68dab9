import type { InputHTMLAttributes, ReactNode } from 'react'
import { inputClass } from './account-ui.tsx'

/**
 * The one way a form draws a field: its label, the control (a slot, so it may be an input, a select, a textarea or
 * a control of the form's own), an optional description, and the field's errors, with `aria-invalid` and
 * `aria-describedby` (the description, then the errors) wired to the control. The field's ids and errors come from
 * `useCheckedForm`'s `field(name)` (checked-form.tsx).
 */

/** What a field needs to be drawn: the control's id, and its errors (none = valid) with the id they are shown under. */
export interface FieldState {
  id: string
  errorId: string
  errors?: readonly string[] | null
}

/** The attributes the control must carry: spread them onto it. */
export interface FieldControlProps {
  id: string
  'aria-invalid': true | undefined
  'aria-describedby': string | undefined
}

/**
 * The field's messages in one paragraph (each is a sentence), announced as they appear (a live region around
 * them); nothing is drawn for a valid field.
 */
export function FieldErrors({ id, errors }: { id: string; errors?: readonly string[] | null }) {
  if (!errors?.length) return null
  return (
    <div role="alert">
      <p id={id} className="mt-1 text-sm text-red-700">
        {errors.join(' ')}
      </p>
    </div>
  )
}

/** The control's aria attributes for a field: invalid while it has errors, described by its description and them. */
export function fieldControlProps(field: FieldState, descriptionId?: string): FieldControlProps {
  const invalid = Boolean(field.errors?.length)
  const ids = [descriptionId, invalid ? field.errorId : undefined].filter(Boolean)
  return {
    id: field.id,
    'aria-invalid': invalid || undefined,
    'aria-describedby': ids.join(' ') || undefined,
  }
}

export function FormField({
  field,
  label,
  children,
  description,
  className,
  labelClassName = 'block text-sm font-medium text-slate-800',
}: {
  field: FieldState
  label: ReactNode
  /**
   * The control, given the attributes that tie it to the label, the description and the errors (and what stands
   * right after the label, a required mark outside it, so the field's accessible name stays exact).
   */
  children: (control: FieldControlProps) => ReactNode
  /** A hint shown under the control and read with it. */
  description?: ReactNode
  className?: string
  labelClassName?: string
}) {
  const descriptionId = description ? `${field.id}-description` : undefined
  const control = children(fieldControlProps(field, descriptionId))
  return (
    <div className={className}>
      <label htmlFor={field.id} className={labelClassName}>
        {label}
      </label>
      {control}
      {description ? (
        <p id={descriptionId} className="mt-1 text-xs text-slate-500">
          {description}
        </p>
      ) : null}
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  )
}

/** A labelled text input (and what stands beside it, a show-password button) with its errors: the account pages'. */
export function TextField({
  label,
  field,
  inputProps,
  trailing,
}: {
  label: ReactNode
  field: FieldState
  inputProps: InputHTMLAttributes<HTMLInputElement>
  trailing?: ReactNode
}) {
  return (
    <FormField field={field} label={label}>
      {(control) => (
        <div className="mt-1 flex gap-2">
          <input {...inputProps} {...control} className={inputClass} />
          {trailing}
        </div>
      )}
    </FormField>
  )
}
