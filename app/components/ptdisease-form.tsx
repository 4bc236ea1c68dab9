import '#app/zod-config.ts'
import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form, Link, useLocation, useNavigate, useNavigation } from '@remix-run/react'
import { format, parseISO } from 'date-fns'
import { useEffect, useId, useMemo, type ReactNode } from 'react'
import { toast } from '#app/components/toaster.tsx'
import { ModalBackdrop } from '#app/components/modal-backdrop.tsx'
import {
  PTDISEASE_FIELD_LABELS as LABELS,
  PTDISEASE_LIMITS,
  PTDISEASE_SEXES,
  buildPtdiseaseSchema,
  type PtdiseaseInputValues,
} from '#app/models/ptdisease-schema.ts'

/** yyyy-mm-dd (or a timestamp) as MM/dd/yyyy; an empty date as an em dash. */
export function formatRecordDate(value: string | null | undefined): string {
  if (!value) return '—'
  const date = parseISO(value)
  return Number.isNaN(date.getTime()) ? value : format(date, 'MM/dd/yyyy')
}

const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ' +
  'focus:border-brand-500 focus:ring-1 focus:ring-brand-500 focus:outline-none aria-[invalid=true]:border-red-600'

type Field = FieldMetadata<unknown, Record<string, unknown>, string[]>

function FieldErrors({ field }: { field: Field }) {
  if (!field.errors?.length) return null
  return (
    <p id={field.errorId} className="mt-1 text-sm text-red-700">
      {field.errors.join(' ')}
    </p>
  )
}

/** The required mark sits outside the label so the label's text (and the field's accessible name) is exact. */
function FieldLabel({
  field,
  children,
  required,
}: {
  field: Field
  children: ReactNode
  required?: boolean
}) {
  return (
    <div className="flex gap-1 text-sm font-medium text-slate-700">
      <label htmlFor={field.id}>{children}</label>
      {required ? (
        <span className="text-red-600" aria-hidden>
          *
        </span>
      ) : null}
    </div>
  )
}

function InputField({
  field,
  label,
  type = 'text',
  required,
  autoFocus,
  hint,
  ...native
}: {
  field: Field
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
  const { key, ...props } = getInputProps(field, { type })
  return (
    <div>
      <FieldLabel field={field} required={required}>
        {label}
      </FieldLabel>
      <input key={key} {...props} {...native} autoFocus={autoFocus} className={inputClass} />
      {hint ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
      <FieldErrors field={field} />
    </div>
  )
}

function CheckboxField({ field, label }: { field: Field; label: string }) {
  const { key, ...props } = getInputProps(field, { type: 'checkbox' })
  return (
    <div>
      <div className="flex items-center gap-2">
        <input key={key} {...props} className="size-4 rounded border-slate-300 accent-brand-600" />
        <label htmlFor={field.id} className="text-sm font-medium text-slate-700">
          {label}
        </label>
      </div>
      <FieldErrors field={field} />
    </div>
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

export interface PtdiseaseFormProps {
  intent: 'create' | 'update'
  recordId?: number
  defaultValue?: Partial<PtdiseaseInputValues>
  /** What the server sent back after a failed save. */
  lastResult?: SubmissionResult<string[]> | null
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
  const schema = useMemo(() => buildPtdiseaseSchema(() => today), [today])
  const constraint = useMemo(() => getZodConstraint(schema), [schema])
  const [form, fields] = useForm({
    id: intent === 'create' ? 'ptdisease-create' : `ptdisease-edit-${recordId}`,
    lastResult: lastResult ?? undefined,
    // conform serialises numbers, booleans ('on') and nulls itself; the schema's input type is `unknown`.
    defaultValue: defaultValue as Record<string, string | null | undefined> | undefined,
    constraint,
    // Without JavaScript the browser's own checks (required, maxlength, min/max) still apply.
    defaultNoValidate: false,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema, disableAutoCoercion: true }),
  })

  useEffect(() => {
    if (lastResult?.status === 'error' && message) {
      toast({ title: 'Error', description: message, variant: 'destructive' })
    }
  }, [lastResult, message])

  const saving = navigation.state !== 'idle' && navigation.formData?.get('intent') === intent
  const f = fields as unknown as Record<keyof PtdiseaseInputValues, Field>

  return (
    <Form
      method="post"
      action={`${location.pathname}${location.search}`}
      {...getFormProps(form)}
      className="grid gap-5"
      aria-describedby={form.errors?.length ? form.errorId : undefined}
    >
      <input type="hidden" name="intent" value={intent} />
      <p className="-mt-2 text-sm text-slate-600">
        Fields marked <span className="text-red-600">*</span> are required.
      </p>
      {recordId !== undefined ? <input type="hidden" name="id" value={recordId} /> : null}

      {form.errors?.length ? (
        <p
          id={form.errorId}
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
        >
          {form.errors.join(' ')}
        </p>
      ) : null}

      <Section title="Patient Information">
        <InputField field={f.mrn} label={LABELS.mrn} required autoFocus maxLength={PTDISEASE_LIMITS.mrn} />
        <InputField
          field={f.patientnumber}
          label={LABELS.patientnumber}
          inputMode="numeric"
          pattern="[0-9]*"
          hint="A positive whole number."
        />
        <div>
          <FieldLabel field={f.sexpatient}>{LABELS.sexpatient}</FieldLabel>
          {(() => {
            const { key, ...props } = getSelectProps(f.sexpatient)
            return (
              <select key={key} {...props} className={inputClass}>
                <option value="">Select…</option>
                {PTDISEASE_SEXES.map((sex) => (
                  <option key={sex} value={sex}>
                    {sex}
                  </option>
                ))}
              </select>
            )
          })()}
          <FieldErrors field={f.sexpatient} />
        </div>
        <InputField
          field={f.dob}
          label={LABELS.dob}
          type="date"
          min={PTDISEASE_LIMITS.dobEarliest}
          max={today}
        />
      </Section>

      <Section title="Disease Information">
        <InputField field={f.disease} label={LABELS.disease} required maxLength={PTDISEASE_LIMITS.disease} />
        <InputField
          field={f.diseasecode}
          label={LABELS.diseasecode}
          maxLength={PTDISEASE_LIMITS.code}
          hint="For example E11.9"
        />
        <InputField
          field={f.organsystem}
          label={LABELS.organsystem}
          maxLength={PTDISEASE_LIMITS.organsystem}
        />
        <InputField
          field={f.longshortproblem}
          label={LABELS.longshortproblem}
          maxLength={PTDISEASE_LIMITS.longshortproblem}
        />
      </Section>

      <Section title="Tracking Information">
        <InputField field={f.dateentered} label={LABELS.dateentered} type="date" />
        <InputField field={f.lastreviewed} label={LABELS.lastreviewed} type="date" />
        <InputField
          field={f.reviewInterval}
          label={LABELS.reviewInterval}
          type="number"
          min={0}
          max={PTDISEASE_LIMITS.reviewIntervalMaxDays}
          step={1}
        />
        <InputField field={f.questionsToAsk} label={LABELS.questionsToAsk} type="number" min={0} step={1} />
        <div className="grid grid-cols-2 gap-3 sm:col-span-2">
          <CheckboxField field={f.choose} label={LABELS.choose} />
          <CheckboxField field={f.finished} label={LABELS.finished} />
          <CheckboxField field={f.resolved} label={LABELS.resolved} />
          <CheckboxField field={f.ptanswered} label={LABELS.ptanswered} />
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
        <CheckboxField field={f.dxusedforcharge} label={LABELS.dxusedforcharge} />
        <CheckboxField field={f.CDMok} label={LABELS.CDMok} />
        <CheckboxField field={f.controlledCDM} label={LABELS.controlledCDM} />
      </Section>

      <fieldset className="rounded-xl border border-slate-200 p-4">
        <legend className="px-1 text-base font-semibold text-ink">Comments</legend>
        <label htmlFor={f.comment.id} className="block text-sm font-medium text-slate-700">
          {LABELS.comment}
        </label>
        {(() => {
          const { key, ...props } = getTextareaProps(f.comment)
          return (
            <textarea
              key={key}
              {...props}
              rows={4}
              maxLength={PTDISEASE_LIMITS.comment}
              className={inputClass}
            />
          )
        })()}
        <FieldErrors field={f.comment} />
      </fieldset>

      <div className="flex flex-wrap justify-end gap-3">
        <Link
          to={cancelTo}
          preventScrollReset
          className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium text-slate-700 hover:bg-slate-50"
        >
          Cancel
        </Link>
        <button
          type="submit"
          disabled={saving}
          className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
        >
          {saving ? 'Saving...' : 'Save Record'}
        </button>
      </div>
    </Form>
  )
}

/**
 * A child route shown as a dialog over the list. The same markup is the whole page without JavaScript;
 * with it, Escape and a click outside close the dialog and the list behind stays out of the tab order.
 */
export function PtdiseaseDialog({
  title,
  closeTo,
  children,
  size = 'large',
}: {
  title: string
  closeTo: string
  children: ReactNode
  size?: 'large' | 'small'
}) {
  const navigate = useNavigate()
  const titleId = useId()

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape' && !event.defaultPrevented) navigate(closeTo, { preventScrollReset: true })
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [closeTo, navigate])

  return (
    <ModalBackdrop zIndex="z-40" onBackdropClick={() => navigate(closeTo, { preventScrollReset: true })}>
      <dialog
        open
        aria-modal="true"
        aria-labelledby={titleId}
        className={`static mx-auto block w-full rounded-xl bg-white p-6 text-slate-900 shadow-xl ${
          size === 'large' ? 'max-w-3xl' : 'max-w-md'
        }`}
      >
        <div className="mb-4 flex items-start justify-between gap-4">
          <h2 id={titleId} className="text-2xl font-bold text-ink">
            {title}
          </h2>
          <Link
            to={closeTo}
            preventScrollReset
            className="rounded px-2 py-1 text-sm font-medium text-slate-600 underline hover:text-slate-900"
          >
            Close
          </Link>
        </div>
        {children}
      </dialog>
    </ModalBackdrop>
  )
}
