import { UNSET_DATE } from '#app/constants.ts'
import { MEDIA_URL_PREFIX, mediaFileName } from '#app/utils/media-types.ts'
import { isValidIsoDate } from '#app/utils/time.ts'

/** (xxx) xxx-xxxx for exactly ten digits; anything else (9 or 11 digits, letters) stays as the business typed it. */
export function formatPhone(value: string | null | undefined): string {
  const stored = value ?? ''
  if (/[a-z]/i.test(stored)) return stored
  const digits = stored.replace(/\D/g, '')
  if (digits.length !== 10) return stored
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`
}

/**
 * A link target that is safe to put in an href: http(s) only, https:// added when no scheme was typed.
 * Stored social links are user input, so a `javascript:` value must never reach a visitor's page.
 */
export function externalUrl(value: string | null | undefined): string | null {
  const trimmed = (value ?? '').trim()
  if (!trimmed) return null
  const withScheme = /^[a-z][a-z\d+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed.replace(/^\/+/, '')}`
  try {
    const url = new URL(withScheme)
    return url.protocol === 'http:' || url.protocol === 'https:' ? withScheme : null
  } catch {
    return null
  }
}

/**
 * Where the browser loads a stored photo or video: /api/media/{filename}, the file name being the last segment of the
 * stored path. A stored /api/media/ URL is kept whole, so its cache-version query survives.
 */
export function mediaSrc(storedPath: string | null | undefined): string | null {
  const path = (storedPath ?? '').trim()
  if (!path) return null
  // Object URLs of files picked in the browser (preview before upload) are already loadable.
  if (/^(blob|data):/i.test(path)) return path
  if (path.startsWith(MEDIA_URL_PREFIX) && mediaFileName(path)) return path
  const name = mediaFileName(path)
  return name ? `${MEDIA_URL_PREFIX}${encodeURIComponent(name)}` : null
}

const VIDEO_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  ogg: 'video/ogg',
  ogv: 'video/ogg',
  mov: 'video/quicktime',
}

/** The MIME type a <source> should announce, from the file extension; undefined when unknown. */
export function videoTypeFromUrl(url: string): string | undefined {
  const ext = url.split(/[?#]/)[0]!.split('.').at(-1)?.toLowerCase() ?? ''
  return VIDEO_TYPES[ext]
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const

export const INVALID_DATE_TEXT = 'Invalid date'
export const NO_DATES_TEXT = 'No dates'

/** "Nov 24" (with the year when `withYear`), or "Invalid date" for anything that is not a real yyyy-mm-dd date. */
export function formatShortDate(isoDate: string, { withYear = false } = {}): string {
  if (!isValidIsoDate(isoDate)) return INVALID_DATE_TEXT
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number]
  return `${MONTHS[m - 1]} ${d}${withYear ? `, ${y}` : ''}`
}

/** Up to this many dates are listed one by one; more read as a range. */
const LISTED_DATES_MAX = 3

/**
 * The gallery's dates line: the display dates (or the single event date when there are none), e.g.
 * "Nov 24, Nov 25, Nov 26", or "Nov 24 – Dec 5 (10 dates)" for longer runs.
 */
export function formatDatesLine(
  showAdOnDates: readonly string[] | null | undefined,
  eventDate?: string | null,
): string {
  const listed = [...new Set((showAdOnDates ?? []).map((d) => String(d).trim()).filter(Boolean))]
  if (listed.length === 0 && eventDate && eventDate !== UNSET_DATE) listed.push(eventDate)
  if (listed.length === 0) return NO_DATES_TEXT
  if (listed.some((d) => !isValidIsoDate(d))) {
    return listed.map((d) => formatShortDate(d)).join(', ')
  }
  const sorted = listed.sort()
  const first = sorted[0]!
  const last = sorted.at(-1)!
  const withYear = first.slice(0, 4) !== last.slice(0, 4)
  if (sorted.length <= LISTED_DATES_MAX) return sorted.map((d) => formatShortDate(d, { withYear })).join(', ')
  return `${formatShortDate(first, { withYear })} – ${formatShortDate(last, { withYear })} (${sorted.length} dates)`
}

/** Line breaks (any kind) and the spaces around them, as one space: what users typed, on one line of plain text. */
export function oneLine(value: string): string {
  return value.replace(/\s*[\r\n\v\f\u0085\u2028\u2029]+\s*/g, ' ').trim()
}
