import { useState } from 'react'
import { useHydrated } from '#app/components/account-ui.tsx'
import { FieldErrors } from '#app/components/form-field.tsx'
import { MAX_DATES_MESSAGE } from '#app/models/ads/event-rules.ts'
import {
  datesWithRepeat,
  NO_REPEAT,
  REPEAT_KIND_MESSAGE,
  REPEAT_MONTHS_MAX,
  REPEAT_WEEKS_MAX,
  WEEKDAY_NAMES,
  WEEKDAY_OF_MONTH_NAMES,
  type RepeatFormValues,
} from '#app/models/ads/repeat-rules.ts'

type FieldState = { errors?: readonly string[] | null; errorId: string }

const inputClass = 'rounded-md border border-slate-300 px-2 py-1'

/**
 * "Repeat every [weekdays] from [date] for [N] weeks", or "every month on the [nth weekday]": with JavaScript,
 * "Add these dates" fills the display dates (single dates can still be toggled after); without it the fields are
 * posted with the form and the server adds the dates, which the preview lists before checkout.
 */
export function RepeatDatesFields({
  today,
  lastDate,
  dates,
  onFill,
  initial,
  field,
}: {
  today: string
  lastDate: string
  dates: string[]
  onFill: (dates: string[]) => void
  /** What a refused post sent. */
  initial?: RepeatFormValues
  field: (name: string) => FieldState
}) {
  const hydrated = useHydrated()
  const [values, setValues] = useState<RepeatFormValues>(initial ?? NO_REPEAT)
  const [problems, setProblems] = useState<Partial<Record<string, string>>>({})
  const set = (changes: Partial<RepeatFormValues>) => {
    setValues((current) => ({ ...current, ...changes }))
    setProblems({})
  }
  const errorsOf = (name: keyof RepeatFormValues) => {
    const own = problems[name]
    const shown = own ? { ...field(name), errors: [own] } : field(name)
    return <FieldErrors id={shown.errorId} errors={shown.errors} />
  }

  function fill() {
    if (values.repeat === '') {
      setProblems({ repeat: REPEAT_KIND_MESSAGE })
      return
    }
    const result = datesWithRepeat(values, dates, { today })
    if ('dates' in result) {
      onFill(result.dates)
      return
    }
    if (result.problems.repeat === MAX_DATES_MESSAGE) window.alert(MAX_DATES_MESSAGE)
    setProblems(result.problems)
  }

  const kind = (value: string, label: string) => (
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

  return (
    <fieldset className="rounded-xl border border-slate-200 p-4" data-testid="repeat-dates">
      <legend className="px-1 font-medium">Repeat dates</legend>
      <p className="text-sm text-slate-600">
        Choose a rule to add its dates to your display dates (from today up to {lastDate}).
      </p>
      <div className="mt-2 grid gap-3 text-sm">
        {kind('', 'Do not repeat')}
        <div>
          {kind('weekly', 'Repeat every week on:')}
          <div className="ml-6 mt-1 flex flex-wrap gap-2">
            {WEEKDAY_NAMES.map((name, day) => (
              <label key={name} className="flex items-center gap-1">
                <input
                  type="checkbox"
                  name="repeatWeekday"
                  value={String(day)}
                  checked={values.repeatWeekday.includes(String(day))}
                  onChange={(e) =>
                    set({
                      repeat: 'weekly',
                      repeatWeekday: e.target.checked
                        ? [...values.repeatWeekday, String(day)]
                        : values.repeatWeekday.filter((d) => d !== String(day)),
                    })
                  }
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
              className={`${inputClass} w-20`}
            />
            weeks
          </label>
          {errorsOf('repeatWeeks')}
        </div>
        <div>
          {kind('monthly', 'Repeat every month on the:')}
          <div className="ml-6 mt-1 flex flex-wrap items-center gap-2">
            <select
              name="repeatNth"
              aria-label="Which weekday of the month"
              value={values.repeatNth}
              onChange={(e) => set({ repeat: 'monthly', repeatNth: e.target.value })}
              className={inputClass}
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
              className={inputClass}
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
                className={`${inputClass} w-20`}
              />
              months
            </label>
          </div>
          {errorsOf('repeatNth')}
          {errorsOf('repeatMonths')}
        </div>
        <label className="flex items-center gap-2">
          From
          <input
            type="date"
            name="repeatFrom"
            aria-label="Repeat from"
            min={today}
            max={lastDate}
            value={values.repeatFrom}
            onChange={(e) => set({ repeatFrom: e.target.value })}
            className={inputClass}
          />
        </label>
        {errorsOf('repeatFrom')}
        {errorsOf('repeat')}
        {hydrated ? (
          <button
            type="button"
            onClick={fill}
            className="justify-self-start rounded-md border border-brand-700 px-3 py-1.5 font-medium text-brand-700"
          >
            Add these dates
          </button>
        ) : (
          <p className="text-xs text-slate-500">The dates are added when you preview your ad.</p>
        )}
      </div>
    </fieldset>
  )
}
