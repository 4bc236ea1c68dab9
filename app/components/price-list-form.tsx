/** The administrators' price list form: the tiers (up to how many days, and the price), the sponsored settings. */
import { Form, useNavigation } from '@remix-run/react'
import { MAX_DISPLAY_DATES } from '#app/constants.ts'
import {
  categoryDaysField,
  categoryPriceField,
  MAX_PRICE_TIERS,
  ownPricesField,
  MAX_SPONSORED_SLOTS,
  NOTE_FIELD,
  NOTE_MAX,
  readPriceListForm,
  SLOTS_FIELD,
  SPONSORED_FIELD,
  tierDaysField,
  tierPriceField,
} from '#app/models/payments/price-list.ts'
import {
  freeDatesField,
  freeField,
  freePhotoField,
  freeVideoField,
} from '#app/models/payments/free-listing.ts'
import { useCheckedForm, type FormCheck, type FormReply } from './checked-form.tsx'
import { InputField } from './form-controls.tsx'
import { FormField, type FieldState } from './form-field.tsx'

const checkPriceList: FormCheck = (values) => readPriceListForm(values).problems ?? {}
const control = 'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2'
const ROWS = Array.from({ length: MAX_PRICE_TIERS }, (_, i) => i + 1)

/** A category on the form's free listing rows. */
export interface FreeListingRow {
  categoryID: number
  name: string
  hidden: boolean
}

/** A category on the form's "priced apart" rows: `own` its tiers in words when it has its own. */
export interface CategoryPriceRow extends FreeListingRow {
  own: string | null
}

export function PriceListForm({
  values,
  reply,
  freeRows = [],
  priceRows = [],
}: {
  values: Record<string, string>
  reply?: FormReply | null
  freeRows?: FreeListingRow[]
  priceRows?: CategoryPriceRow[]
}) {
  const navigation = useNavigation()
  const saving = navigation.state !== 'idle'
  const { formProps, field, formErrors, formErrorId } = useCheckedForm({
    id: 'price-list',
    reply,
    check: checkPriceList,
    // A refused post shows what was sent, an emptied row too.
    defaultValue: reply ? {} : values,
    browserChecksWithoutJs: true,
  })
  return (
    <Form method="post" {...formProps} className="mt-4 grid gap-5">
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
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">
          Price by number of display days (up to {MAX_PRICE_TIERS} tiers; the last one up to{' '}
          {MAX_DISPLAY_DATES} days; leave unused rows empty)
        </legend>
        <div className="mt-2 grid gap-3">
          {ROWS.map((n) => (
            <div key={n} className="grid grid-cols-2 gap-3">
              <InputField
                field={field(tierDaysField(n))}
                label={`Tier ${n}: up to how many days`}
                inputMode="numeric"
                maxLength={3}
                className={control}
              />
              <InputField
                field={field(tierPriceField(n))}
                label={`Tier ${n}: price in dollars`}
                inputMode="decimal"
                maxLength={12}
                className={control}
              />
            </div>
          ))}
        </div>
      </fieldset>
      <div className="grid grid-cols-2 gap-3">
        <InputField
          field={field(SPONSORED_FIELD)}
          label="Sponsored surcharge per day, in dollars"
          inputMode="decimal"
          maxLength={12}
          required
          className={control}
        />
        <InputField
          field={field(SLOTS_FIELD)}
          label={`Sponsored slots (0 to ${MAX_SPONSORED_SLOTS})`}
          inputMode="numeric"
          maxLength={2}
          required
          className={control}
        />
      </div>
      {priceRows.length > 0 ? (
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">
            Prices by category: tick a category to give it its own tiers (the same rules as above); any other
            has the prices above. An ad in several categories pays the highest of their prices.
          </legend>
          <div className="mt-2 grid gap-3">
            {priceRows.map((row) => {
              const names = [
                ownPricesField(row.categoryID),
                ...ROWS.flatMap((n) => [
                  categoryDaysField(row.categoryID, n),
                  categoryPriceField(row.categoryID, n),
                ]),
              ]
              const refused = names.some((name) => field(name).errors?.length)
              return (
                <details
                  key={row.categoryID}
                  open={Boolean(row.own) || refused}
                  className="rounded-md border border-slate-200 p-3"
                  data-testid={`price-row-${row.categoryID}`}
                >
                  <summary className="cursor-pointer text-sm font-medium text-slate-800">
                    {row.name}
                    {row.hidden ? ' (hidden)' : ''}: {row.own ?? 'the prices above'}
                  </summary>
                  <div className="mt-3 grid gap-3">
                    <Tick
                      field={field(ownPricesField(row.categoryID))}
                      label={`${row.name}: its own prices`}
                    />
                    {ROWS.map((n) => (
                      <div key={n} className="grid grid-cols-2 gap-3">
                        <InputField
                          field={field(categoryDaysField(row.categoryID, n))}
                          label={`${row.name}, tier ${n}: up to how many days`}
                          inputMode="numeric"
                          maxLength={3}
                          className={control}
                        />
                        <InputField
                          field={field(categoryPriceField(row.categoryID, n))}
                          label={`${row.name}, tier ${n}: price in dollars`}
                          inputMode="decimal"
                          maxLength={12}
                          className={control}
                        />
                      </div>
                    ))}
                  </div>
                </details>
              )
            })}
          </div>
        </fieldset>
      ) : null}
      {freeRows.length > 0 ? (
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">
            Free community listings: tick a category to list its ads free, with no card. An ad is free when
            every category it has is free; a free listing has at most the display dates given here, and a
            photo or a video only where ticked.
          </legend>
          <div className="mt-2 grid gap-3">
            {freeRows.map((row) => (
              <div
                key={row.categoryID}
                className="grid grid-cols-2 items-end gap-3 rounded-md border border-slate-200 p-3 sm:grid-cols-4"
                data-testid={`free-row-${row.categoryID}`}
              >
                <Tick
                  field={field(freeField(row.categoryID))}
                  label={`${row.name}${row.hidden ? ' (hidden)' : ''}: free`}
                />
                <InputField
                  field={field(freeDatesField(row.categoryID))}
                  label={`${row.name}: at most how many dates`}
                  inputMode="numeric"
                  maxLength={3}
                  className={control}
                />
                <Tick field={field(freePhotoField(row.categoryID))} label={`${row.name}: photo`} />
                <Tick field={field(freeVideoField(row.categoryID))} label={`${row.name}: video`} />
              </div>
            ))}
          </div>
        </fieldset>
      ) : null}
      <InputField
        field={field(NOTE_FIELD)}
        label="Note for the history (optional)"
        maxLength={NOTE_MAX}
        className={control}
      />
      <div className="flex justify-end">
        <button
          type="submit"
          disabled={saving}
          className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
        >
          {saving ? 'Saving...' : 'Save prices'}
        </button>
      </div>
    </Form>
  )
}

/** A box of the free listing rows: ticked sends "on", unticked nothing. */
function Tick({
  field,
  label,
}: {
  field: FieldState & { inputProps: { name: string; defaultValue?: string } }
  label: string
}) {
  return (
    <FormField
      field={field}
      label={label}
      className="flex flex-row-reverse items-center justify-end gap-2"
      labelClassName="text-sm text-slate-800"
    >
      {(props) => (
        <input
          {...props}
          type="checkbox"
          name={field.inputProps.name}
          defaultChecked={field.inputProps.defaultValue === 'on'}
          className="size-4"
        />
      )}
    </FormField>
  )
}
