import type { InputHTMLAttributes, ReactNode } from 'react'
import {
  ALL_CATEGORIES,
  CALENDAR_FILTER_PARAMS as P,
  FILTER_TEXT_MAX,
  HIDE_CANCELLED_LABEL,
  NEAR_RADII,
} from '#app/models/calendar/calendar-filters.ts'
import { ACCESSIBILITY_FEATURES, ACCESSIBILITY_LABELS } from '#app/models/ads/practical-facts.ts'

export const filterInputClasses =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200'
export const filterLabelClasses = 'block text-sm font-medium text-slate-800'

/** What the calendar's filter fields show, as the form sends it back. */
export interface FilterFieldValues {
  keyword: string
  /** '' or ALL_CATEGORIES: every category. */
  category: string
  zip: string
  near: string
  radius: string
  sort: string
  from: string
  to: string
  free: boolean
  online: boolean
  access: readonly string[]
  hideCancelled?: boolean
}

function FilterInput({
  id,
  label,
  ...input
}: { id: string; label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div>
      <label htmlFor={id} className={filterLabelClasses}>
        {label}
      </label>
      <input id={id} {...input} className={filterInputClasses} />
    </div>
  )
}

function FilterSelect({
  id,
  label,
  name,
  value,
  children,
}: {
  id: string
  label: string
  name: string
  value: string
  children: ReactNode
}) {
  return (
    <div>
      <label htmlFor={id} className={filterLabelClasses}>
        {label}
      </label>
      <select id={id} name={name} defaultValue={value} className={filterInputClasses}>
        {children}
      </select>
    </div>
  )
}

/**
 * The calendar's filters (in its order, then the distance filter) as form fields, for every form that sets them: the
 * calendar's own and the embed builder's. `idPrefix` keeps the ids of two forms on one page apart.
 */
export function CalendarFilterFields({
  idPrefix,
  values,
  categories,
  nearMe,
}: {
  idPrefix: string
  values: FilterFieldValues
  categories: string[]
  /** Shown under the "Near ZIP" field (the calendar's "Use my location"). */
  nearMe?: ReactNode
}) {
  const selected = values.category || ALL_CATEGORIES
  // A category typed into the URL that no longer exists still shows as selected.
  const options =
    categories.includes(selected) || selected === ALL_CATEGORIES ? categories : [...categories, selected]
  const id = (name: string) => `${idPrefix}-${name}`
  return (
    <>
      <FilterInput
        id={id('keyword')}
        label="Keyword"
        name={P.keyword}
        type="search"
        defaultValue={values.keyword}
        maxLength={FILTER_TEXT_MAX.keyword}
      />
      <FilterSelect id={id('category')} label="Category" name={P.category} value={selected}>
        <option value={ALL_CATEGORIES}>{ALL_CATEGORIES}</option>
        {options.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </FilterSelect>
      <FilterInput
        id={id('zip')}
        label="ZIP Code"
        name={P.zip}
        type="text"
        inputMode="numeric"
        autoComplete="postal-code"
        defaultValue={values.zip}
        maxLength={FILTER_TEXT_MAX.zip}
      />
      <fieldset className="grid gap-3">
        <legend className="sr-only">Dates</legend>
        <FilterInput
          id={id('from')}
          label="Date(s) From"
          name={P.from}
          type="date"
          defaultValue={values.from}
        />
        <FilterInput id={id('to')} label="To" name={P.to} type="date" defaultValue={values.to} />
      </fieldset>
      <fieldset className="grid gap-3">
        <legend className={filterLabelClasses}>Near</legend>
        <FilterInput
          id={id('near')}
          label="Near ZIP"
          name={P.near}
          type="text"
          inputMode="numeric"
          autoComplete="postal-code"
          defaultValue={values.near}
          maxLength={10}
        />
        {nearMe}
        <FilterSelect id={id('radius')} label="Within" name={P.radius} value={values.radius}>
          {NEAR_RADII.map((miles) => (
            <option key={miles} value={miles}>
              {miles} miles
            </option>
          ))}
        </FilterSelect>
        <FilterSelect id={id('sort')} label="Order" name={P.sort} value={values.sort}>
          <option value="soonest">Soonest first</option>
          <option value="nearest">Nearest first (with a ZIP code)</option>
        </FilterSelect>
      </fieldset>
      <FactFilterFields values={values} />
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input
          type="checkbox"
          name={P.hideCancelled}
          value="1"
          defaultChecked={values.hideCancelled ?? false}
        />
        {HIDE_CANCELLED_LABEL}
      </label>
    </>
  )
}

/** Free, Online and the accessibility facts: checkboxes, each AND-ed with the other filters. */
function FactFilterFields({ values }: { values: Pick<FilterFieldValues, 'free' | 'online' | 'access'> }) {
  const boxes: Array<[name: string, value: string, label: string, checked: boolean]> = [
    [P.free, '1', 'Free', values.free],
    [P.online, '1', 'Online', values.online],
    ...ACCESSIBILITY_FEATURES.map(
      (feature) =>
        [P.access, feature, ACCESSIBILITY_LABELS[feature], values.access.includes(feature)] as [
          string,
          string,
          string,
          boolean,
        ],
    ),
  ]
  return (
    <fieldset className="grid gap-1 text-sm">
      <legend className={filterLabelClasses}>Only events that are</legend>
      {boxes.map(([name, value, label, checked]) => (
        <label key={`${name}-${value}`} className="flex items-center gap-2 text-slate-800">
          <input type="checkbox" name={name} value={value} defaultChecked={checked} />
          {label}
        </label>
      ))}
    </fieldset>
  )
}
