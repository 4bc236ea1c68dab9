import type { InputHTMLAttributes } from 'react'
import { FormField, type FieldState } from './form-field.tsx'

/** Parts of fields that several forms draw alike (every field is still drawn by `FormField`). */

/**
 * A field whose control is one plain input: the field's own input attributes (`useCheckedForm`'s name, id and sent
 * value) when it has them, then the ones given here. `fieldClassName` is the wrapper's, `className` the input's.
 */
export function InputField({
  field,
  label,
  fieldClassName,
  ...input
}: {
  field: FieldState & { inputProps?: InputHTMLAttributes<HTMLInputElement> }
  label: string
  fieldClassName?: string
} & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FormField field={field} label={label} className={fieldClassName}>
      {(control) => <input {...field.inputProps} {...control} {...input} />}
    </FormField>
  )
}

/** A select's options, one for each `[value, label]`. */
export function ChoiceOptions({ choices }: { choices: ReadonlyArray<readonly [string, string]> }) {
  return choices.map(([value, label]) => (
    <option key={value} value={value}>
      {label}
    </option>
  ))
}
