import { FormField } from '#app/components/form-field.tsx'
import { endsAfterMidnight, eventTimesOf } from '#app/models/ads/event-times.ts'
import type { CheckedField, EventFormValues } from './values.ts'

export const ALL_DAY_HINT = 'Leave empty for an all-day event'

const inputClass = 'mt-1 rounded-md border border-slate-300 px-3 py-2'

/** Whether "Ends after midnight" starts ticked: as posted, or read from the saved times. */
function endsNextDayOf(values: EventFormValues) {
  return values.endsNextDay ?? endsAfterMidnight(eventTimesOf(values))
}

/** The times as the form holds them (read when the preview opens). */
export function timesIn(form: HTMLFormElement) {
  const value = (name: string) => form.elements.namedItem(name) as HTMLInputElement | null
  return {
    startTime: value('startTime')?.value ?? '',
    endTime: value('endTime')?.value ?? '',
    endsNextDay: Boolean(value('endsNextDay')?.checked),
  }
}

/**
 * The ad's start and end time, the same on every date (none: all day). They stay editable after payment, unlike the
 * dates; the browser checks them with the server's rules (event-times.ts).
 */
export function TimeFields({
  initial,
  field,
}: {
  initial: EventFormValues
  field: (name: string) => CheckedField
}) {
  return (
    <fieldset className="grid gap-3">
      <legend className="font-medium">
        Time <span className="font-normal text-slate-500">(optional, the same on every date)</span>
      </legend>
      <div className="flex flex-wrap items-start gap-4">
        <FormField
          field={{ ...field('startTime'), id: 'startTime' }}
          label="Start time"
          description={ALL_DAY_HINT}
        >
          {(control) => (
            <input
              {...control}
              type="time"
              name="startTime"
              defaultValue={initial.startTime ?? ''}
              className={inputClass}
            />
          )}
        </FormField>
        <FormField field={{ ...field('endTime'), id: 'endTime' }} label="End time">
          {(control) => (
            <input
              {...control}
              type="time"
              name="endTime"
              defaultValue={initial.endTime ?? ''}
              className={inputClass}
            />
          )}
        </FormField>
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="endsNextDay" value="on" defaultChecked={endsNextDayOf(initial)} />
        Ends after midnight
      </label>
    </fieldset>
  )
}
