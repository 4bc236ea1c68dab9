import { ScheduleStatusBadge } from '#app/components/schedule-status.tsx'
import { EventLink } from '#app/components/event-link.tsx'
import { formatTimeOfDay, storedTimeOfDay } from '#app/models/ads/event-times.ts'
import type { DayEvents, MonthGrid } from '#app/models/calendar/calendar-month.ts'
import { weekdayOf } from '#app/utils/time.ts'

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const

export interface CalendarMonthProps {
  grid: MonthGrid
  days: DayEvents[]
  /** The list of cards for one day, with the same filters ("+k more"). */
  dayHref: (date: string) => string
  /** The grid of another month (yyyy-mm) with the same filters, or null when there is none before or after. */
  prevHref: string | null
  nextHref: string | null
}

export function moreEventsText(count: number) {
  return `+${count} more`
}

const navLinkClasses =
  'rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-50'

/**
 * A Sunday-first month grid of plain links. From the small breakpoint up it is seven columns; narrower, it is a list
 * of the days that have events (a phone never scrolls sideways).
 */
export function CalendarMonth({ grid, days, dayHref, prevHref, nextHref }: CalendarMonthProps) {
  const byDate = new Map(days.map((day) => [day.date, day]))
  const monthName = grid.label.split(' ')[0]
  return (
    <section aria-labelledby="month-heading" data-testid="calendar-month" className="mt-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="month-heading" className="text-xl font-bold text-ink">
          {grid.label}
        </h2>
        <nav aria-label="Months" className="flex gap-2">
          {prevHref ? (
            <a href={prevHref} rel="prev" className={navLinkClasses}>
              Previous month
            </a>
          ) : null}
          {nextHref ? (
            <a href={nextHref} rel="next" className={navLinkClasses}>
              Next month
            </a>
          ) : null}
        </nav>
      </div>

      {days.length === 0 ? (
        <p className="mt-4 rounded-md border border-slate-200 bg-slate-50 px-4 py-3 text-center text-slate-700">
          No events in {grid.label}. Try another month or adjust your filters.
        </p>
      ) : null}

      <div
        aria-hidden
        className="mt-4 hidden grid-cols-7 gap-px text-center text-xs font-semibold text-slate-600 sm:grid"
      >
        {WEEKDAYS.map((name) => (
          <div key={name}>{name.slice(0, 3)}</div>
        ))}
      </div>
      <ol className="mt-4 grid grid-cols-1 gap-2 sm:mt-1 sm:grid-cols-7 sm:gap-px sm:bg-slate-200 sm:p-px">
        {Array.from({ length: grid.leadingBlanks }, (_, i) => (
          <li key={`blank-${i}`} aria-hidden className="hidden bg-slate-50 sm:block" />
        ))}
        {grid.dates.map((date) => {
          const day = byDate.get(date)
          const dayNumber = Number(date.slice(8))
          return (
            <li
              key={date}
              data-date={date}
              className={`min-w-0 bg-white p-2 sm:min-h-24 ${day ? 'rounded-md border border-slate-200 sm:rounded-none sm:border-0' : 'hidden sm:block'}`}
            >
              <h3 className="text-sm font-semibold text-slate-700">
                <span className="sm:sr-only">
                  {WEEKDAYS[weekdayOf(date)]}, {monthName}{' '}
                </span>
                {dayNumber}
              </h3>
              {day ? (
                <ul className="mt-1 grid gap-1 text-sm">
                  {day.events.map((event) => (
                    <li key={event.eventID} className="min-w-0">
                      <DayEventWhen startTime={event.startTime} status={event.scheduleStatus} />
                      <EventLink
                        event={event}
                        className="block break-words font-medium text-brand-700 underline sm:line-clamp-2"
                      >
                        {event.eventTitle}
                      </EventLink>
                      {event.category.length > 0 ? (
                        <span className="block truncate text-xs text-slate-600">
                          {event.category.join(', ')}
                        </span>
                      ) : null}
                    </li>
                  ))}
                  {day.total > day.events.length ? (
                    <li>
                      <a href={dayHref(date)} className="text-xs font-semibold text-slate-800 underline">
                        {moreEventsText(day.total - day.events.length)}
                        <span className="sr-only">
                          {' '}
                          on {monthName} {dayNumber}
                        </span>
                      </a>
                    </li>
                  ) : null}
                </ul>
              ) : null}
            </li>
          )
        })}
        {Array.from({ length: (7 - ((grid.leadingBlanks + grid.dates.length) % 7)) % 7 }, (_, i) => (
          <li key={`trailing-${i}`} aria-hidden className="hidden bg-slate-50 sm:block" />
        ))}
      </ol>
    </section>
  )
}

/** A listed event's start time ("7:30 PM") and status label, above its title; nothing for an all-day event that is on. */
function DayEventWhen({ startTime, status }: { startTime?: string | null; status?: string | null }) {
  const time = storedTimeOfDay(startTime)
  if (!time && !status) return null
  return (
    <span data-testid="day-event-when" className="flex flex-wrap items-center gap-1 text-xs text-slate-700">
      {time ? (
        <time dateTime={time} className="font-semibold">
          {formatTimeOfDay(time)}
        </time>
      ) : null}
      <ScheduleStatusBadge status={status} />
    </span>
  )
}
