/**
 * Repeat rules for an ad's display dates: "every [weekdays] from [date] for [N] weeks" and "every month on the [nth
 * weekday] from [date] for [N] months". The rules work on calendar dates (yyyy-mm-dd), never on instants, so a week
 * that crosses a daylight-saving change in the platform time zone still steps seven calendar days.
 */
import { addDaysIso, weekdayOf } from './time.ts'

/** Which occurrence of a weekday in its month: 1–4, or -1 for the last one. */
export type WeekdayOfMonth = 1 | 2 | 3 | 4 | -1

export type RepeatRule =
  | {
      kind: 'weekly'
      from: string
      /** 0 = Sunday … 6 = Saturday. */
      weekdays: readonly number[]
      weeks: number
    }
  | { kind: 'monthly'; from: string; nth: WeekdayOfMonth; weekday: number; months: number }

/** The `nth` `weekday` of a month (`month` 1–12), e.g. the second Tuesday or the last Friday. */
export function nthWeekdayOfMonth(year: number, month: number, nth: WeekdayOfMonth, weekday: number): string {
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate()
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay()
  const last = new Date(Date.UTC(year, month - 1, daysInMonth)).getUTCDay()
  const day =
    nth === -1 ? daysInMonth - ((last - weekday + 7) % 7) : 1 + ((weekday - first + 7) % 7) + (nth - 1) * 7
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

/** Every date of the rule from its start, in order, up to the rule's own end (no window applied). */
function ruleDates(rule: RepeatRule, lastDate: string): string[] {
  const dates: string[] = []
  if (rule.kind === 'weekly') {
    const weekdays = new Set(rule.weekdays)
    for (let i = 0; i < rule.weeks * 7; i++) {
      const date = addDaysIso(rule.from, i)
      if (date > lastDate) break
      if (weekdays.has(weekdayOf(date))) dates.push(date)
    }
    return dates
  }
  let [year, month] = rule.from.split('-').map(Number) as [number, number]
  while (dates.length < rule.months) {
    const date = nthWeekdayOfMonth(year, month, rule.nth, rule.weekday)
    if (date > lastDate) break
    if (date >= rule.from) dates.push(date)
    month += 1
    if (month > 12) [year, month] = [year + 1, 1]
  }
  return dates
}

/**
 * The dates a rule gives that may be booked: from `today` to `lastDate` (the booking horizon), both included. A
 * monthly rule's N months are its first N dates on or after its start.
 */
export function expandRepeatRule(rule: RepeatRule, { today, lastDate }: { today: string; lastDate: string }) {
  return ruleDates(rule, lastDate).filter((date) => date >= today)
}

/** The chosen dates with the rule's added: once each, in order. */
export function mergeDates(chosen: readonly string[], added: readonly string[]): string[] {
  return [...new Set([...chosen, ...added])].sort()
}
