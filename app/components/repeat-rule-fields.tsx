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
      <label className="ml-6 mt-1 flex items-center gap-2">
        for
        <input
          type="number"
          name="repeatWeeks"
          aria-label="Number of weeks"
          min={1}
          max={REPEAT_WEEKS_MAX}
          value={values.repeatWeeks}
          onChange={(e) => set({ repeat: 'weekly', repeatWeeks: e.target.value })}
          className={`${repeatInputClass} w-20`}
        />
        weeks
      </label>
      {errorsOf('repeatWeeks')}
    </div>
  )
}

/** "Repeat every month on the [nth] [weekday] for [N] months". */
export function MonthlyRuleFields({ values, set, errorsOf }: RepeatRuleProps) {
  return (
    <div>
      <RepeatKindOption value="monthly" label="Repeat every month on the:" values={values} set={set} />
      <div className="ml-6 mt-1 flex flex-wrap items-center gap-2">
        <select
          name="repeatNth"
          aria-label="Which weekday of the month"
          value={values.repeatNth}
          onChange={(e) => set({ repeat: 'monthly', repeatNth: e.target.value })}
          className={repeatInputClass}
        >
          {WEEKDAY_OF_MONTH_NAMES.map(([nth, name]) => (
            <option key={nth} value={String(nth)}>
              {name}
            </option>
          ))}
        </select>
        <select
          name="repeatMonthWeekday"
          aria-label="Weekday"
          value={values.repeatMonthWeekday}
          onChange={(e) => set({ repeat: 'monthly', repeatMonthWeekday: e.target.value })}
          className={repeatInputClass}
        >
          {WEEKDAY_NAMES.map((name, day) => (
            <option key={name} value={String(day)}>
              {name}
            </option>
          ))}
        </select>
        <label className="flex items-center gap-2">
          for
          <input
            type="number"
            name="repeatMonths"
            aria-label="Number of months"
            min={1}
            max={REPEAT_MONTHS_MAX}
            value={values.repeatMonths}
            onChange={(e) => set({ repeat: 'monthly', repeatMonths: e.target.value })}
            className={`${repeatInputClass} w-20`}
          />
          months
        </label>
      </div>
      {errorsOf('repeatNth')}
      {errorsOf('repeatMonths')}
    </div>
  )
}
