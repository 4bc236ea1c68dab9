import '#app/zod-config.ts'
import { Form, useLocation, useNavigation } from '@remix-run/react'
import { format } from 'date-fns/format'
import { parseISO } from 'date-fns/parseISO'
import { useEffect, useMemo, type ComponentProps, type ReactNode } from 'react'
import { useCheckedForm, type FormReply } from '#app/components/checked-form.tsx'
import { zodCheck } from '#app/components/zod-check.ts'
import { DialogActions } from '#app/components/dialog-actions.tsx'
import { FormField } from '#app/components/form-field.tsx'
import {
  CheckboxField,
  InputField,
  inputClass,
  labelClass,
  Section,
  type CheckedField,
} from '#app/components/ptdisease-fields.tsx'
import { toast } from '#app/components/toaster.tsx'
import {
  PTDISEASE_BOOLEAN_FIELDS,
  PTDISEASE_FIELD_LABELS as LABELS,
  PTDISEASE_LIMITS,
  PTDISEASE_SEXES,
  buildPtdiseaseSchema,
  type PtdiseaseFieldName,
  type PtdiseaseInputValues,
} from '#app/models/patient-records/ptdisease-schema.ts'

/** yyyy-mm-dd (or a timestamp) as MM/dd/yyyy; an empty date as an em dash. */
export function formatRecordDate(value: string | null | undefined): string {
  if (!value) return '—'
  const date = parseISO(value)
  return Number.isNaN(date.getTime()) ? value : format(date, 'MM/dd/yyyy')
}

/** A record's values as the form's text: numbers as digits, a ticked box as 'on', nothing for an empty value. */
function formText(values: Partial<PtdiseaseInputValues> | undefined): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(values ?? {}).map(([name, value]) => [
      name,
      typeof value === 'string'
        ? value
        : typeof value === 'number'
          ? String(value)
          : value === true
            ? 'on'
            : undefined,
    ]),
  )
}

type FieldOf = (name: PtdiseaseFieldName) => CheckedField
type BooleanField = (typeof PTDISEASE_BOOLEAN_FIELDS)[number]
/** A checkbox of the form, ticked as the record or the refused post had it. */
type CheckboxOf = (name: BooleanField) => ReactNode

/** The fields the server derives, shown read-only when editing. */
type ComputedFields = {
  ptnumberdiseasecode: string
  ptnumberdiseasecodesigdig: string
  dateDue: string | null
}

export interface PtdiseaseFormProps {
  intent: 'create' | 'update'
  recordId?: number
  defaultValue?: Partial<PtdiseaseInputValues>
  /** What the server sent back after a failed save. */
  lastResult?: (FormReply & { status?: 'error' | 'success' }) | null
  message?: string
  /** The platform's today (yyyy-mm-dd): the latest date of birth. */
  today: string
  cancelTo: string
  /** Shown read-only when editing: fields the server derives. */
  computed?: ComputedFields
}

/** The patient disease record form: a real POST form, validated on the server; the browser checks first when it can. */
export function PtdiseaseForm({
  intent,
  recordId,
  defaultValue,
  lastResult,
  message,
  today,
  cancelTo,
  computed,
}: PtdiseaseFormProps) {
  const navigation = useNavigation()
  const location = useLocation()
  // The browser checks against the platform's today from the loader, not its own clock's date.
  const check = useMemo(() => zodCheck(buildPtdiseaseSchema(() => today)), [today])
  const initial = formText(defaultValue)
  const { formProps, field, formErrors, formErrorId } = useCheckedForm({
    id: intent === 'create' ? 'ptdisease-create' : `ptdisease-edit-${recordId}`,
    reply: lastResult,
    defaultValue: initial,
    check,
    checkOnBlur: true,
    // Without JavaScript the browser's own checks (required, maxlength, min/max) still apply.
    browserChecksWithoutJs: true,
  })

  useEffect(() => {
    if (lastResult?.status === 'error' && message) {
      toast({ title: 'Error', description: message, variant: 'destructive' })
    }
  }, [lastResult, message])

  const saving = navigation.state !== 'idle' && navigation.formData?.get('intent') === intent
  // After a refused post a box shows what was sent (absent = unticked), before one what the record holds.
  const sent = lastResult?.initialValue
  const checkbox: CheckboxOf = (name) => (
    <CheckboxField
      field={field(name)}
      label={LABELS[name]}
      ticked={(sent ? sent[name] : initial[name]) === 'on'}
    />
  )

  return (
    <Form
      method="post"
      action={`${location.pathname}${location.search}`}
      {...formProps}
      aria-describedby={formErrors.length ? formErrorId : undefined}
      className="grid gap-5"
    >
      <input type="hidden" name="intent" value={intent} />
      <p className="-mt-2 text-sm text-slate-600">
        Fields marked <span className="text-red-600">*</span> are required.
      </p>
      {recordId !== undefined ? <input type="hidden" name="id" value={recordId} /> : null}

      {formErrors.length ? (
        <p
          id={formErrorId}
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
        >
          {formErrors.join(' ')}
        </p>
      ) : null}

      <PatientInformation field={field} today={today} />
      <DiseaseInformation field={field} />
      <TrackingInformation field={field} checkbox={checkbox} computed={computed} />
      <Section title="CDM Information">
        {checkbox('dxusedforcharge')}
        {checkbox('CDMok')}
        {checkbox('controlledCDM')}
      </Section>
      <Comments field={field('comment')} />

      <DialogActions
        leave={{ to: cancelTo, label: 'Cancel' }}
        submit={{ label: 'Save Record', busyLabel: 'Saving...', busy: saving }}
      />
    </Form>
  )
}

type RecordInputProps = { field: FieldOf; name: PtdiseaseFieldName } & Omit<
  ComponentProps<typeof InputField>,
  'field' | 'label'
>

/** A text, date or number field of the record, labelled as its name says. */
function RecordInput({ field, name, ...props }: RecordInputProps) {
  return <InputField field={field(name)} label={LABELS[name]} {...props} />
}

function PatientInformation({ field, today }: { field: FieldOf; today: string }) {
  const sex = field('sexpatient')
  return (
    <Section title="Patient Information">
      <RecordInput field={field} name="mrn" required autoFocus maxLength={PTDISEASE_LIMITS.mrn} />
      <RecordInput
        field={field}
        name="patientnumber"
        inputMode="numeric"
        pattern="[0-9]*"
        hint="A positive whole number."
      />
      <FormField field={sex} label={LABELS.sexpatient} labelClassName={labelClass}>
        {(control) => (
          <select {...sex.inputProps} {...control} className={inputClass}>
            <option value="">Select…</option>
            {PTDISEASE_SEXES.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <RecordInput field={field} name="dob" type="date" min={PTDISEASE_LIMITS.dobEarliest} max={today} />
    </Section>
  )
}

function DiseaseInformation({ field }: { field: FieldOf }) {
  return (
    <Section title="Disease Information">
      <RecordInput field={field} name="disease" required maxLength={PTDISEASE_LIMITS.disease} />
      <RecordInput
        field={field}
        name="diseasecode"
        maxLength={PTDISEASE_LIMITS.code}
        hint="For example E11.9"
      />
      <RecordInput field={field} name="organsystem" maxLength={PTDISEASE_LIMITS.organsystem} />
      <RecordInput field={field} name="longshortproblem" maxLength={PTDISEASE_LIMITS.longshortproblem} />
    </Section>
  )
}

function TrackingInformation({
  field,
  checkbox,
  computed,
}: {
  field: FieldOf
  checkbox: CheckboxOf
  computed: ComputedFields | undefined
}) {
  return (
    <Section title="Tracking Information">
      <RecordInput field={field} name="dateentered" type="date" />
      <RecordInput field={field} name="lastreviewed" type="date" />
      <RecordInput
        field={field}
        name="reviewInterval"
        type="number"
        min={0}
        max={PTDISEASE_LIMITS.reviewIntervalMaxDays}
        step={1}
      />
      <RecordInput field={field} name="questionsToAsk" type="number" min={0} step={1} />
      <div className="grid grid-cols-2 gap-3 sm:col-span-2">
        {checkbox('choose')}
        {checkbox('finished')}
        {checkbox('resolved')}
        {checkbox('ptanswered')}
      </div>
      <p className="text-sm text-slate-600 sm:col-span-2">
        {computed ? (
          <DerivedValues computed={computed} />
        ) : (
          'The date due (last reviewed + review interval) and the patient/disease code keys are calculated when you save.'
        )}
      </p>
    </Section>
  )
}

/** What the server derived when the record was last saved: the date due and the patient/disease code keys. */
function DerivedValues({ computed }: { computed: ComputedFields }) {
  return (
    <>
      Date due: <strong>{formatRecordDate(computed.dateDue)}</strong>
      {computed.ptnumberdiseasecode ? (
        <>
          {' · '}Patient # + code: <strong>{computed.ptnumberdiseasecode}</strong>
        </>
      ) : null}
      {computed.ptnumberdiseasecodesigdig ? (
        <>
          {' · '}Patient # + significant digits: <strong>{computed.ptnumberdiseasecodesigdig}</strong>
        </>
      ) : null}
      <span className="block text-xs text-slate-500">Recalculated when you save.</span>
    </>
  )
}

function Comments({ field }: { field: CheckedField }) {
  return (
    <fieldset className="rounded-xl border border-slate-200 p-4">
      <legend className="px-1 text-base font-semibold text-ink">Comments</legend>
      <FormField field={field} label={LABELS.comment} labelClassName={`block ${labelClass}`}>
        {(control) => (
          <textarea
            {...field.inputProps}
            {...control}
            rows={4}
            maxLength={PTDISEASE_LIMITS.comment}
            className={inputClass}
          />
        )}
      </FormField>
    </fieldset>
  )
}
