/** Calendar dates (yyyy-mm-dd) in the platform time zone: "today", "this month", upload dates. */

/** 0 = Sunday … 6 = Saturday, of a yyyy-mm-dd date. */
export function weekdayOf(isoDate: string): number {
  return new Date(`${isoDate}T00:00:00Z`).getUTCDay()
}

const formatters = new Map<string, Intl.DateTimeFormat>()

export function isoDateInZone(instant: Date, timeZone: string): string {
  // Building a formatter costs about a third of a millisecond, so each zone's is kept.
  let formatter = formatters.get(timeZone)
  if (!formatter) {
    // en-CA formats as yyyy-mm-dd.
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    })
    formatters.set(timeZone, formatter)
  }
  return formatter.format(instant)
}

export function todayInZone(timeZone: string, now: Date = new Date()): string {
  return isoDateInZone(now, timeZone)
}

/** First and last day (inclusive) of the month that `isoDate` falls in. */
export function monthBounds(isoDate: string): { first: string; last: string } {
  const [y, m] = isoDate.split('-').map(Number) as [number, number]
  const lastDay = new Date(Date.UTC(y, m, 0)).getUTCDate()
  const mm = String(m).padStart(2, '0')
  return { first: `${y}-${mm}-01`, last: `${y}-${mm}-${String(lastDay).padStart(2, '0')}` }
}

/** Adds whole days to a yyyy-mm-dd date. */
export function addDaysIso(isoDate: string, days: number): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number]
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10)
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** A real calendar date in yyyy-mm-dd form (rejects 2026-02-30). */
export function isValidIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value)
  if (!match) return false
  const [, y, m, d] = match.map(Number) as [number, number, number, number]
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
}
