import { UNSET_DATE } from '#app/constants.ts'

/** Every date an event shows on: its display dates plus the single event date when one is set. */
export function eventShowDates(eventDate: string | null | undefined, showAdOnDates: readonly string[]): string[] {
  const dates = new Set(showAdOnDates)
  if (eventDate && eventDate !== UNSET_DATE) dates.add(eventDate)
  return [...dates].sort()
}

/** The earliest and latest show dates, stored on the event so date filters can use an index. */
export function showDateBounds(eventDate: string | null | undefined, showAdOnDates: readonly string[]) {
  const dates = eventShowDates(eventDate, showAdOnDates)
  return { firstShowDate: dates[0] ?? null, lastShowDate: dates.at(-1) ?? null }
}
