import '#app/zod-config.ts'
import { z } from 'zod'
import type { Event } from '#db/schema.ts'
import { MAX_DISPLAY_DATES, UNSET_DATE } from '#app/constants.ts'
import { isValidIsoDate } from '#app/utils/time.ts'
import {
  CHOOSE_CATEGORY_MESSAGE,
  CONTACT_EMAIL_MAX,
  CONTACT_EMAIL_TOO_LONG_MESSAGE,
  DATES_LOCKED_MESSAGE,
  displayDateProblem,
  EVENT_TEXT_RULES,
  eventDateProblem,
  INVALID_DATE_MESSAGE,
  INVALID_EMAIL_MESSAGE,
  MAX_DATES_MESSAGE,
  NO_DATES_MESSAGE,
} from '#app/models/ads/event-rules.ts'
import type { RepeatFormValues } from '#app/models/ads/repeat-rules.ts'
import { PLAIN_EMAIL_PATTERN } from '#app/models/platform/email-address.ts'
import {
  EMPTY_PRACTICAL_FACTS,
  factsFromFields,
  practicalFactProblems,
  practicalFactsOf,
  type PracticalFactFields,
  type PracticalFacts,
} from '#app/models/ads/practical-facts.ts'
import {
  eventTimesOf,
  eventTimesProblems,
  parseTimeOfDay,
  type EventTimes,
} from '#app/models/ads/event-times.ts'

export {
  DATES_LOCKED_MESSAGE,
  DISPLAY_DATE_HORIZON_MESSAGE,
  EVENT_DATE_HORIZON_MESSAGE,
  lastBookableDate,
  MAX_DATES_MESSAGE,
} from '#app/models/ads/event-rules.ts'

/**
 * What the event form shows and sends back, before the schema checks it: the facts as saved, or (`factFields`) as
 * they were typed.
 */
export interface EventFormValues extends Partial<PracticalFacts> {
  eventTitle: string
  eventDescription: string
  eventCategory: string[]
  showAdDates: string[]
  eventDate: string
  contactPerson: string
  contactPhone: string
  contactEmail: string
  /** Its times of day (`hh:mm`, or as typed after a refused post); none = all day. */
  startTime?: string | null
  endTime?: string | null
  /** "Ends after midnight" as ticked (a saved ad's is read from its times). */
  endsNextDay?: boolean
  /** The repeat fields a refused post without JavaScript sent (the form shows them again). */
  repeat?: RepeatFormValues
  factFields?: PracticalFactFields
}

const isoDate = z.string().trim().refine(isValidIsoDate, INVALID_DATE_MESSAGE)

/** Accepts one value or a list (form fields repeat; JSON may send either). */
function list<T extends z.ZodType>(item: T) {
  return z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : [v]),
    z.array(item),
  )
}

/** A check of event-rules.ts as a zod refinement: its message, if any, is the value's issue. */
function ruleCheck(problem: (value: string) => string | undefined) {
  return (value: string, ctx: z.RefinementCtx) => {
    const message = problem(value)
    if (message) ctx.addIssue({ code: 'custom', message })
  }
}

type TextRule = (typeof EVENT_TEXT_RULES)[keyof typeof EVENT_TEXT_RULES]

function requiredText({ requiredMessage, max, maxMessage }: TextRule & { requiredMessage: string }) {
  // A missing field reads as an empty one, so it gets the same message.
  return z.string({ error: requiredMessage }).trim().min(1, requiredMessage).max(max, maxMessage)
}

function optionalText({ max, maxMessage }: TextRule) {
  return z.string().trim().max(max, maxMessage).optional().default('')
}

const factText = z
  .union([z.string(), z.number()])
  .optional()
  .transform((v) => (v === undefined ? '' : String(v)))

/** The practical facts' fields as the form posts them; their rules are `practicalFactProblems`. */
const practicalFactFieldsShape = {
  ticketUrl: factText,
  priceType: factText,
  priceFrom: factText,
  attendanceMode: factText,
  venueAddress: factText,
  venueCity: factText,
  venueState: factText,
  venueZip: factText,
  onlineUrl: factText,
  accessibilityFeatures: list(z.string()),
  accessibilityNote: factText,
  accessibilityContact: factText,
  ageRange: factText,
}

/** The posted fields with their facts checked and stored as facts (the price in cents). */
function withPracticalFacts<T extends PracticalFactFields>(
  input: T,
  ctx: z.RefinementCtx,
): Omit<T, keyof PracticalFactFields> & PracticalFacts {
  for (const [field, message] of Object.entries(practicalFactProblems(input)))
    ctx.addIssue({ code: 'custom', path: [field], message })
  const rest = { ...input } as Record<string, unknown>
  for (const field of Object.keys(practicalFactFieldsShape)) delete rest[field]
  return { ...(rest as Omit<T, keyof PracticalFactFields>), ...factsFromFields(input) }
}

/** A ticked checkbox (`on`, or the value it carries) or JSON's true. */
export function isTicked(value: unknown) {
  return value === true || value === 'on' || value === 'true' || value === '1'
}

/** The times as the form and JSON calls send them, checked as a whole by `withEventTimes`. */
const eventTimesFieldsShape = {
  startTime: z.unknown().optional(),
  endTime: z.unknown().optional(),
  endsNextDay: z.unknown().optional().transform(isTicked),
}

/**
 * The posted times checked (event-times.ts, whose messages the browser shows too) and stored as `hh:mm` or null
 * (optional in the type only for inputs built in code: every parsed one has them).
 */
function withEventTimes<T extends { startTime?: unknown; endTime?: unknown; endsNextDay: boolean }>(
  input: T,
  ctx: z.RefinementCtx,
): Omit<T, 'startTime' | 'endTime' | 'endsNextDay'> & Partial<EventTimes> {
  const { startTime, endTime, endsNextDay, ...rest } = input
  for (const [field, message] of Object.entries(eventTimesProblems(startTime, endTime, endsNextDay)))
    ctx.addIssue({ code: 'custom', path: [field], message })
  return { ...rest, ...eventTimesOf({ startTime: timeOrNull(startTime), endTime: timeOrNull(endTime) }) }
}

function timeOrNull(value: unknown) {
  return parseTimeOfDay(value) ?? null
}

/** The dates an ad was paid for; an edit after payment must send them unchanged. */
export interface PaidDates {
  showAdDates: string[]
  eventDate: string
}

const sortedUnique = (dates: string[]) => [...new Set(dates)].sort()

/**
 * The event an advertiser submits (its submission payload), with the rules of event-rules.ts, which the browser
 * runs too. With `paidDates` (an edit after payment) the dates must be exactly those paid for, past ones included.
 */
export function eventInputSchema(options: EventSchemaOptions) {
  return eventFieldsSchema(options).transform((input, ctx) =>
    withEventTimes(withPracticalFacts(input, ctx), ctx),
  )
}

interface EventSchemaOptions {
  today: string
  paidDates?: PaidDates
  /** The ad may be saved without a category (the older form's draft), to be chosen before checkout. */
  categoryLater?: boolean
}

/** The posted fields, each checked on its own (the facts' rules look at several: `withPracticalFacts`). */
function eventFieldsSchema({ today, paidDates, categoryLater = false }: EventSchemaOptions) {
  const showAdDates = paidDates
    ? list(isoDate)
        .transform(sortedUnique)
        .refine((dates) => dates.join() === sortedUnique(paidDates.showAdDates).join(), DATES_LOCKED_MESSAGE)
    : list(
        z
          .string()
          .trim()
          .superRefine(ruleCheck((d) => displayDateProblem(d, today))),
      )
        .pipe(z.array(z.string()).min(1, NO_DATES_MESSAGE).max(MAX_DISPLAY_DATES, MAX_DATES_MESSAGE))
        .transform(sortedUnique)
  const eventDate = z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : UNSET_DATE))
  return z.object({
    eventTitle: requiredText(EVENT_TEXT_RULES.eventTitle),
    eventDescription: requiredText(EVENT_TEXT_RULES.eventDescription),
    eventCategory: list(z.string().trim().min(1, CHOOSE_CATEGORY_MESSAGE))
      .pipe(z.array(z.string()).min(categoryLater ? 0 : 1, CHOOSE_CATEGORY_MESSAGE))
      .transform((names) => [...new Set(names)]),
    showAdDates,
    eventDate: paidDates
      ? eventDate.refine((v) => v === paidDates.eventDate, DATES_LOCKED_MESSAGE)
      : eventDate.superRefine(ruleCheck((d) => eventDateProblem(d, today))),
    contactPerson: optionalText(EVENT_TEXT_RULES.contactPerson),
    contactPhone: optionalText(EVENT_TEXT_RULES.contactPhone),
    contactEmail: z
      .union([
        z.literal(''),
        z
          .email({ pattern: PLAIN_EMAIL_PATTERN, error: INVALID_EMAIL_MESSAGE })
          .max(CONTACT_EMAIL_MAX, CONTACT_EMAIL_TOO_LONG_MESSAGE),
      ])
      .optional()
      .default(''),
    ...practicalFactFieldsShape,
    ...eventTimesFieldsShape,
  })
}

export type EventInput = z.infer<ReturnType<typeof eventInputSchema>>

/** The older form's payload carries neither of today's category and display dates. */
export function isOlderEventForm(payload: Record<string, unknown>) {
  return !('eventCategory' in payload) && !('showAdDates' in payload)
}

/**
 * The older, unused event form (eventTitle, eventDescription, eventDate, …, contactName, contactPhone,
 * contactEmail, …) as an ad: its event date is the one display date, contactName the contact person, and the
 * category is left for the advertiser to choose before checkout; its start and end times are the ad's. Its other
 * fields (place, tickets, links, audience, acts, ad period) have no place on an ad and are ignored.
 */
export function olderEventFormSchema({ today }: { today: string }) {
  return z.preprocess(
    (payload) => {
      if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return payload
      const fields = payload as Record<string, unknown>
      return { ...fields, contactPerson: fields.contactPerson ?? fields.contactName }
    },
    eventFieldsSchema({ today, categoryLater: true })
      .omit({ showAdDates: true })
      .superRefine((input, ctx) => {
        if (input.eventDate === UNSET_DATE) {
          ctx.addIssue({ code: 'custom', path: ['eventDate'], message: NO_DATES_MESSAGE })
        }
      })
      .transform((input, ctx): EventInput => ({
        ...withEventTimes(withPracticalFacts(input, ctx), ctx),
        showAdDates: [input.eventDate],
      })),
  )
}

/** The dates a paid ad was paid for, which an edit keeps; none for an unpaid ad (everything may change). */
export function paidDatesOf(event: Event): PaidDates | undefined {
  return event.paymentStatus === 'pending'
    ? undefined
    : { showAdDates: event.showAdOnDates, eventDate: event.eventDate }
}

/** A saved ad's fields as they were submitted. */
export function eventInputFromEvent(event: Event): EventInput {
  return {
    eventTitle: event.eventTitle,
    eventDescription: event.eventDescription,
    eventCategory: event.category,
    showAdDates: event.showAdOnDates,
    eventDate: event.eventDate,
    contactPerson: event.contactPerson,
    contactPhone: event.contactPhone,
    contactEmail: event.contactEmail,
    ...practicalFactsOf(event),
    ...eventTimesOf(event),
  }
}

export { EMPTY_PRACTICAL_FACTS }
