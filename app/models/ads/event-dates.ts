import { UNSET_DATE } from '#app/constants.ts'

/** Every date an event shows on: its display dates plus the single event date when one is set. */
export function eventShowDates(
  eventDate: string | null | undefined,
  showAdOnDates: readonly string[],
): string[] {
  const dates = new Set(showAdOnDates)
  if (hasOwnDate(eventDate)) dates.add(eventDate)
  return [...dates].sort()
}

/** The earliest and latest show dates, stored on the event so date filters can use an index. */
export function showDateBounds(eventDate: string | null | undefined, showAdOnDates: readonly string[]) {
  const dates = eventShowDates(eventDate, showAdOnDates)
  return { firstShowDate: dates[0] ?? null, lastShowDate: dates.at(-1) ?? null }
}

/** Whether the event has its own date: anything but the unset marker (1989-01-01). */
export function hasOwnDate(eventDate: string | null | undefined): eventDate is string {
  return Boolean(eventDate) && eventDate !== UNSET_DATE
}

/**
 * When an event happens, for everything visitors see (cards, the event page, JSON-LD, iCal, RSS): its own date when
 * it has one, otherwise its display dates (the unset marker means "no single date; the display dates are the dates").
 * The display dates of an event with its own date are only the days its ad runs, not when it happens.
 */
export function eventDates(eventDate: string | null | undefined, showAdOnDates: readonly string[]): string[] {
  if (hasOwnDate(eventDate)) return [eventDate]
  return [...new Set(showAdOnDates)].sort()
}

/** The one date a card shows: the first of the event's dates from today on, else its last one; null without dates. */
export function nextEventDate(
  event: { eventDate: string | null | undefined; showAdOnDates: readonly string[] },
  today: string,
): string | null {
  const dates = eventDates(event.eventDate, event.showAdOnDates)
  return dates.find((d) => d >= today) ?? dates.at(-1) ?? null
}
