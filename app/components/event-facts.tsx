import {
  eventTimesOf,
  formatEventWhen,
  formatTimeRange,
  NO_TIMES,
  type EventTimes,
} from '#app/models/ads/event-times.ts'
import { formatShortDate } from '#app/utils/format.ts'

/** A date as visitors read it ("Dec 18, 2026"), machine-readable too. */
export function EventDate({ date }: { date: string }) {
  return <time dateTime={date}>{formatShortDate(date, { withYear: true })}</time>
}

/** A date with its times: "Sat, Nov 29 · 7:30 PM – 10 PM" (or "Sat, Nov 29" all day), machine-readable too. */
export function EventWhen({ date, times = NO_TIMES }: { date: string; times?: EventTimes }) {
  return (
    <time dateTime={times.startTime ? `${date}T${times.startTime}` : date}>
      {formatEventWhen(date, times)}
    </time>
  )
}

/**
 * The card's line under the title: when (the next date, at its times) and the category. `times` as stored
 * (`hh:mm:ss`) or read (`hh:mm`).
 */
export const EVENT_ON_PREFIX = 'Event on '

export function EventWhenLine({
  date,
  category,
  startTime,
  endTime,
  eventOn = false,
}: {
  date: string | null
  category: readonly string[]
  startTime?: string | null
  endTime?: string | null
  /** The card was listed for one of its display dates: the date is said to be the event's ("Event on Mon, Dec 7"). */
  eventOn?: boolean
}) {
  const categories = category.join(', ')
  if (!date && !categories) return null
  return (
    <p data-testid="event-when" className="mt-1 text-sm font-medium text-slate-700">
      {date && eventOn ? EVENT_ON_PREFIX : null}
      {date ? <EventWhen date={date} times={eventTimesOf({ startTime, endTime })} /> : null}
      {date && categories ? ' · ' : null}
      {categories ? <span className="text-brand-700">{categories}</span> : null}
    </p>
  )
}

export interface EventPageFactsProps {
  /** Every date of the event (`eventDates`). */
  dates: readonly string[]
  /** Its times, the same on each date (none: all day). */
  times?: EventTimes
  /** Cancelled or postponed: no "Add to calendar" nor Google Calendar link. */
  off?: boolean
  category: readonly string[]
  /** The street address, '' when the business has none. */
  address: string
  mapUrl: string | null
  icsPath: string
  googleCalendarUrl: string
  shareUrl: string
}

const linkClasses =
  'inline-flex items-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50'

/** The event page's when, what and where, with links to add it to a calendar, find it on a map and share it. */
export function EventPageFacts({
  dates,
  times = NO_TIMES,
  off = false,
  category,
  address,
  mapUrl,
  icsPath,
  googleCalendarUrl,
  shareUrl,
}: EventPageFactsProps) {
  const timeRange = formatTimeRange(times)
  return (
    <div className="mt-3 grid gap-3">
      <dl
        data-testid="event-facts"
        className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm text-slate-800"
      >
        <dt className="font-semibold">{dates.length > 1 ? 'Dates' : 'Date'}</dt>
        <dd data-testid="event-dates">
          {dates.length === 0
            ? 'No dates'
            : dates.map((date, i) => (
                <span key={date}>
                  {i > 0 ? ', ' : null}
                  <EventDate date={date} />
                </span>
              ))}
        </dd>
        {timeRange ? (
          <>
            <dt className="font-semibold">Time</dt>
            <dd data-testid="event-time">{timeRange}</dd>
          </>
        ) : null}
        {category.length > 0 ? (
          <>
            <dt className="font-semibold">Category</dt>
            <dd>{category.join(', ')}</dd>
          </>
        ) : null}
        {address ? (
          <>
            <dt className="font-semibold">Where</dt>
            <dd>
              {address}
              {mapUrl ? (
                <>
                  {' · '}
                  <a href={mapUrl} rel="noopener noreferrer" className="text-brand-700 underline">
                    Map
                  </a>
                </>
              ) : null}
            </dd>
          </>
        ) : null}
      </dl>
      <ul aria-label="Event links" className="flex flex-wrap gap-2">
        {off ? null : (
          <>
            <li>
              <a href={icsPath} className={linkClasses} download>
                Add to calendar
              </a>
            </li>
            <li>
              <a href={googleCalendarUrl} rel="noopener noreferrer" className={linkClasses}>
                Google Calendar
              </a>
            </li>
          </>
        )}
        <li>
          <a href={shareUrl} className={linkClasses}>
            Share by email
          </a>
        </li>
      </ul>
    </div>
  )
}
