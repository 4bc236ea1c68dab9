import type { ReactNode } from 'react'
import {
  REPEAT_MONTHS_MAX,
  REPEAT_WEEKS_MAX,
  WEEKDAY_NAMES,
  WEEKDAY_OF_MONTH_NAMES,
  type RepeatFormValues,
} from '#app/models/ads/repeat-rules.ts'

export const repeatInputClass = 'rounded-md border border-slate-300 px-2 py-1'

/** What each part of the repeat fields is given: the values, how to change them, and a field's errors drawn. */
export interface RepeatRuleProps {
  values: RepeatFormValues
  /** Changes the values (choosing a rule's field chooses its rule). */
  set: (changes: Partial<RepeatFormValues>) => void
  errorsOf: (name: keyof RepeatFormValues) => ReactNode
}

/** One of the "repeat" radio buttons: no repeat, weekly or monthly. */
export function RepeatKindOption({
  value,
  label,
  values,
  set,
}: { value: string; label: string } & Pick<RepeatRuleProps, 'values' | 'set'>) {
  return (
    <label className="flex items-center gap-2">
      <input
        type="radio"
        name="repeat"
        value={value}
        checked={values.repeat === value}
        onChange={() => set({ repeat: value })}
      />
      {label}
    </label>
  )
}

/** How long each rule runs: its field, the unit it counts in and the most it may be. */
const REPEAT_COUNTS = {
  weekly: { name: 'repeatWeeks', unit: 'weeks', max: REPEAT_WEEKS_MAX },
  monthly: { name: 'repeatMonths', unit: 'months', max: REPEAT_MONTHS_MAX },
} as const

/** "for [N] weeks" or "for [N] months": changing it chooses its rule. */
function RepeatCountField({
  rule,
  values,
  set,
  className,
}: { rule: keyof typeof REPEAT_COUNTS; className: string } & Pick<RepeatRuleProps, 'values' | 'set'>) {
  const { name, unit, max } = REPEAT_COUNTS[rule]
  return (
    <label className={className}>
      for
      <input
        type="number"
        name={name}
        aria-label={`Number of ${unit}`}
        min={1}
        max={max}
        value={values[name]}
        onChange={(e) => set({ repeat: rule, [name]: e.target.value })}
        className={`${repeatInputClass} w-20`}
      />
      {unit}
    </label>
  )
}

/** "Repeat every week on [weekdays] for [N] weeks". */
export function WeeklyRuleFields({ values, set, errorsOf }: RepeatRuleProps) {
  function toggleWeekday(day: string, on: boolean) {
    set({
      repeat: 'weekly',
      repeatWeekday: on ? [...values.repeatWeekday, day] : values.repeatWeekday.filter((d) => d !== day),
    })
  }
  return (
    <div>
      <RepeatKindOption value="weekly" label="Repeat every week on:" values={values} set={set} />
      <div className="ml-6 mt-1 flex flex-wrap gap-2">
        {WEEKDAY_NAMES.map((name, day) => (
          <label key={name} className="flex items-center gap-1">
            <input
              type="checkbox"
              name="repeatWeekday"
              value={String(day)}
              checked={values.repeatWeekday.includes(String(day))}
              onChange={(e) => toggleWeekday(String(day), e.target.checked)}
            />
            {name}
          </label>
        ))}
      </div>
      {errorsOf('repeatWeekday')}
      <RepeatCountField
        rule="weekly"
        values={values}
        set={set}
        className="ml-6 mt-1 flex items-center gap-2"
      />
      {errorsOf('repeatWeeks')}
    </div>
  )
}

/** The monthly rule's two choices: its label and options (value, name) of each. */
const MONTHLY_CHOICES = {
  repeatNth: {
    label: 'Which weekday of the month',
    options: WEEKDAY_OF_MONTH_NAMES.map(([nth, name]) => [String(nth), name]),
  },
  repeatMonthWeekday: { label: 'Weekday', options: WEEKDAY_NAMES.map((name, day) => [String(day), name]) },
} satisfies Record<string, { label: string; options: Array<[value: string, name: string]> }>

/** The nth or the weekday of the monthly rule: choosing one chooses the monthly rule. */
function MonthlyRuleSelect({
  name,
  values,
  set,
}: { name: keyof typeof MONTHLY_CHOICES } & Pick<RepeatRuleProps, 'values' | 'set'>) {
  const { label, options } = MONTHLY_CHOICES[name]
  return (
    <select
      name={name}
      aria-label={label}
      value={values[name]}
      onChange={(e) => set({ repeat: 'monthly', [name]: e.target.value })}
      className={repeatInputClass}
    >
      {options.map(([value, optionName]) => (
        <option key={value} value={value}>
          {optionName}
        </option>
      ))}
    </select>
  )
}

/** "Repeat every month on the [nth] [weekday] for [N] months". */
export function MonthlyRuleFields({ values, set, errorsOf }: RepeatRuleProps) {
  return (
    <div>
      <RepeatKindOption value="monthly" label="Repeat every month on the:" values={values} set={set} />
      <div className="ml-6 mt-1 flex flex-wrap items-center gap-2">
        <MonthlyRuleSelect name="repeatNth" values={values} set={set} />
        <MonthlyRuleSelect name="repeatMonthWeekday" values={values} set={set} />
        <RepeatCountField rule="monthly" values={values} set={set} className="flex items-center gap-2" />
      </div>
      {errorsOf('repeatNth')}
      {errorsOf('repeatMonths')}
    </div>
  )
}
