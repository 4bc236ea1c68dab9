/**
 * The event form's rules without zod: the create and edit pages check fields in the browser with them, and their
 * script stays small. The server's schema (event-schema.ts) is built from the same table and messages, and decides.
 */
import {
  DATE_HORIZON_DAYS,
  DESCRIPTION_MAX,
  MAX_DISPLAY_DATES,
  TITLE_MAX,
  UNSET_DATE,
} from '#app/constants.ts'
import { addDaysIso, isValidIsoDate } from '#app/utils/time.ts'
import {
  FACT_FIELD_NAMES,
  practicalFactProblems,
  type PracticalFactFields,
} from '#app/models/ads/practical-facts.ts'
import { INVALID_EMAIL_MESSAGE, isSignInEmail } from '#app/models/accounts/sign-in-rules.ts'
import { eventTimesProblems } from '#app/models/ads/event-times.ts'

interface TextRule {
  /** The message for an empty value; an optional field has none. */
  requiredMessage?: string
  max: number
  maxMessage: string
}

export const EVENT_TEXT_RULES = {
  eventTitle: {
    requiredMessage: 'Title is required',
    max: TITLE_MAX,
    maxMessage: `Title must be at most ${TITLE_MAX} characters`,
  },
  eventDescription: {
    requiredMessage: 'Description is required',
    max: DESCRIPTION_MAX,
    maxMessage: `Description must be at most ${DESCRIPTION_MAX} characters`,
  },
  contactPerson: { max: 250, maxMessage: 'Contact name too long' },
  contactPhone: { max: 50, maxMessage: 'Phone number too long' },
} as const satisfies Record<string, TextRule>

export const CONTACT_EMAIL_MAX = 150
export const CONTACT_EMAIL_TOO_LONG_MESSAGE = 'Email too long'
export { INVALID_EMAIL_MESSAGE }

export const CHOOSE_CATEGORY_MESSAGE = 'Please choose a category'
export const INVALID_DATE_MESSAGE = 'Please enter a valid date'
export const NO_DATES_MESSAGE = 'Please choose at least one display date'
export const MAX_DATES_MESSAGE = `Max number for any event or special is ${MAX_DISPLAY_DATES} days`
export const PAST_DISPLAY_DATE_MESSAGE = 'Display dates cannot be in the past'
export const DISPLAY_DATE_HORIZON_MESSAGE = `Display dates can be at most ${DATE_HORIZON_DAYS} days ahead`
export const PAST_EVENT_DATE_MESSAGE = 'The event date cannot be in the past'
export const EVENT_DATE_HORIZON_MESSAGE = `The event date can be at most ${DATE_HORIZON_DAYS} days ahead`
export const DATES_LOCKED_MESSAGE =
  'The dates and cost of a paid ad cannot change: only its text, photo and video can be edited.'

/** The last date an ad may show on or an event may take place, {@link DATE_HORIZON_DAYS} after `today`. */
export function lastBookableDate(today: string) {
  return addDaysIso(today, DATE_HORIZON_DAYS)
}

/** The problem with one display date (trimmed), or undefined. */
export function displayDateProblem(date: string, today: string) {
  if (!isValidIsoDate(date)) return INVALID_DATE_MESSAGE
  if (date < today) return PAST_DISPLAY_DATE_MESSAGE
  if (date > lastBookableDate(today)) return DISPLAY_DATE_HORIZON_MESSAGE
  return undefined
}

/** The problem with the optional event date (trimmed; empty or the unset marker is none), or undefined. */
export function eventDateProblem(date: string, today: string) {
  if (date === '' || date === UNSET_DATE) return undefined
  if (!isValidIsoDate(date)) return INVALID_DATE_MESSAGE
  if (date < today) return PAST_EVENT_DATE_MESSAGE
  if (date > lastBookableDate(today)) return EVENT_DATE_HORIZON_MESSAGE
  return undefined
}

function textProblem(rule: TextRule, value: string) {
  const trimmed = value.trim()
  if (rule.requiredMessage && trimmed === '') return rule.requiredMessage
  return trimmed.length > rule.max ? rule.maxMessage : undefined
}

/** The contact email is stored as sent (not trimmed): empty, or an address. */
function contactEmailProblem(value: string) {
  if (value === '') return undefined
  // The looser sign-in check: the browser never refuses an address the server takes (event-schema.ts holds it to a
  // plain one).
  if (!isSignInEmail(value)) return INVALID_EMAIL_MESSAGE
  return value.length > CONTACT_EMAIL_MAX ? CONTACT_EMAIL_TOO_LONG_MESSAGE : undefined
}

/**
 * Every field's first problem, as the server would name it (only the fields with one). `values` has each field's
 * value, `lists` every value of the repeated fields (categories, display dates). `paid`: an edit after payment,
 * whose dates the server compares with those paid for.
 */
export function eventFormProblems(
  values: Partial<Record<string, string>>,
  lists: Partial<Record<string, string[]>>,
  { today, paid = false }: { today: string; paid?: boolean },
): Record<string, string> {
  const problems: Record<string, string | undefined> = {}
  for (const [field, rule] of Object.entries(EVENT_TEXT_RULES) as Array<[string, TextRule]>)
    problems[field] = textProblem(rule, values[field] ?? '')
  problems.contactEmail = contactEmailProblem(values.contactEmail ?? '')
  const categories = lists.eventCategory ?? []
  if (categories.length === 0 || categories.some((name) => name.trim() === ''))
    problems.eventCategory = CHOOSE_CATEGORY_MESSAGE
  if (!paid) {
    const dates = (lists.showAdDates ?? []).map((d) => d.trim())
    problems.showAdDates =
      dates.map((d) => displayDateProblem(d, today)).find(Boolean) ??
      (dates.length === 0 ? NO_DATES_MESSAGE : undefined) ??
      (dates.length > MAX_DISPLAY_DATES ? MAX_DATES_MESSAGE : undefined)
    problems.eventDate = eventDateProblem((values.eventDate ?? '').trim(), today)
  }
  // Times stay editable after payment, unlike dates.
  Object.assign(
    problems,
    eventTimesProblems(values.startTime ?? '', values.endTime ?? '', values.endsNextDay !== undefined),
  )
  const factFields = Object.fromEntries(FACT_FIELD_NAMES.map((name) => [name, values[name] ?? '']))
  Object.assign(
    problems,
    practicalFactProblems({
      ...(factFields as Omit<PracticalFactFields, 'accessibilityFeatures'>),
      accessibilityFeatures: lists.accessibilityFeatures ?? [],
    }),
  )
  return Object.fromEntries(
    Object.entries(problems).filter((entry): entry is [string, string] => entry[1] !== undefined),
  )
}
