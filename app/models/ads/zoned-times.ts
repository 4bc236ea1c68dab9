/**
 * An event's local date and time of day (platform time zone) as an instant or as an ISO 8601 date-time with the UTC
 * offset that zone has on that date (DST included).
 */
import { TZDate, tzOffset } from '@date-fns/tz'
import type { TimeOfDay } from '#app/models/ads/event-times.ts'

const pad = (n: number) => String(n).padStart(2, '0')

function zonedDate(isoDate: string, time: TimeOfDay, timeZone: string) {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number]
  const [h, min] = time.split(':').map(Number) as [number, number]
  return new TZDate(y, m - 1, d, h, min, 0, timeZone)
}

/**
 * Answers already worked out, by zone, date and time: working one out through the zone's rules costs tens of
 * microseconds, and pages, feeds and digests ask for the same few dates and times of day again and again.
 */
const answers = new Map<string, string | number>()
const ANSWERS_KEPT = 5_000

function remembered<T extends string | number>(key: string, work: () => T): T {
  let answer = answers.get(key) as T | undefined
  if (answer === undefined) {
    answer = work()
    if (answers.size >= ANSWERS_KEPT) answers.clear()
    answers.set(key, answer)
  }
  return answer
}

/** The instant `time` on `isoDate` is in `timeZone`. */
export function zonedInstant(isoDate: string, time: TimeOfDay, timeZone: string): Date {
  return new Date(
    remembered(`instant ${timeZone} ${isoDate} ${time}`, () => zonedDate(isoDate, time, timeZone).getTime()),
  )
}

/** "2026-11-29T19:30:00-05:00": `time` on `isoDate` in `timeZone`, with that moment's UTC offset. */
export function zonedIsoDateTime(isoDate: string, time: TimeOfDay, timeZone: string): string {
  return remembered(`iso ${timeZone} ${isoDate} ${time}`, () => {
    const local = zonedDate(isoDate, time, timeZone)
    const offset = tzOffset(timeZone, new Date(local.getTime()))
    const sign = offset < 0 ? '-' : '+'
    const abs = Math.abs(offset)
    return (
      `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}` +
      `T${pad(local.getHours())}:${pad(local.getMinutes())}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
    )
  })
}
