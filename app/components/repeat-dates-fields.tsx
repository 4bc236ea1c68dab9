import { useRef, useState } from 'react'
import { useHydrated } from '#app/components/account-ui.tsx'
import { useFormAsLeftBeforeScripts } from '#app/components/checked-form.tsx'
import { FieldErrors } from '#app/components/form-field.tsx'
import { MAX_DATES_MESSAGE } from '#app/models/ads/event-rules.ts'
import {
  datesWithRepeat,
  NO_REPEAT,
  REPEAT_KIND_MESSAGE,
  repeatFormValues,
  type RepeatFormValues,
} from '#app/models/ads/repeat-rules.ts'
import {
  MonthlyRuleFields,
  RepeatKindOption,
  repeatInputClass,
  WeeklyRuleFields,
} from './repeat-rule-fields.tsx'

type FieldState = { errors?: readonly string[] | null; errorId: string }

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
  const fieldsetRef = useRef<HTMLFieldSetElement>(null)
  useFormAsLeftBeforeScripts(
    () => fieldsetRef.current?.form,
    (sent, lists) => setValues(repeatFormValues(sent, lists)),
  )
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

  const rule = { values, set, errorsOf }

  return (
    <fieldset ref={fieldsetRef} className="rounded-xl border border-slate-200 p-4" data-testid="repeat-dates">
      <legend className="px-1 font-medium">Repeat dates</legend>
      <p className="text-sm text-slate-600">
        Choose a rule to add its dates to your display dates (from today up to {lastDate}).
      </p>
      <div className="mt-2 grid gap-3 text-sm">
        <RepeatKindOption value="" label="Do not repeat" values={values} set={set} />
        <WeeklyRuleFields {...rule} />
        <MonthlyRuleFields {...rule} />
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
            className={repeatInputClass}
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
