import type { CalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import { quickDateRanges } from '#app/utils/quick-dates.ts'

/** Today, This weekend, Next 7 days: plain links that set From and To and keep the other filters. */
export function QuickDates({
  filters,
  today,
  hrefFor,
}: {
  filters: CalendarFilters
  today: string
  hrefFor: (filters: CalendarFilters) => string
}) {
  const linkClasses = 'inline-block rounded-full px-3 py-1 font-medium'
  return (
    <nav aria-label="Quick dates" className="mt-3 text-sm">
      <ul className="flex flex-wrap gap-2">
        {quickDateRanges(today).map(({ label, from, to }) => {
          const current = filters.from === from && filters.to === to
          return (
            <li key={label}>
              <a
                href={hrefFor({ ...filters, from, to })}
                aria-current={current ? 'true' : undefined}
                className={
                  current
                    ? `${linkClasses} bg-brand-700 text-white`
                    : `${linkClasses} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50`
                }
              >
                {label}
              </a>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}
