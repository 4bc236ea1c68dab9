/**
 * When an event happens on each of its dates: an optional start and end time of day in the platform time zone, the
 * same on every date. No start time means all day. An end before the start ends after midnight (the form asks the
 * advertiser to say so); an end without a start, or an end equal to the start, is refused.
 */
import { addDaysIso } from '#app/utils/time.ts'

/** A time of day as the forms and JSON calls send it and pages read it: `hh:mm`, 24-hour. */
export type TimeOfDay = string

export interface EventTimes {
  startTime: TimeOfDay | null
  endTime: TimeOfDay | null
}

export const NO_TIMES: EventTimes = { startTime: null, endTime: null }

export const INVALID_TIME_MESSAGE = 'Enter a time such as 19:30 (or 7:30 PM)'
export const END_WITHOUT_START_MESSAGE = 'Add a start time before an end time'
export const END_EQUALS_START_MESSAGE = 'The end time must differ from the start time'
export const END_BEFORE_START_MESSAGE =
  'The end time is before the start time: change it, or tick "Ends after midnight"'
export const ENDS_NEXT_DAY_WITHOUT_LATE_END_MESSAGE =
  '"Ends after midnight" needs an end time earlier than the start time (such as 22:00 to 01:00)'

const TIME_PATTERN = /^\s*(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(am|pm|a\.m\.|p\.m\.)?\s*$/i

/**
 * A typed or stored time as `hh:mm`: 24-hour (`19:30`, `19:30:00` as the database answers) or 12-hour (`7:30 PM`);
 * null for an empty value, undefined for one that is not a time.
 */
export function parseTimeOfDay(value: unknown): TimeOfDay | null | undefined {
  if (value === undefined || value === null) return null
  if (typeof value !== 'string') return undefined
  if (value.trim() === '') return null
  const match = TIME_PATTERN.exec(value)
  if (!match) return undefined
  let hours = Number(match[1])
  const minutes = Number(match[2])
  const seconds = match[3] === undefined ? 0 : Number(match[3])
  const meridiem = match[4]?.toLowerCase().replace(/\./g, '')
  if (minutes > 59 || seconds > 59) return undefined
  if (meridiem) {
    if (hours < 1 || hours > 12) return undefined
    hours = (hours % 12) + (meridiem === 'pm' ? 12 : 0)
  } else if (hours > 23) return undefined
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`
}

/** A stored time (`hh:mm:ss`) as `hh:mm`, or null. */
export function storedTimeOfDay(value: string | null | undefined): TimeOfDay | null {
  return parseTimeOfDay(value) ?? null
}

/** The ad's times as stored, read as `hh:mm` (null when not set). */
export function eventTimesOf(row: { startTime?: string | null; endTime?: string | null }): EventTimes {
  const startTime = storedTimeOfDay(row.startTime)
  return { startTime, endTime: startTime ? storedTimeOfDay(row.endTime) : null }
}

/** Whether the event ends on the day after it starts (an end before its start). */
export function endsAfterMidnight({ startTime, endTime }: EventTimes): boolean {
  return Boolean(startTime && endTime && endTime < startTime)
}

/**
 * What is wrong with these times, by field (none: they may be saved). `endsNextDay` is the advertiser's "Ends after
 * midnight"; without it an end before the start is a mistake.
 */
export function eventTimesProblems(
  startValue: unknown,
  endValue: unknown,
  endsNextDay = false,
): Partial<Record<'startTime' | 'endTime', string>> {
  const startTime = parseTimeOfDay(startValue)
  const endTime = parseTimeOfDay(endValue)
  const problems: Partial<Record<'startTime' | 'endTime', string>> = {}
  if (startTime === undefined) problems.startTime = INVALID_TIME_MESSAGE
  if (endTime === undefined) problems.endTime = INVALID_TIME_MESSAGE
  if (problems.startTime || problems.endTime) return problems
  if (endTime && !startTime) problems.endTime = END_WITHOUT_START_MESSAGE
  else if (startTime && endTime) {
    if (endTime === startTime) problems.endTime = END_EQUALS_START_MESSAGE
    else if (endTime < startTime && !endsNextDay) problems.endTime = END_BEFORE_START_MESSAGE
    else if (endTime > startTime && endsNextDay) problems.endTime = ENDS_NEXT_DAY_WITHOUT_LATE_END_MESSAGE
  }
  return problems
}

/** "7:30 PM", "10 PM", "12 PM" (noon), "12 AM" (midnight). */
export function formatTimeOfDay(time: TimeOfDay): string {
  const [h, m] = time.split(':').map(Number) as [number, number]
  const hour12 = h % 12 === 0 ? 12 : h % 12
  const meridiem = h < 12 ? 'AM' : 'PM'
  return m === 0 ? `${hour12} ${meridiem}` : `${hour12}:${String(m).padStart(2, '0')} ${meridiem}`
}

/** "7:30 PM – 10 PM", "10 PM – 1 AM (next day)", "7:30 PM", or null for an all-day event. */
export function formatTimeRange(times: EventTimes): string | null {
  if (!times.startTime) return null
  if (!times.endTime) return formatTimeOfDay(times.startTime)
  const nextDay = endsAfterMidnight(times) ? ' (next day)' : ''
  return `${formatTimeOfDay(times.startTime)} – ${formatTimeOfDay(times.endTime)}${nextDay}`
}

const shortDate = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
})

/** Dates already formatted: every card on a page formats one, and pages show the same few hundred dates. */
const shortDates = new Map<string, string>()
const SHORT_DATES_KEPT = 1_000

/** "Sat, Nov 29" for a yyyy-mm-dd date. */
export function formatShortDate(isoDate: string): string {
  let text = shortDates.get(isoDate)
  if (text === undefined) {
    text = shortDate.format(new Date(`${isoDate}T00:00:00Z`))
    if (shortDates.size >= SHORT_DATES_KEPT) shortDates.clear()
    shortDates.set(isoDate, text)
  }
  return text
}

/** When, on one date: "Sat, Nov 29 · 7:30 PM – 10 PM", or "Sat, Nov 29" for an all-day event. */
export function formatEventWhen(isoDate: string, times: EventTimes): string {
  const range = formatTimeRange(times)
  return range ? `${formatShortDate(isoDate)} · ${range}` : formatShortDate(isoDate)
}

/** The date and time an event on `isoDate` ends, when it has an end time (the next day when after midnight). */
export function endDateOf(isoDate: string, times: EventTimes): string {
  return endsAfterMidnight(times) ? addDaysIso(isoDate, 1) : isoDate
}

/**
 * Under a date filter, what a card says when the event's own date is outside the window and the ad matched on one of
 * its display dates: "Advertised today", or "Advertised Sat, Nov 28".
 */
export function advertisedText(displayDate: string, today: string): string {
  return displayDate === today ? 'Advertised today' : `Advertised ${formatShortDate(displayDate)}`
}

/** A row with its times as `hh:mm` or null (the database answers `hh:mm:ss`), as the JSON calls return it. */
export function withTimesOfDay<T extends { startTime?: string | null; endTime?: string | null }>(row: T): T {
  if (!('startTime' in row)) return row
  return { ...row, ...eventTimesOf(row) }
}
