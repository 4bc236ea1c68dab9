import { formatDatesLine, formatShortDate } from '#app/utils/format.ts'
import { DATES_LOCKED_MESSAGE } from '#app/models/ads/event-rules.ts'
import type { CalendarMonth } from '#app/models/calendar/calendar.ts'
import type { RepeatFormValues } from '#app/models/ads/repeat-rules.ts'
import { RepeatDatesFields } from '#app/components/repeat-dates-fields.tsx'
import { DisplayDates } from './display-dates.tsx'
import { FieldErrors, FormField } from '#app/components/form-field.tsx'
import type { CheckedField } from './values.ts'

/** The ad's dates: the display-date picker and the optional event date, or, once paid, the dates paid for. */
export function DateFields({
  paid,
  months,
  today,
  lastDate,
  dates,
  eventDate,
  onToggleDate,
  onFillDates,
  repeat,
  onEventDate,
  field,
  freeNote,
}: {
  /** The free listing's limit of dates, when the ad is free. */
  freeNote?: string | null
  paid: boolean
  months: CalendarMonth[]
  today: string
  /** The last date that may be chosen (the booking horizon). */
  lastDate: string
  dates: string[]
  eventDate: string
  onToggleDate: (date: string, on: boolean) => void
  /** The display dates a repeat rule filled in. */
  onFillDates: (dates: string[]) => void
  /** The repeat fields a refused post sent. */
  repeat?: RepeatFormValues
  onEventDate: (value: string) => void
  field: (name: string) => CheckedField
}) {
  if (paid) return <PaidDates dates={dates} eventDate={eventDate} field={field} />
  return (
    <>
      <DisplayDates
        months={months}
        dates={dates}
        onToggle={onToggleDate}
        field={field('showAdDates')}
        freeNote={freeNote}
      />
      <RepeatDatesFields
        today={today}
        lastDate={lastDate}
        dates={dates}
        onFill={onFillDates}
        initial={repeat}
        field={field}
      />
      <FormField
        field={{ ...field('eventDate'), id: 'eventDate' }}
        label={
          <>
            Event date <span className="font-normal text-slate-500">(optional, a single day)</span>
          </>
        }
        labelClassName="block font-medium"
      >
        {(control) => (
          <input
            {...control}
            type="date"
            name="eventDate"
            min={today}
            max={lastDate}
            value={eventDate}
            onChange={(e) => onEventDate(e.target.value)}
            className="mt-1 rounded-md border border-slate-300 px-3 py-2"
          />
        )}
      </FormField>
    </>
  )
}

/** A paid ad's dates: shown, and sent back unchanged (the server refuses any change). */
function PaidDates({
  dates,
  eventDate,
  field,
}: {
  dates: string[]
  eventDate: string
  field: (name: string) => CheckedField
}) {
  const datesField = field('showAdDates')
  const shown = datesField.errors ? datesField : field('eventDate')
  return (
    <section aria-labelledby="paid-dates-heading" className="rounded-xl border border-slate-200 p-4">
      <h2 id="paid-dates-heading" className="font-medium">
        Display dates (paid for)
      </h2>
      <p className="mt-1 text-sm text-slate-700" data-testid="paid-dates">
        {formatDatesLine(dates, eventDate)}
        {eventDate ? ` · Event date ${formatShortDate(eventDate, { withYear: true })}` : ''}
      </p>
      <p className="mt-1 text-xs text-slate-600">{DATES_LOCKED_MESSAGE}</p>
      {dates.map((date) => (
        <input key={date} type="hidden" name="showAdDates" value={date} />
      ))}
      <input type="hidden" name="eventDate" value={eventDate} />
      <FieldErrors id={shown.errorId} errors={shown.errors} />
    </section>
  )
}
