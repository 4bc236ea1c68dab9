/** The calendar's own links: its list, its month grid and a day of the grid, for a set of filters. */
import { calendarSearchParams, type CalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import { CALENDAR_VIEW_PARAMS } from '#app/models/calendar/calendar-month.ts'

/** The calendar's URL for these filters and page. */
export function calendarHref(filters: CalendarFilters, page = 1) {
  const query = calendarSearchParams(filters, page).toString()
  return `/calendar${query ? `?${query}` : ''}`
}

/** The month grid's URL for these filters and month (yyyy-mm; null = the current month). */
export function calendarMonthHref(filters: CalendarFilters, month: string | null) {
  const params = calendarSearchParams(filters)
  params.set(CALENDAR_VIEW_PARAMS.view, 'month')
  if (month) params.set(CALENDAR_VIEW_PARAMS.month, month)
  return `/calendar?${params}`
}

/** The list of one day's events with these filters (a day of the month grid). */
export function calendarDayHref(filters: CalendarFilters, date: string) {
  return calendarHref({ ...filters, from: date, to: date })
}
