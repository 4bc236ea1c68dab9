/** The calendar's quick date choices: date windows (yyyy-mm-dd, inclusive) counted from today in the platform zone. */
import { addDaysIso, weekdayOf } from './time.ts'

export interface QuickDateRange {
  label: 'Today' | 'This weekend' | 'Next 7 days'
  from: string
  to: string
}

/** Saturday–Sunday: the coming one on a weekday, today and tomorrow on a Saturday, today alone on a Sunday. */
export function weekendFrom(today: string): { from: string; to: string } {
  const weekday = weekdayOf(today)
  if (weekday === 0) return { from: today, to: today }
  const saturday = addDaysIso(today, 6 - weekday)
  return { from: saturday, to: addDaysIso(saturday, 1) }
}

export function quickDateRanges(today: string): QuickDateRange[] {
  return [
    { label: 'Today', from: today, to: today },
    { label: 'This weekend', ...weekendFrom(today) },
    { label: 'Next 7 days', from: today, to: addDaysIso(today, 6) },
  ]
}
