/**
 * The listings for print and newsletters: the live ads matching the calendar's filters in a range of days, one entry
 * per ad and day, grouped by day in time order, and their three downloads (CSV, plain text, an HTML snippet). Pure,
 * so the page and the downloads agree.
 */
import { daysInRange, type DateRange } from '#app/models/analytics/analytics-range.ts'
import { escapeHtml } from '#app/models/mail/mail-templates.ts'
import { eventQrLabel } from '#app/models/ads/event-qr.ts'
import {
  eventTimesOf,
  formatShortDate,
  formatTimeOfDay,
  formatTimeRange,
  storedTimeOfDay,
} from '#app/models/ads/event-times.ts'
import { SCHEDULE_STATUS_LABELS, type ScheduleStatus } from '#app/models/ads/schedule-status.ts'
import {
  calendarFilterErrors,
  normalizeCalendarFilters,
  type CalendarFilters,
} from '#app/models/calendar/calendar-filters.ts'
import { formatShortDate as formatDayOfYear, oneLine } from '#app/utils/format.ts'
import { AppError, type FieldErrors } from '#app/utils/app-error.ts'
import { toCsv } from '#app/utils/csv.ts'
import { addDaysIso, isValidIsoDate } from '#app/utils/time.ts'

/** The longest range listed at once, in days (both ends included). */
export const LISTINGS_MAX_DAYS = 366
/** The most entries (ad and day) a page or a download lists; more asks for a narrower range or a filter. */
export const LISTINGS_MAX_ENTRIES = 500
/** The range listed when none is given: a week from today. */
export const DEFAULT_LISTINGS_DAYS = 7
/** The years a date of the range may name: every date helper and the database handle them alike. */
const FIRST_YEAR = 2000
const LAST_YEAR = 2100

export const LISTINGS_TITLE = 'Listings'

export interface ListingsQuery {
  range: DateRange
  /** The calendar's filters; the date filter is the range. */
  filters: CalendarFilters
}

/** One ad on one day, as the listing reads it. */
export interface ListingEntry {
  date: string
  eventID: number
  eventTitle: string
  businessName: string
  /** The venue's city when the ad has another address, else its business's. */
  city: string
  startTime: string | null
  endTime: string | null
  category: string[]
  scheduleStatus: string | null
}

export interface ListingDay {
  date: string
  entries: ListingEntry[]
}

const shown = (value: string) => `"${value.slice(0, 20)}"`

function dateProblem(name: string, value: string): string | null {
  if (!isValidIsoDate(value)) return `${name}: ${shown(value)} is not a valid date (yyyy-mm-dd)`
  const year = Number(value.slice(0, 4))
  if (year < FIRST_YEAR || year > LAST_YEAR)
    return `${name}: ${shown(value)} is outside the years ${FIRST_YEAR} to ${LAST_YEAR}`
  return null
}

/**
 * The range and filters of a query string (`from`, `to` and the calendar's other filters): a week from `today` when
 * neither date is given, the week from `from` or up to `to` when only one is. An invalid AppError naming each problem at
 * its field for a malformed or out-of-range date, a range that ends before it starts or is longer than
 * LISTINGS_MAX_DAYS, a category that is not one of `categories`, and any filter the calendar's API refuses.
 */
export function parseListingsQuery(
  query: URLSearchParams,
  today: string,
  categories: readonly string[],
): ListingsQuery {
  const problems: FieldErrors = {}
  const add = (field: string, problem: string | null) => {
    if (problem) (problems[field] ??= []).push(problem)
  }
  const fromText = (query.get('from') ?? '').trim()
  const toText = (query.get('to') ?? '').trim()
  const from =
    fromText || (toText && isValidIsoDate(toText) ? addDaysIso(toText, 1 - DEFAULT_LISTINGS_DAYS) : today)
  const to = toText || (isValidIsoDate(from) ? addDaysIso(from, DEFAULT_LISTINGS_DAYS - 1) : from)
  add('from', dateProblem('from', from))
  add('to', dateProblem('to', to))
  if (!problems.from && !problems.to) {
    if (to < from) add('to', 'to: the range ends before it starts')
    else if (daysInRange({ from, to }) > LISTINGS_MAX_DAYS)
      add('to', `The range is longer than ${LISTINGS_MAX_DAYS} days`)
  }
  const others = new URLSearchParams(query)
  others.delete('from')
  others.delete('to')
  // Each of the calendar's messages starts with its parameter's name.
  for (const problem of calendarFilterErrors(others)) add(/^[a-zA-Z]+/.exec(problem)?.[0] ?? '', problem)
  const { filters } = normalizeCalendarFilters(others)
  if (filters.category && !categories.some((name) => name.toLowerCase() === filters.category.toLowerCase()))
    add('category', `category: ${shown(filters.category)} is not a category`)
  const first = Object.values(problems)[0]?.[0]
  if (first) throw new AppError(first, 'invalid', { fieldErrors: problems })
  const category = categories.find((name) => name.toLowerCase() === filters.category.toLowerCase()) ?? ''
  return { range: { from, to }, filters: { ...filters, category, from, to } }
}

/** The query string of a listing (its range and the filters set): the page's links to its downloads. */
export function listingsSearchParams({ range, filters }: ListingsQuery): URLSearchParams {
  const params = new URLSearchParams({ from: range.from, to: range.to })
  if (filters.category) params.set('category', filters.category)
  if (filters.keyword) params.set('keyword', filters.keyword)
  if (filters.zip) params.set('zip', filters.zip)
  if (filters.near) {
    params.set('near', filters.near)
    params.set('radius', String(filters.radius))
  }
  if (filters.free) params.set('free', '1')
  if (filters.online) params.set('online', '1')
  for (const feature of filters.access) params.append('access', feature)
  if (filters.hideCancelled) params.set('hideCancelled', '1')
  return params
}

/** The entries grouped by day, the days in order (the entries come in date, then time order). */
export function groupByDay(entries: readonly ListingEntry[]): ListingDay[] {
  const days: ListingDay[] = []
  for (const entry of entries) {
    const last = days.at(-1)
    if (last?.date === entry.date) last.entries.push(entry)
    else days.push({ date: entry.date, entries: [entry] })
  }
  return days
}

/** "Nov 29 – Dec 5, 2026", "Dec 28, 2026 – Jan 3, 2027", or "Nov 29, 2026" for one day. */
export function formatRange({ from, to }: DateRange): string {
  if (from === to) return formatDayOfYear(from, { withYear: true })
  const sameYear = from.slice(0, 4) === to.slice(0, 4)
  return `${formatDayOfYear(from, { withYear: !sameYear })} – ${formatDayOfYear(to, { withYear: true })}`
}

/** "Sat, Nov 29": a day's heading. */
export const formatDayHeading = formatShortDate

/** The time an entry starts ("7:30 PM"), or "All day". */
export function entryTime(entry: Pick<ListingEntry, 'startTime'>): string {
  const start = storedTimeOfDay(entry.startTime)
  return start ? formatTimeOfDay(start) : 'All day'
}

/** Where: "Business, City" (either alone when the other is empty). */
export function entryPlace(entry: Pick<ListingEntry, 'businessName' | 'city'>): string {
  return [entry.businessName.trim(), entry.city.trim()].filter(Boolean).join(', ')
}

/** "Cancelled", "Postponed", "Sold out", or null when the event is on as advertised. */
export function entryStatus(entry: Pick<ListingEntry, 'scheduleStatus'>): string | null {
  return entry.scheduleStatus
    ? (SCHEDULE_STATUS_LABELS[entry.scheduleStatus as ScheduleStatus] ?? null)
    : null
}

/** The title with the status when the event is off: "Title (Cancelled)". */
function titleWithStatus(entry: ListingEntry) {
  const status = entryStatus(entry)
  return status ? `${entry.eventTitle} (${status})` : entry.eventTitle
}

/** The file name of a download: "listings-2026-11-29-2026-12-05.csv". */
export function listingsFileName(range: DateRange, extension: 'csv' | 'txt' | 'html') {
  return `listings-${range.from}-${range.to}.${extension}`
}

/** What a listing cut at LISTINGS_MAX_ENTRIES says. */
export const TRUNCATED_NOTICE = `Only the first ${LISTINGS_MAX_ENTRIES} listings are shown: choose a shorter range or a category for the rest.`

/** Plain text: the range, then each day's heading and its entries, "7:30 PM  Title — Business, City". */
export function listingsText(range: DateRange, days: readonly ListingDay[], truncated: boolean): string {
  const lines = [`${LISTINGS_TITLE} ${formatRange(range)}`, '']
  if (days.length === 0) lines.push('No events.', '')
  for (const day of days) {
    lines.push(formatDayHeading(day.date))
    for (const entry of day.entries) {
      const place = entryPlace(entry)
      lines.push(oneLine(`${entryTime(entry)}  ${titleWithStatus(entry)}${place ? ` — ${place}` : ''}`))
    }
    lines.push('')
  }
  if (truncated) lines.push(TRUNCATED_NOTICE, '')
  return lines.join('\n')
}

const timeAttribute = (date: string, startTime: string | null) => {
  const start = storedTimeOfDay(startTime)
  return start ? `${date}T${start}` : date
}

/**
 * An HTML snippet to paste: a heading for the range, a section per day with its list, each entry with its ad's QR
 * code (`qrCodes`, the SVG by event id) and the code's text alternative; no classes, every text escaped.
 */
export function listingsHtml(
  range: DateRange,
  days: readonly ListingDay[],
  truncated: boolean,
  qrCodes: ReadonlyMap<number, string> = new Map(),
): string {
  const out = [`<h1>${escapeHtml(`${LISTINGS_TITLE} ${formatRange(range)}`)}</h1>`]
  if (days.length === 0) out.push('<p>No events.</p>')
  for (const day of days) {
    out.push(
      '<section>',
      `<h2><time datetime="${day.date}">${escapeHtml(formatDayHeading(day.date))}</time></h2>`,
      '<ul>',
    )
    for (const entry of day.entries) {
      const place = entryPlace(entry)
      const qr = qrCodes.get(entry.eventID)
      out.push(
        `<li><time datetime="${timeAttribute(day.date, entry.startTime)}">${escapeHtml(entryTime(entry))}</time> ` +
          `<strong>${escapeHtml(titleWithStatus(entry))}</strong>${place ? ` — ${escapeHtml(place)}` : ''}` +
          `${qr ? `<br><span role="img" aria-label="${escapeHtml(eventQrLabel(entry.eventTitle))}">${qr}</span>` : ''}</li>`,
      )
    }
    out.push('</ul>', '</section>')
  }
  if (truncated) out.push(`<p>${escapeHtml(TRUNCATED_NOTICE)}</p>`)
  return `${out.join('\n')}\n`
}

/** The byte-order mark that tells a spreadsheet the CSV is UTF-8. */
export const UTF8_BOM = '\uFEFF'

/** CSV, one row per ad and day, with a byte-order mark; every cell formula-safe (`toCsv`). */
export function listingsCsv(days: readonly ListingDay[]): string {
  return (
    UTF8_BOM +
    toCsv([
      ['date', 'start', 'end', 'times', 'title', 'business', 'city', 'categories', 'status', 'event_id'],
      ...days.flatMap((day) =>
        day.entries.map((entry) => {
          const times = eventTimesOf(entry)
          return [
            day.date,
            times.startTime,
            times.endTime,
            formatTimeRange(times) ?? 'All day',
            entry.eventTitle,
            entry.businessName,
            entry.city,
            entry.category.join('; '),
            entryStatus(entry),
            entry.eventID,
          ]
        }),
      ),
    ])
  )
}
