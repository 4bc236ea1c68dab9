import { AppError } from '#app/utils/app-error.ts'
import { isValidIsoDate, monthBounds } from '#app/utils/time.ts'

/** The longest range the analytics answer for at once, in days (both ends included). */
export const MAX_ANALYTICS_DAYS = 366

export interface DateRange {
  from: string
  to: string
}

/** Days from `from` to `to`, both included. */
export function daysInRange({ from, to }: DateRange): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1
}

/**
 * `from` and `to` (yyyy-mm-dd, both included) from a query string: an invalid AppError naming the problem when either is missing
 * or not a date, when `to` is before `from`, or when the range is longer than MAX_ANALYTICS_DAYS.
 */
export function parseAnalyticsRange(query: URLSearchParams): DateRange {
  const from = query.get('from')
  const to = query.get('to')
  for (const [name, value] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (!value) throw new AppError(`${name}: a date (yyyy-mm-dd) is required`, 'invalid')
    if (!isValidIsoDate(value))
      throw new AppError(`${name}: "${value.slice(0, 20)}" is not a valid date (yyyy-mm-dd)`, 'invalid')
  }
  const range = { from: from!, to: to! }
  if (range.to < range.from) throw new AppError('to: the range ends before it starts', 'invalid')
  if (daysInRange(range) > MAX_ANALYTICS_DAYS)
    throw new AppError(`The range is longer than ${MAX_ANALYTICS_DAYS} days`, 'invalid')
  return range
}

/** As `parseAnalyticsRange`, with this month (the month of `today`) when neither end is given. */
export function analyticsRangeOrThisMonth(query: URLSearchParams, today: string): DateRange {
  if (!query.get('from') && !query.get('to')) {
    const { first, last } = monthBounds(today)
    return { from: first, to: last }
  }
  return parseAnalyticsRange(query)
}

/** Every day of the range, in order. */
export function daysOf({ from, to }: DateRange): string[] {
  const days: string[] = []
  const start = Date.parse(`${from}T00:00:00Z`)
  for (let i = 0; i < daysInRange({ from, to }); i++)
    days.push(new Date(start + i * 86_400_000).toISOString().slice(0, 10))
  return days
}

/** Clicks per view, as a percentage with one decimal ("—" without views). */
export function clickThroughRate({ views, clicks }: { views: number; clicks: number }): string {
  return views > 0 ? `${((clicks / views) * 100).toFixed(1)}%` : '—'
}
