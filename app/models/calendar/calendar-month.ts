import { OPEN_ENDED_DATE_LIMIT } from '#app/constants.ts'
import { AppError } from '#app/utils/app-error.ts'
import { calendarMonths } from '#app/models/calendar/calendar.ts'

/** The calendar's views: the list of cards (the default) and a month grid. */
export const CALENDAR_VIEWS = ['list', 'month'] as const
export type CalendarView = (typeof CALENDAR_VIEWS)[number]

export const CALENDAR_VIEW_PARAMS = { view: 'view', month: 'month' } as const

/** The months a visitor can open: nothing runs after the open-ended limit, and 2000 is long before any ad. */
export const FIRST_MONTH = '2000-01'
export const LAST_MONTH = OPEN_ENDED_DATE_LIMIT.slice(0, 7)

/** How many events a day of the grid lists; the rest are a "+k more" link to the list of that day. */
export const MONTH_DAY_EVENTS_LIMIT = 3

/** One event as a day of the month grid lists it. */
export interface DayEvent {
  eventID: number
  eventTitle: string
  category: string[]
  /** `hh:mm`; null = all day (listed first on its day). */
  startTime?: string | null
  /** Cancelled, postponed or sold out (schedule-status.ts); null = as advertised. */
  scheduleStatus?: string | null
}

export interface DayEvents {
  date: string
  /** The first `perDay` of the day's matches, by start time (all-day first), then id. */
  events: DayEvent[]
  /** Every match of the day. */
  total: number
}

/** `view` from the query string: absent = the list; anything but the known views is refused. */
export function parseCalendarView(value: string | null): CalendarView | null {
  const view = (value ?? '').trim() || 'list'
  return (CALENDAR_VIEWS as readonly string[]).includes(view) ? (view as CalendarView) : null
}

/** `month` (yyyy-mm) from the query string; absent = the month of `today`; a bad one is an invalid AppError. */
export function parseMonthParam(value: string | null, today: string): string {
  const month = (value ?? '').trim()
  if (!month) return today.slice(0, 7)
  const shown = month.length > 20 ? `${month.slice(0, 20)}…` : month
  const match = /^(\d{4})-(\d{2})$/.exec(month)
  if (!match || Number(match[2]) < 1 || Number(match[2]) > 12) {
    throw new AppError(`month: "${shown}" is not a month (yyyy-mm, e.g. ${today.slice(0, 7)})`, 'invalid')
  }
  if (month < FIRST_MONTH || month > LAST_MONTH) {
    throw new AppError(`month: "${shown}" is out of range (${FIRST_MONTH} to ${LAST_MONTH})`, 'invalid')
  }
  return month
}

export type CalendarViewRequest = { view: 'list' } | { view: 'month'; month: string }

/**
 * Which view a calendar query string asks for (and its month); a bad view or month is refused (an invalid AppError),
 * never guessed.
 */
export function calendarViewOf(searchParams: URLSearchParams, today: string): CalendarViewRequest {
  const raw = searchParams.get(CALENDAR_VIEW_PARAMS.view)
  const view = parseCalendarView(raw)
  if (!view) throw new AppError(`view must be one of: ${CALENDAR_VIEWS.join(', ')}`, 'invalid')
  if (view === 'list') return { view }
  return { view, month: parseMonthParam(searchParams.get(CALENDAR_VIEW_PARAMS.month), today) }
}

/** The month before or after `month` (yyyy-mm), or null past the range the calendar opens. */
export function shiftMonth(month: string, by: -1 | 1): string | null {
  const [y, m] = month.split('-').map(Number) as [number, number]
  const index = y * 12 + (m - 1) + by
  const next = `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`
  return next < FIRST_MONTH || next > LAST_MONTH ? null : next
}

export interface MonthGrid {
  month: string
  label: string
  first: string
  last: string
  /** Blank cells before the 1st so it falls under its weekday (weeks start on Sunday). */
  leadingBlanks: number
  dates: string[]
}

/** The days of `month` (yyyy-mm) laid out for a Sunday-first grid. */
export function monthGrid(month: string): MonthGrid {
  const [shape] = calendarMonths(`${month}-01`, 1, OPEN_ENDED_DATE_LIMIT)
  const dates = shape!.days.map((d) => d.date)
  return {
    month,
    label: shape!.label,
    first: dates[0]!,
    last: dates.at(-1)!,
    leadingBlanks: shape!.leadingBlanks,
    dates,
  }
}
