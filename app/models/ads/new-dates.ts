/**
 * New dates for a postponed ad: what it may be given when it is back on, and what changes. The dates stay the ad's
 * own (same page, same payment), so calendars and search engines update the event they know (docs/decisions/042).
 */
import { MAX_DISPLAY_DATES } from '#app/constants.ts'
import { eventDates, hasOwnDate, nextEventDate } from '#app/models/ads/event-dates.ts'
import { displayDateProblem, eventDateProblem } from '#app/models/ads/event-rules.ts'

export const NEW_DATES_NEED_POSTPONED_MESSAGE =
  'New dates are for a postponed ad: choose "Back on" with them (or leave them as they are)'
export const ONE_NEW_EVENT_DATE_MESSAGE = 'Give the event one new date'
export const newDatesLimitMessage = (n: number) =>
  `Choose at most ${n} date${n === 1 ? '' : 's'} in all: the days the ad was paid for`

/** What new dates change of an ad: its dates, and the next date it had before them. */
export interface NewDates {
  eventDate: string
  showAdOnDates: string[]
  previousStartDate: string
}

export interface DatedAd {
  eventDate: string
  showAdOnDates: string[]
  daysOrdered: number
}

/**
 * How many dates a postponed ad may have once it is given new ones: the days it was paid for (its price is by number
 * of days), never more than any ad may have.
 */
export function newDatesLimit(ad: DatedAd): number {
  return Math.min(MAX_DISPLAY_DATES, Math.max(ad.daysOrdered, ad.showAdOnDates.length))
}

/**
 * The dates a postponed ad has when it is back on with `dates` (yyyy-mm-dd, blanks left out), or the problem with
 * them. An ad with its own event date moves that date (its display dates, the days its ad runs, stay); an ad whose
 * display dates are its dates gets these for the ones from today on (the days already past stay), at most
 * `newDatesLimit` in all. Null when the dates are the ad's own already: then it is simply back on.
 */
export function rescheduledDates(
  ad: DatedAd,
  dates: readonly string[],
  today: string,
): { newDates: NewDates | null } | { problem: string } {
  const chosen = [...new Set(dates.map((date) => date.trim()).filter(Boolean))].sort()
  const previousStartDate = nextEventDate(ad, today)
  // The dates the form starts from: sent back as they are, they change nothing (an event date already past too).
  if (chosen.length === 0 || chosen.join() === currentDates(ad, today).join() || !previousStartDate)
    return { newDates: null }
  if (hasOwnDate(ad.eventDate)) {
    if (chosen.length !== 1) return { problem: ONE_NEW_EVENT_DATE_MESSAGE }
    const problem = eventDateProblem(chosen[0]!, today)
    if (problem) return { problem }
    return { newDates: { eventDate: chosen[0]!, showAdOnDates: ad.showAdOnDates, previousStartDate } }
  }
  const problem = chosen.map((date) => displayDateProblem(date, today)).find(Boolean)
  if (problem) return { problem }
  const past = ad.showAdOnDates.filter((date) => date < today)
  const limit = newDatesLimit(ad)
  if (past.length + chosen.length > limit) return { problem: newDatesLimitMessage(limit - past.length) }
  const showAdOnDates = [...new Set(past)].sort().concat(chosen)
  return { newDates: { eventDate: ad.eventDate, showAdOnDates, previousStartDate } }
}

/**
 * The ad's dates as the new dates' fields start from: its own event date, else its display dates from today on.
 */
export function currentDates(ad: DatedAd, today: string): string[] {
  if (hasOwnDate(ad.eventDate)) return [ad.eventDate]
  return eventDates(ad.eventDate, ad.showAdOnDates).filter((date) => date >= today)
}
