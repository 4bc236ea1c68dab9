import { addDaysIso } from '#app/utils/time.ts'

export interface CalendarDay {
  date: string
  day: number
  /** Before today or after the last bookable date: not offered. */
  unavailable: boolean
}

export interface CalendarMonth {
  key: string
  label: string
  /** Leading blanks so the first day falls under its weekday (weeks start on Sunday). */
  leadingBlanks: number
  days: CalendarDay[]
}

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

/** `count` months starting with the month of `today`, for the display-date picker; only today…`lastDate` can be picked. */
export function calendarMonths(today: string, count: number, lastDate: string): CalendarMonth[] {
  const [y, m] = today.split('-').map(Number) as [number, number]
  return Array.from({ length: count }, (_, i) => {
    const year = y + Math.floor((m - 1 + i) / 12)
    const month = ((m - 1 + i) % 12) + 1
    const first = `${year}-${String(month).padStart(2, '0')}-01`
    const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate()
    const leadingBlanks = new Date(Date.UTC(year, month - 1, 1)).getUTCDay()
    return {
      key: first.slice(0, 7),
      label: `${MONTH_NAMES[month - 1]} ${year}`,
      leadingBlanks,
      days: Array.from({ length: daysInMonth }, (_, d) => {
        const date = addDaysIso(first, d)
        return { date, day: d + 1, unavailable: date < today || date > lastDate }
      }),
    }
  })
}
