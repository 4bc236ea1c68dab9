import type { TextareaHTMLAttributes } from 'react'
import { FormField, type FieldState } from './form-field.tsx'

/** The reason a moderator gives for a decision (a review, a takedown, trust granted or revoked): required, short. */
export function ReasonField({
  field,
  label,
  maxLength,
}: {
  field: FieldState & { inputProps: TextareaHTMLAttributes<HTMLTextAreaElement> }
  label: string
  maxLength: number
}) {
  return (
    <FormField field={field} label={label} labelClassName="text-sm font-medium text-slate-800">
      {(control) => (
        <textarea
          {...field.inputProps}
          {...control}
          rows={2}
          required
          maxLength={maxLength}
          className="mt-2 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
        />
      )}
    </FormField>
  )
}
