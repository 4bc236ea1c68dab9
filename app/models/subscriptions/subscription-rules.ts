/**
 * The subscription forms' rules without zod (the calendar and the event page stay light): what the email and the
 * frequency must be, the texts the visitor reads, and a saved search's filters in words.
 */
import { normalEmail } from '#app/models/platform/email-address.ts'
import {
  activeFilters,
  EMPTY_CALENDAR_FILTERS,
  calendarSearchParams,
  type CalendarFilters,
} from '#app/models/calendar/calendar-filters.ts'
import { hasMoreThanAnAddress, isPlainEmail } from '#app/models/platform/email-address.ts'

export const SUBSCRIPTION_EMAIL_MAX = 254

/** The pages a subscriber's email links to (each with `?token=`). */
export const SUBSCRIPTION_PATHS = {
  confirm: '/subscriptions/confirm',
  manage: '/subscriptions/manage',
  unsubscribe: '/subscriptions/unsubscribe',
} as const
export const SEARCH_FREQUENCIES = ['weekly', 'daily'] as const
export type SearchFrequency = (typeof SEARCH_FREQUENCIES)[number]
export type SubscriptionFrequency = SearchFrequency | 'once'

export const FREQUENCY_LABELS: Record<SubscriptionFrequency, string> = {
  weekly: 'Weekly digest',
  daily: 'As they go live (at most one email a day)',
  once: 'Once, the day before the event',
}

export const SUBSCRIPTION_TEXT = {
  emailRequired: 'Enter your email address',
  emailInvalid: 'Enter an email address such as name@example.com',
  emailPlainOnly:
    'Enter the address alone, such as name@example.com: no name, angle brackets, quotes or comments around it',
  emailTooLong: `An email address can be at most ${SUBSCRIPTION_EMAIL_MAX} characters`,
  frequencyInvalid: 'Choose Weekly digest or As they go live',
  /** The same answer whether the address is new, waiting or already subscribed: it reveals nothing. */
  requested:
    'Thank you. If this address is not subscribed to these events yet, we have sent it an email: follow its link within 48 hours to confirm. An address that is already subscribed gets nothing new.',
  invalidLink:
    'This link is not valid or has expired (a confirmation link works for 48 hours). Subscribe again from the calendar or the event’s page to get a new one.',
  confirmed: 'Your subscription is confirmed.',
  unsubscribed: 'You are unsubscribed: we have deleted your address and your search.',
  frequencyChanged: 'Saved: your emails will come at the new frequency.',
} as const

/** The problem with a subscriber's email, or null. */
export function emailProblem(value: string): string | null {
  const email = normalEmail(value)
  if (!email) return SUBSCRIPTION_TEXT.emailRequired
  if (email.length > SUBSCRIPTION_EMAIL_MAX) return SUBSCRIPTION_TEXT.emailTooLong
  if (hasMoreThanAnAddress(email)) return SUBSCRIPTION_TEXT.emailPlainOnly
  if (!isPlainEmail(email)) return SUBSCRIPTION_TEXT.emailInvalid
  return null
}

export function isSearchFrequency(value: string): value is SearchFrequency {
  return (SEARCH_FREQUENCIES as readonly string[]).includes(value)
}

/** The browser's check of the subscribe forms (the server repeats it with subscription-schema.ts). */
export function checkSubscriptionForm(values: Record<string, string>): Record<string, string> {
  const problems: Record<string, string> = {}
  const email = emailProblem(values.email ?? '')
  if (email) problems.email = email
  if ((values.kind ?? 'search') === 'search' && !isSearchFrequency(values.frequency ?? '')) {
    problems.frequency = SUBSCRIPTION_TEXT.frequencyInvalid
  }
  return problems
}

/** What a saved search keeps of the calendar's filters: dates become "upcoming", the order does not matter. */
export function savedSearchFilters(filters: CalendarFilters): CalendarFilters {
  return { ...filters, from: null, to: null, sort: EMPTY_CALENDAR_FILTERS.sort }
}

/**
 * A saved search as stored: the filters of the day it was saved, with today's defaults for any filter added since
 * (a search saved before the practical facts existed filters by none of them).
 */
export function storedSearchFilters(stored: unknown): CalendarFilters {
  return savedSearchFilters({ ...EMPTY_CALENDAR_FILTERS, ...(stored as Partial<CalendarFilters>) })
}

/** What makes two saved searches of one address the same. */
export function searchFilterKey(filters: CalendarFilters) {
  return `search:${calendarSearchParams(savedSearchFilters(filters)).toString()}`
}

export function reminderFilterKey(eventID: number) {
  return `event:${eventID}`
}

export function businessFilterKey(businessID: number) {
  return `business:${businessID}`
}

/** The follow form's title, and a follow in words (the manage page, the confirmation email). */
export function followBusinessText(businessName: string) {
  return `Email me new events from ${businessName}`
}

export function describeFollow(businessName: string) {
  return `New events from ${businessName}`
}

/** A saved search in words: "Upcoming events: Keyword “jazz”, Family, within 10 mi of 62704". */
export function describeSearch(filters: CalendarFilters) {
  const labels = activeFilters(savedSearchFilters(filters)).map((filter) => filter.label)
  return labels.length ? `Upcoming events: ${labels.join(', ')}` : 'Every upcoming event'
}
