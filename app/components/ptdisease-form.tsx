import '#app/zod-config.ts'
import { Form, useLocation, useNavigation } from '@remix-run/react'
import { format, parseISO } from 'date-fns'
import { useEffect, useMemo, type ReactNode } from 'react'
import { useCheckedForm, type FormReply } from '#app/components/checked-form.tsx'
import { zodCheck } from '#app/components/zod-check.ts'
import { DialogActions } from '#app/components/dialog-actions.tsx'
import { FormField, type FieldState } from '#app/components/form-field.tsx'
import { toast } from '#app/components/toaster.tsx'
import {
  PTDISEASE_BOOLEAN_FIELDS,
  PTDISEASE_FIELD_LABELS as LABELS,
  PTDISEASE_LIMITS,
  PTDISEASE_SEXES,
  buildPtdiseaseSchema,
  type PtdiseaseInputValues,
} from '#app/models/patient-records/ptdisease-schema.ts'

/** yyyy-mm-dd (or a timestamp) as MM/dd/yyyy; an empty date as an em dash. */
export function formatRecordDate(value: string | null | undefined): string {
  if (!value) return '—'
  const date = parseISO(value)
  return Number.isNaN(date.getTime()) ? value : format(date, 'MM/dd/yyyy')
}

const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ' +
  'focus:border-brand-500 focus:ring-1 focus:ring-brand-500 focus:outline-none aria-[invalid=true]:border-red-600'

const labelClass = 'text-sm font-medium text-slate-700'

type CheckedField = FieldState & { inputProps: { name: string; defaultValue?: string } }

function InputField({
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

function CheckboxField({
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

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="rounded-xl border border-slate-200 p-4">
      <legend className="px-1 text-base font-semibold text-ink">{title}</legend>
      <div className="grid gap-4 sm:grid-cols-2">{children}</div>
    </fieldset>
  )
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
  computed?: { ptnumberdiseasecode: string; ptnumberdiseasecodesigdig: string; dateDue: string | null }
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
  const sex = field('sexpatient')
  const comment = field('comment')
  // After a refused post a box shows what was sent (absent = unticked), before one what the record holds.
  const sent = lastResult?.initialValue
  const checkbox = (name: (typeof PTDISEASE_BOOLEAN_FIELDS)[number]) => (
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

      <Section title="Patient Information">
        <InputField
          field={field('mrn')}
          label={LABELS.mrn}
          required
          autoFocus
          maxLength={PTDISEASE_LIMITS.mrn}
        />
        <InputField
          field={field('patientnumber')}
          label={LABELS.patientnumber}
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
        <InputField
          field={field('dob')}
          label={LABELS.dob}
          type="date"
          min={PTDISEASE_LIMITS.dobEarliest}
          max={today}
        />
      </Section>

      <Section title="Disease Information">
        <InputField
          field={field('disease')}
          label={LABELS.disease}
          required
          maxLength={PTDISEASE_LIMITS.disease}
        />
        <InputField
          field={field('diseasecode')}
          label={LABELS.diseasecode}
          maxLength={PTDISEASE_LIMITS.code}
          hint="For example E11.9"
        />
        <InputField
          field={field('organsystem')}
          label={LABELS.organsystem}
          maxLength={PTDISEASE_LIMITS.organsystem}
        />
        <InputField
          field={field('longshortproblem')}
          label={LABELS.longshortproblem}
          maxLength={PTDISEASE_LIMITS.longshortproblem}
        />
      </Section>

      <Section title="Tracking Information">
        <InputField field={field('dateentered')} label={LABELS.dateentered} type="date" />
        <InputField field={field('lastreviewed')} label={LABELS.lastreviewed} type="date" />
        <InputField
          field={field('reviewInterval')}
          label={LABELS.reviewInterval}
          type="number"
          min={0}
          max={PTDISEASE_LIMITS.reviewIntervalMaxDays}
          step={1}
        />
        <InputField
          field={field('questionsToAsk')}
          label={LABELS.questionsToAsk}
          type="number"
          min={0}
          step={1}
        />
        <div className="grid grid-cols-2 gap-3 sm:col-span-2">
          {checkbox('choose')}
          {checkbox('finished')}
          {checkbox('resolved')}
          {checkbox('ptanswered')}
        </div>
        <p className="text-sm text-slate-600 sm:col-span-2">
          {computed ? (
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
          ) : (
            'The date due (last reviewed + review interval) and the patient/disease code keys are calculated when you save.'
          )}
        </p>
      </Section>

      <Section title="CDM Information">
        {checkbox('dxusedforcharge')}
        {checkbox('CDMok')}
        {checkbox('controlledCDM')}
      </Section>

      <fieldset className="rounded-xl border border-slate-200 p-4">
        <legend className="px-1 text-base font-semibold text-ink">Comments</legend>
        <FormField field={comment} label={LABELS.comment} labelClassName={`block ${labelClass}`}>
          {(control) => (
            <textarea
              {...comment.inputProps}
              {...control}
              rows={4}
              maxLength={PTDISEASE_LIMITS.comment}
              className={inputClass}
            />
          )}
        </FormField>
      </fieldset>

      <DialogActions
        leave={{ to: cancelTo, label: 'Cancel' }}
        submit={{ label: 'Save Record', busyLabel: 'Saving...', busy: saving }}
      />
    </Form>
  )
}
