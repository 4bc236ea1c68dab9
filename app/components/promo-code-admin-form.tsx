/** The administrators' form of a new promo code. */
import { Form, useNavigation } from '@remix-run/react'
import {
  normalizePromoCode,
  PROMO_CODE_MAX_LENGTH,
  PROMO_CODE_PATTERN,
  PROMO_TEXT,
} from '#app/models/payments/promo-code.ts'
import { primaryButtonClass } from './account-ui.tsx'
import { useCheckedForm, type FormCheck, type FormReply } from './checked-form.tsx'
import { ChoiceOptions, InputField } from './form-controls.tsx'
import { FormField } from './form-field.tsx'

const control = 'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2'

/** The browser's check for speed; the server's schema (promo-code-schema.ts) decides. */
const checkNewCode: FormCheck = (values) => {
  const problems: Record<string, string> = {}
  if (!PROMO_CODE_PATTERN.test(normalizePromoCode(values.code ?? ''))) problems.code = PROMO_TEXT.format
  if (!(values.value ?? '').trim())
    problems.value = values.kind === 'fixed' ? PROMO_TEXT.fixed : PROMO_TEXT.percent
  return problems
}

const KINDS = [
  ['percent', 'Percentage off'],
  ['fixed', 'Fixed amount off (dollars)'],
] as const

export function PromoCodeAdminForm({ reply }: { reply?: FormReply | null }) {
  const navigation = useNavigation()
  const saving = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'create'
  const { formProps, field, formErrors, formErrorId } = useCheckedForm({
    id: 'new-promo-code',
    reply,
    check: checkNewCode,
    trimmed: ['code', 'value', 'maxUses'],
  })
  const firstAdOnly = field('firstAdOnly')
  const kind = field('kind')
  return (
    <Form method="post" {...formProps} className="mt-4 grid gap-5">
      <input type="hidden" name="intent" value="create" />
      {formErrors.length ? (
        <div
          id={formErrorId}
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
        >
          {formErrors.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-3">
        <InputField
          field={field('code')}
          label="Code"
          autoComplete="off"
          spellCheck={false}
          maxLength={PROMO_CODE_MAX_LENGTH}
          className={control}
        />
        <FormField field={kind} label="Discount">
          {(props) => (
            <select
              {...props}
              name="kind"
              defaultValue={kind.inputProps.defaultValue ?? 'percent'}
              className={control}
            >
              <ChoiceOptions choices={KINDS} />
            </select>
          )}
        </FormField>
        <InputField
          field={field('value')}
          label="Percent or dollars off"
          inputMode="decimal"
          maxLength={12}
          className={control}
        />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <InputField
          field={field('expiresOn')}
          label="Last day it can be used (optional)"
          type="date"
          className={control}
        />
        <InputField
          field={field('maxUses')}
          label="Total uses (optional)"
          inputMode="numeric"
          maxLength={7}
          className={control}
        />
      </div>
      <FormField
        field={firstAdOnly}
        label="Only for a business's first paid ad"
        className="flex flex-row-reverse items-center justify-end gap-2"
        labelClassName="text-sm font-medium text-slate-800"
      >
        {(props) => (
          <input
            {...props}
            type="checkbox"
            name="firstAdOnly"
            defaultChecked={firstAdOnly.inputProps.defaultValue === 'on'}
            className="size-4"
          />
        )}
      </FormField>
      <p className="text-sm text-slate-600">Each business can use a code once.</p>
      <div>
        <button type="submit" disabled={saving} className={primaryButtonClass}>
          Create code
        </button>
      </div>
    </Form>
  )
}
