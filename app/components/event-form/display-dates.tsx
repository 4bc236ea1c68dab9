import { MAX_DISPLAY_DATES } from '#app/constants.ts'
import type { CalendarMonth } from '#app/models/calendar/calendar.ts'
import { FieldErrors } from '#app/components/form-field.tsx'
import type { CheckedField } from './values.ts'

const WEEKDAYS = ['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa']

/** The months to pick display dates from: checkboxes named showAdDates, so the form posts them without JavaScript. */
export function DisplayDates({
  months,
  dates,
  onToggle,
  field: { errors, errorId },
  freeNote,
}: {
  /** The free listing's limit of dates, when the ad is free. */
  freeNote?: string | null
  months: CalendarMonth[]
  dates: string[]
  onToggle: (date: string, checked: boolean) => void
  field: CheckedField
}) {
  const shown = new Set(months.flatMap((month) => month.days.map((day) => day.date)))
  // A repeat rule may reach past the months drawn: those dates are listed after them, to keep or remove.
  const later = dates.filter((date) => !shown.has(date))
  return (
    <fieldset>
      <legend className="font-medium">Display dates</legend>
      <p className="text-sm text-slate-600">
        Pick the days your ad runs (up to {MAX_DISPLAY_DATES}). Choose a date again to remove it.{' '}
        <span data-testid="dates-count">{dates.length} selected</span>
      </p>
      {freeNote ? (
        <p className="text-sm font-medium text-brand-700" data-testid="free-dates-limit">
          {freeNote}
        </p>
      ) : null}
      <div className="mt-3 grid gap-6 md:grid-cols-3">
        {months.map((month) => (
          <div key={month.key}>
            <p className="mb-2 text-sm font-semibold">{month.label}</p>
            <div className="grid grid-cols-7 gap-1 text-center text-xs">
              {WEEKDAYS.map((d) => (
                <span key={d} aria-hidden className="text-slate-500">
                  {d}
                </span>
              ))}
              {Array.from({ length: month.leadingBlanks }, (_, i) => (
                <span key={`blank-${i}`} />
              ))}
              {month.days.map((day) => (
                <label
                  key={day.date}
                  // The checkbox itself is visually hidden: the day drawn in its place shows the keyboard's focus.
                  className={`relative grid h-9 place-items-center rounded-md border text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-700 ${
                    day.unavailable
                      ? 'cursor-not-allowed border-transparent text-slate-300'
                      : 'cursor-pointer border-slate-200 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-600 has-[:checked]:text-white'
                  }`}
                >
                  <input
                    type="checkbox"
                    name="showAdDates"
                    value={day.date}
                    disabled={day.unavailable}
                    checked={dates.includes(day.date)}
                    onChange={(e) => onToggle(day.date, e.target.checked)}
                    className="sr-only"
                    aria-label={day.date}
                  />
                  {day.day}
                </label>
              ))}
            </div>
          </div>
        ))}
      </div>
      {later.length > 0 ? (
        <div className="mt-3 text-sm">
          <p className="font-semibold">Later dates</p>
          <div className="mt-1 flex flex-wrap gap-3">
            {later.map((date) => (
              <label key={date} className="flex items-center gap-1">
                <input
                  type="checkbox"
                  name="showAdDates"
                  value={date}
                  checked
                  onChange={(e) => onToggle(date, e.target.checked)}
                />
                {date}
              </label>
            ))}
          </div>
        </div>
      ) : null}
      <FieldErrors id={errorId} errors={errors} />
    </fieldset>
  )
}
