/**
 * The event form's repeat fields, without zod: the browser fills the display dates with them, and the server expands
 * the same fields when the form is posted without JavaScript. Both read them here, so they agree.
 */
import { MAX_DISPLAY_DATES } from '#app/constants.ts'
import {
  expandRepeatRule,
  mergeDates,
  type RepeatRule,
  type WeekdayOfMonth,
} from '#app/utils/repeat-dates.ts'
import { isValidIsoDate } from '#app/utils/time.ts'
import { INVALID_DATE_MESSAGE, lastBookableDate, MAX_DATES_MESSAGE } from '#app/models/ads/event-rules.ts'

export const REPEAT_WEEKS_MAX = 52
export const REPEAT_MONTHS_MAX = 12

export const REPEAT_KINDS = ['', 'weekly', 'monthly'] as const
export type RepeatKind = (typeof REPEAT_KINDS)[number]

/** The repeat fields as the form holds and posts them. */
export interface RepeatFormValues {
  /** '' = no repeat, 'weekly' or 'monthly' (anything else is refused). */
  repeat: string
  repeatWeekday: string[]
  repeatFrom: string
  repeatWeeks: string
  repeatNth: string
  repeatMonthWeekday: string
  repeatMonths: string
}

export const NO_REPEAT: RepeatFormValues = {
  repeat: '',
  repeatWeekday: [],
  repeatFrom: '',
  repeatWeeks: '4',
  repeatNth: '1',
  repeatMonthWeekday: '5',
  repeatMonths: '3',
}

export const WEEKDAY_NAMES = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const

export const WEEKDAY_OF_MONTH_NAMES: Array<[WeekdayOfMonth, string]> = [
  [1, 'first'],
  [2, 'second'],
  [3, 'third'],
  [4, 'fourth'],
  [-1, 'last'],
]

export const REPEAT_KIND_MESSAGE = 'Choose how the dates repeat'
export const REPEAT_WEEKDAY_MESSAGE = 'Choose at least one weekday to repeat on'
export const REPEAT_WEEKS_MESSAGE = `Repeat for 1 to ${REPEAT_WEEKS_MAX} weeks`
export const REPEAT_MONTHS_MESSAGE = `Repeat for 1 to ${REPEAT_MONTHS_MAX} months`
export const REPEAT_MONTH_DAY_MESSAGE = 'Choose which weekday of the month'
export const REPEAT_NO_DATES_MESSAGE = 'None of these dates can be booked: they must lie between today and'

/** The repeat fields of a posted form (`values`: each field's last value, `lists`: every value). */
export function repeatFormValues(
  values: Partial<Record<string, string>>,
  lists: Partial<Record<string, string[]>>,
): RepeatFormValues {
  const text = (name: keyof RepeatFormValues) => (values[name] ?? '').trim()
  return {
    repeat: text('repeat'),
    repeatWeekday: lists.repeatWeekday ?? [],
    repeatFrom: text('repeatFrom'),
    repeatWeeks: text('repeatWeeks'),
    repeatNth: text('repeatNth'),
    repeatMonthWeekday: text('repeatMonthWeekday'),
    repeatMonths: text('repeatMonths'),
  }
}

function wholeNumberIn(value: string, min: number, max: number): number | undefined {
  if (!/^\d{1,3}$/.test(value)) return undefined
  const n = Number(value)
  return n >= min && n <= max ? n : undefined
}

type RepeatProblems = Partial<Record<keyof RepeatFormValues, string>>

/** The rule the fields describe, or the problem per field; null when no repeat is asked for. */
export function repeatRuleOf(
  fields: RepeatFormValues,
): { rule: RepeatRule } | { problems: RepeatProblems } | null {
  if (!(REPEAT_KINDS as readonly string[]).includes(fields.repeat))
    return { problems: { repeat: REPEAT_KIND_MESSAGE } }
  if (fields.repeat === '') return null
  const problems: RepeatProblems = {}
  const from = fields.repeatFrom
  if (!isValidIsoDate(from)) problems.repeatFrom = INVALID_DATE_MESSAGE
  if (fields.repeat === 'weekly') {
    const weekdays = fields.repeatWeekday.map((d) => wholeNumberIn(d.trim(), 0, 6))
    if (weekdays.length === 0 || weekdays.includes(undefined)) problems.repeatWeekday = REPEAT_WEEKDAY_MESSAGE
    const weeks = wholeNumberIn(fields.repeatWeeks, 1, REPEAT_WEEKS_MAX)
    if (weeks === undefined) problems.repeatWeeks = REPEAT_WEEKS_MESSAGE
    if (Object.keys(problems).length > 0 || weeks === undefined) return { problems }
    return { rule: { kind: 'weekly', from, weekdays: weekdays as number[], weeks } }
  }
  const nth = WEEKDAY_OF_MONTH_NAMES.find(([n]) => String(n) === fields.repeatNth)?.[0]
  const weekday = wholeNumberIn(fields.repeatMonthWeekday, 0, 6)
  if (nth === undefined || weekday === undefined) problems.repeatNth = REPEAT_MONTH_DAY_MESSAGE
  const months = wholeNumberIn(fields.repeatMonths, 1, REPEAT_MONTHS_MAX)
  if (months === undefined) problems.repeatMonths = REPEAT_MONTHS_MESSAGE
  if (Object.keys(problems).length > 0 || nth === undefined || weekday === undefined || months === undefined)
    return { problems }
  return { rule: { kind: 'monthly', from, nth, weekday, months } }
}

/**
 * The display dates once the rule's are added to those already chosen, or the problem per field: the rule's own
 * fields, no bookable date in it (`repeat`), or more than {@link MAX_DISPLAY_DATES} dates in all (`repeat`, with the
 * specification's alert text). Without a rule, the chosen dates as they are.
 */
export function datesWithRepeat(
  fields: RepeatFormValues,
  chosen: readonly string[],
  { today }: { today: string },
): { dates: string[] } | { problems: RepeatProblems } {
  const asked = repeatRuleOf(fields)
  if (asked === null) return { dates: [...chosen] }
  if ('problems' in asked) return asked
  const lastDate = lastBookableDate(today)
  const added = expandRepeatRule(asked.rule, { today, lastDate })
  if (added.length === 0) return { problems: { repeat: `${REPEAT_NO_DATES_MESSAGE} ${lastDate}.` } }
  const dates = mergeDates(chosen, added)
  if (dates.length > MAX_DISPLAY_DATES) return { problems: { repeat: MAX_DATES_MESSAGE } }
  return { dates }
}
