import { fieldControlProps, FieldErrors, FormField } from '#app/components/form-field.tsx'
import type { CheckedField } from '#app/components/event-form/values.ts'
import {
  ACCESSIBILITY_FEATURES,
  ACCESSIBILITY_LABELS,
  AGE_LABELS,
  AGE_RANGES,
  ATTENDANCE_LABELS,
  ATTENDANCE_MODES,
  FACT_FIELD_NAMES,
  FACT_TEXT_MAX,
  factFieldsOf,
  EMPTY_PRACTICAL_FACTS,
  practicalFactsOf,
  type PracticalFactFields,
  type PracticalFacts,
} from '#app/models/ads/practical-facts.ts'

const inputClass = 'mt-1 w-full rounded-md border border-slate-300 px-3 py-2'

/** The facts a form starts from: as typed in a refused post, else as saved (none for a new ad). */
export function initialFactFields(values: Partial<PracticalFacts> & { factFields?: PracticalFactFields }) {
  if (values.factFields) return values.factFields
  return factFieldsOf(practicalFactsOf({ ...EMPTY_PRACTICAL_FACTS, ...values }))
}

/** The facts' fields as the form holds them now (read when the preview opens). */
export function factFieldsIn(form: HTMLFormElement): PracticalFactFields {
  const data = new FormData(form)
  const fields = Object.fromEntries(FACT_FIELD_NAMES.map((name) => [name, String(data.get(name) ?? '')]))
  return {
    ...(fields as Omit<PracticalFactFields, 'accessibilityFeatures'>),
    accessibilityFeatures: data.getAll('accessibilityFeatures').map(String),
  }
}

function TextInput({
  name,
  label,
  initial,
  field,
  type = 'text',
  description,
}: {
  name: keyof typeof FACT_TEXT_MAX
  label: string
  initial: PracticalFactFields
  field: (name: string) => CheckedField
  type?: 'text' | 'url' | 'email'
  description?: string
}) {
  return (
    <FormField field={field(name)} label={label} description={description}>
      {(control) => (
        <input
          {...control}
          name={name}
          type={type}
          maxLength={FACT_TEXT_MAX[name]}
          defaultValue={initial[name]}
          className={inputClass}
        />
      )}
    </FormField>
  )
}

function Choices({
  name,
  legend,
  choices,
  initial,
  field,
}: {
  name: 'priceType' | 'attendanceMode' | 'ageRange'
  legend: string
  choices: ReadonlyArray<readonly [string, string]>
  initial: string
  field: CheckedField
}) {
  return (
    <fieldset aria-describedby={fieldControlProps(field)['aria-describedby']}>
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      <div className="mt-1 flex flex-wrap gap-3 text-sm">
        {choices.map(([value, label]) => (
          <label key={value} className="flex items-center gap-1">
            <input type="radio" name={name} value={value} defaultChecked={initial === value} />
            {label}
          </label>
        ))}
      </div>
      <FieldErrors id={field.errorId} errors={field.errors} />
    </fieldset>
  )
}

/** Tickets, place, accessibility and age: all optional, folded away until opened (open when one has a problem). */
export function PracticalFactsFields({
  initial,
  field,
}: {
  initial: PracticalFactFields
  field: (name: string) => CheckedField
}) {
  const hasErrors = [...FACT_FIELD_NAMES, 'accessibilityFeatures'].some((name) => field(name).errors)
  const features = field('accessibilityFeatures')
  return (
    <details className="rounded-md border border-slate-200 p-3 text-sm" open={hasErrors || undefined}>
      <summary className="cursor-pointer font-medium">Tickets, place and accessibility (optional)</summary>
      <div className="mt-3 grid gap-4">
        <TextInput
          name="ticketUrl"
          label="Ticket or registration link"
          type="url"
          description="An https:// address; shown as “Tickets”."
          initial={initial}
          field={field}
        />
        <div className="grid gap-3 md:grid-cols-2">
          <Choices
            name="priceType"
            legend="Price"
            choices={[
              ['', 'Not said'],
              ['free', 'Free'],
              ['from', 'From $'],
            ]}
            initial={initial.priceType}
            field={field('priceType')}
          />
          <FormField field={field('priceFrom')} label="Lowest price in dollars (with “From $”)">
            {(control) => (
              <input
                {...control}
                name="priceFrom"
                inputMode="decimal"
                maxLength={12}
                defaultValue={initial.priceFrom}
                className={inputClass}
              />
            )}
          </FormField>
        </div>
        <Choices
          name="attendanceMode"
          legend="Where"
          choices={ATTENDANCE_MODES.map((mode) => [mode, ATTENDANCE_LABELS[mode]] as const)}
          initial={initial.attendanceMode || 'in_person'}
          field={field('attendanceMode')}
        />
        <fieldset className="grid gap-3 md:grid-cols-4">
          <legend className="text-sm text-slate-600">
            In person at another address (leave empty for the business address)
          </legend>
          <TextInput name="venueAddress" label="Street address" initial={initial} field={field} />
          <TextInput name="venueCity" label="City" initial={initial} field={field} />
          <TextInput name="venueState" label="State" initial={initial} field={field} />
          <TextInput name="venueZip" label="ZIP code" initial={initial} field={field} />
        </fieldset>
        <TextInput
          name="onlineUrl"
          label="Link to join online"
          type="url"
          description="An https:// address, needed when the event is online."
          initial={initial}
          field={field}
        />
        <fieldset aria-describedby={fieldControlProps(features)['aria-describedby']}>
          <legend className="text-sm font-medium text-slate-800">Accessibility</legend>
          <div className="mt-1 flex flex-wrap gap-3">
            {ACCESSIBILITY_FEATURES.map((feature) => (
              <label key={feature} className="flex items-center gap-1">
                <input
                  type="checkbox"
                  name="accessibilityFeatures"
                  value={feature}
                  defaultChecked={initial.accessibilityFeatures.includes(feature)}
                />
                {ACCESSIBILITY_LABELS[feature]}
              </label>
            ))}
          </div>
          <FieldErrors id={features.errorId} errors={features.errors} />
        </fieldset>
        <div className="grid gap-3 md:grid-cols-2">
          <TextInput name="accessibilityNote" label="Accessibility note" initial={initial} field={field} />
          <TextInput
            name="accessibilityContact"
            label="Contact for access questions"
            initial={initial}
            field={field}
          />
        </div>
        <Choices
          name="ageRange"
          legend="Age"
          choices={[['', 'Not said'], ...AGE_RANGES.map((age) => [age, AGE_LABELS[age]] as const)]}
          initial={initial.ageRange}
          field={field('ageRange')}
        />
      </div>
    </details>
  )
}
