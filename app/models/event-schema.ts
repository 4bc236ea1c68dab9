import '#app/zod-config.ts'
import { z } from 'zod'
import type { Event } from '#db/schema.ts'
import {
  DATE_HORIZON_DAYS,
  DESCRIPTION_MAX,
  MAX_DISPLAY_DATES,
  TITLE_MAX,
  UNSET_DATE,
} from '#app/constants.ts'
import { addDaysIso, isValidIsoDate } from '#app/utils/time.ts'

/** What the event form shows and sends back, before the schema checks it. */
export interface EventFormValues {
  eventTitle: string
  eventDescription: string
  eventCategory: string[]
  showAdDates: string[]
  eventDate: string
  contactPerson: string
  contactPhone: string
  contactEmail: string
}

export const MAX_DATES_MESSAGE = `Max number for any event or special is ${MAX_DISPLAY_DATES} days`

export const DISPLAY_DATE_HORIZON_MESSAGE = `Display dates can be at most ${DATE_HORIZON_DAYS} days ahead`
export const EVENT_DATE_HORIZON_MESSAGE = `The event date can be at most ${DATE_HORIZON_DAYS} days ahead`

/** The last date an ad may show on or an event may take place, {@link DATE_HORIZON_DAYS} after `today`. */
export function lastBookableDate(today: string) {
  return addDaysIso(today, DATE_HORIZON_DAYS)
}

const isoDate = z.string().trim().refine(isValidIsoDate, 'Please enter a valid date')

/** Accepts one value or a list (form fields repeat; JSON may send either). */
function list<T extends z.ZodType>(item: T) {
  return z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : [v]),
    z.array(item),
  )
}

export const DATES_LOCKED_MESSAGE =
  'The dates and cost of a paid ad cannot change: only its text, photo and video can be edited.'

/** The dates an ad was paid for; an edit after payment must send them unchanged. */
export interface PaidDates {
  showAdDates: string[]
  eventDate: string
}

const sortedUnique = (dates: string[]) => [...new Set(dates)].sort()

/**
 * The event an advertiser submits (spec §3 submission payload), checked the same in the browser and on the server.
 * With `paidDates` (an edit after payment) the dates must be exactly those paid for, past ones included.
 */
export function eventInputSchema({ today, paidDates }: { today: string; paidDates?: PaidDates }) {
  const lastDate = lastBookableDate(today)
  const showAdDates = paidDates
    ? list(isoDate)
        .transform(sortedUnique)
        .refine((dates) => dates.join() === sortedUnique(paidDates.showAdDates).join(), DATES_LOCKED_MESSAGE)
    : list(
        isoDate
          .refine((d) => d >= today, 'Display dates cannot be in the past')
          .refine((d) => d <= lastDate, DISPLAY_DATE_HORIZON_MESSAGE),
      )
        .pipe(
          z
            .array(z.string())
            .min(1, 'Please choose at least one display date')
            .max(MAX_DISPLAY_DATES, MAX_DATES_MESSAGE),
        )
        .transform(sortedUnique)
  const eventDate = z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : UNSET_DATE))
  return z.object({
    eventTitle: z
      .string({ error: 'Title is required' })
      .trim()
      .min(1, 'Title is required')
      .max(TITLE_MAX, `Title must be at most ${TITLE_MAX} characters`),
    eventDescription: z
      .string({ error: 'Description is required' })
      .trim()
      .min(1, 'Description is required')
      .max(DESCRIPTION_MAX, `Description must be at most ${DESCRIPTION_MAX} characters`),
    eventCategory: list(z.string().trim().min(1))
      .pipe(z.array(z.string()).min(1, 'Please choose a category'))
      .transform((names) => [...new Set(names)]),
    showAdDates,
    eventDate: paidDates
      ? eventDate.refine((v) => v === paidDates.eventDate, DATES_LOCKED_MESSAGE)
      : eventDate
          .refine((v) => v === UNSET_DATE || isValidIsoDate(v), 'Please enter a valid date')
          .refine((v) => v === UNSET_DATE || v >= today, 'The event date cannot be in the past')
          .refine((v) => v === UNSET_DATE || v <= lastDate, EVENT_DATE_HORIZON_MESSAGE),
    contactPerson: z.string().trim().max(250, 'Contact name too long').optional().default(''),
    contactPhone: z.string().trim().max(50, 'Phone number too long').optional().default(''),
    contactEmail: z
      .union([z.literal(''), z.email('Please enter a valid email address').max(150, 'Email too long')])
      .optional()
      .default(''),
  })
}

export type EventInput = z.infer<ReturnType<typeof eventInputSchema>>

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
  }
}
