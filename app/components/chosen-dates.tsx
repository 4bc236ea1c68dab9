import { WEEKDAY_NAMES } from '#app/models/ads/repeat-rules.ts'
import { formatShortDate } from '#app/utils/format.ts'
import { weekdayOf } from '#app/utils/time.ts'

/** Every display date of an ad, one by one with its weekday ("Fri, Dec 4, 2026"), as the advertiser will pay for them. */
export function ChosenDates({ dates }: { dates: readonly string[] }) {
  return (
    <section aria-labelledby="chosen-dates-heading" className="mt-2">
      <h3 id="chosen-dates-heading" className="text-sm font-semibold">
        Display dates ({dates.length})
      </h3>
      <ul className="mt-1 flex flex-wrap gap-2 text-sm" data-testid="chosen-dates">
        {dates.map((date) => (
          <li key={date} className="rounded-md border border-slate-200 px-2 py-0.5">
            <time dateTime={date}>
              {WEEKDAY_NAMES[weekdayOf(date)]?.slice(0, 3)}, {formatShortDate(date, { withYear: true })}
            </time>
          </li>
        ))}
      </ul>
    </section>
  )
}
