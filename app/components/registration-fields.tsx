import type { FocusEvent, ReactNode } from 'react'
import {
  isRequiredRegistrationField,
  registrationLengthConstraints,
  withHttpsScheme,
  type RegistrationField,
} from '#app/models/accounts/registration-rules.ts'
import { TextField, type FieldState } from './form-field.tsx'

/**
 * The fields of the business registration form (/create-account), in its groups. Each is drawn from
 * `useCheckedForm`'s `field(name)` (checked-form.tsx), with the registration's lengths and required marks so the
 * browser's own checks match the server's.
 */

/** A field's state and input attributes, as `useCheckedForm`'s `field(name)` gives them. */
export type RegistrationFieldState = (name: RegistrationField) => FieldState & {
  inputProps: { id: string; name: string; defaultValue?: string }
}

const lengths = registrationLengthConstraints()

function addScheme(event: FocusEvent<HTMLInputElement>) {
  const input = event.currentTarget
  const next = withHttpsScheme(input.value)
  if (next !== input.value) input.value = next
}

function Optional() {
  return <span className="font-normal text-slate-500"> (optional)</span>
}

/** One field of the form, drawn by `TextField` (form-field.tsx) with the registration's rules for the browser. */
function textInput(
  field: RegistrationFieldState,
  name: RegistrationField,
  label: ReactNode,
  {
    type = 'text',
    autoComplete,
  }: { type?: 'text' | 'email' | 'password' | 'tel' | 'url'; autoComplete?: string } = {},
) {
  const checked = field(name)
  const url = type === 'url'
  return (
    <TextField
      label={label}
      field={checked}
      inputProps={{
        ...checked.inputProps,
        ...lengths[name],
        required: isRequiredRegistrationField(name),
        type: url ? 'text' : type,
        autoComplete,
        inputMode: url ? 'url' : undefined,
        onBlur: url ? addScheme : undefined,
      }}
    />
  )
}

type FieldSpec = readonly [
  name: RegistrationField,
  label: ReactNode,
  type?: 'text' | 'email' | 'password' | 'tel' | 'url',
  autoComplete?: string,
  wide?: boolean,
]

/** The form's groups in order: a legend (with a note under it) and its fields. */
const GROUPS: ReadonlyArray<{ legend: ReactNode; note?: ReactNode; fields: readonly FieldSpec[] }> = [
  {
    legend: 'Business',
    fields: [
      ['businessName', 'Business Name', 'text', 'organization'],
      ['businessContact', 'Contact Name', 'text', 'name'],
      ['businessPhone', 'Business Phone', 'tel', 'tel'],
      [
        'businessFax',
        <>
          Fax
          <Optional />
        </>,
        'tel',
      ],
    ],
  },
  {
    legend: 'Address',
    fields: [
      ['businessAddress', 'Address', 'text', 'street-address', true],
      ['businessCity', 'City', 'text', 'address-level2'],
      ['businessState', 'State', 'text', 'address-level1'],
      ['businessZip', 'ZIP Code', 'text', 'postal-code'],
    ],
  },
  {
    legend: 'Sign-in details',
    fields: [
      ['businessEmail', 'Email', 'email', 'email', true],
      ['businessPassword', 'Password', 'password', 'new-password'],
      ['verifyPassword', 'Verify Password', 'password', 'new-password'],
    ],
  },
  {
    legend: (
      <>
        Online <Optional />
      </>
    ),
    // Each web address gets `https://` in front when it is left without a scheme.
    note: (
      <>
        Addresses without a scheme get <code>https://</code> in front.
      </>
    ),
    fields: (
      [
        ['businessWebsite', 'Website'],
        ['facebookURL', 'Facebook URL'],
        ['instagramURL', 'Instagram URL'],
        ['linkedin', 'LinkedIn URL'],
        ['youtubeURL', 'YouTube URL'],
        ['xURL', 'X (Twitter) URL'],
        ['tiktokURL', 'TikTok URL'],
      ] as const
    ).map(([name, label]): FieldSpec => [name, label, 'url', 'url']),
  },
]

/** The registration form's fields, group by group: the business, its address, the sign-in details, its addresses online. */
export function RegistrationFields({ field }: { field: RegistrationFieldState }) {
  return GROUPS.map(({ legend, note, fields }, index) => (
    <fieldset key={index} className="grid gap-4 sm:grid-cols-2">
      <legend className="mb-2 text-lg font-semibold text-ink">{legend}</legend>
      {note ? <p className="text-sm text-slate-600 sm:col-span-2">{note}</p> : null}
      {fields.map(([name, label, type, autoComplete, wide]) => (
        <div key={name} className={wide ? 'sm:col-span-2' : undefined}>
          {textInput(field, name, label, { type, autoComplete })}
        </div>
      ))}
    </fieldset>
  ))
}
