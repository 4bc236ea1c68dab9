import { OPEN_ENDED_DATE_LIMIT } from '#app/constants.ts'
import { isValidIsoDate } from '#app/utils/time.ts'
import { formatShortDate } from '#app/utils/format.ts'
import {
  ACCESSIBILITY_FEATURES,
  ACCESSIBILITY_LABELS,
  type AccessibilityFeature,
} from '#app/models/ads/practical-facts.ts'

/** The calendar's filters, as the query string carries them and the listing query reads them. */
export interface CalendarFilters {
  /** Case-insensitive substring of the description; '' = any. */
  keyword: string
  /** One category name; '' = All. */
  category: string
  /** Substring of the business ZIP; '' = any. */
  zip: string
  /** yyyy-mm-dd or null (open-ended). */
  from: string | null
  to: string | null
  /** A 5-digit ZIP: only businesses within `radius` miles of its centre; '' = anywhere. */
  near: string
  /** Miles, one of NEAR_RADII (the default when `near` is not set). */
  radius: NearRadius
  /** 'nearest' (only with `near`): closest business first, then the soonest date. */
  sort: CalendarSort
  /** Only free events (the practical facts' price). */
  free: boolean
  /** Only events one can join online (online, or in person and online). */
  online: boolean
  /** Only events with every one of these accessibility facts, in the facts' order. */
  access: AccessibilityFeature[]
  /** Leave out the ads marked cancelled (schedule-status.ts). */
  hideCancelled: boolean
}

export const NEAR_RADII = [5, 10, 25, 50] as const
export type NearRadius = (typeof NEAR_RADII)[number]
export const DEFAULT_NEAR_RADIUS: NearRadius = 10
export const CALENDAR_SORTS = ['soonest', 'nearest'] as const
export type CalendarSort = (typeof CALENDAR_SORTS)[number]

export const CALENDAR_FILTER_PARAMS = {
  keyword: 'keyword',
  category: 'category',
  zip: 'zip',
  from: 'from',
  to: 'to',
  near: 'near',
  radius: 'radius',
  sort: 'sort',
  free: 'free',
  online: 'online',
  access: 'access',
  hideCancelled: 'hideCancelled',
  page: 'page',
} as const

export const ALL_CATEGORIES = 'All'

export const EMPTY_CALENDAR_FILTERS: CalendarFilters = {
  keyword: '',
  category: '',
  zip: '',
  from: null,
  to: null,
  near: '',
  radius: DEFAULT_NEAR_RADIUS,
  sort: 'soonest',
  free: false,
  online: false,
  access: [],
  hideCancelled: false,
}

/** Longer input is cut (the API refuses it), so a pasted essay cannot become an expensive pattern. */
export const FILTER_TEXT_MAX = { keyword: 100, category: 100, zip: 50 } as const
/** Deeper pages than this are not useful to a person and only cost the database an OFFSET. */
export const MAX_PAGE = 1000

export interface NormalizedCalendarFilters {
  filters: CalendarFilters
  page: number
  /** Said to the visitor, e.g. that an invalid date was ignored. */
  notices: string[]
}

function text(params: URLSearchParams, name: string, max: number) {
  return (params.get(name) ?? '').trim().slice(0, max)
}

/** A typed value as a message repeats it: a long one is cut. */
function shown(value: string) {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value
}

/** What the calendar page says when it ignores a date (the page still shows results). */
export function invalidDateNotice(label: string, value: string) {
  return `${label}: "${shown(value)}" is not a valid date (yyyy-mm-dd), so it was ignored.`
}

/** The 5 digits of a ZIP or ZIP+4 ("62704", "62704-1234"), or null. The migration's trigger reads ZIPs the same way. */
function fiveDigitZip(value: string) {
  return /^(\d{5})(?:[-\s]?\d{4})?$/.exec(value.trim())?.[1] ?? null
}

function nearRadius(value: string): NearRadius | null {
  return NEAR_RADII.find((r) => String(r) === value.trim()) ?? null
}

const RADIUS_CHOICES = `${NEAR_RADII.slice(0, -1).join(', ')} or ${NEAR_RADII.at(-1)}`

export function unknownZipMessage(zip: string) {
  return `Near: "${zip}" is not a US ZIP code we know, so no events can be found near it. Check the ZIP code.`
}

/** What is wrong with the distance filter of a query string (the feeds and the API refuse the request with it). */
export function nearFilterErrors(searchParams: URLSearchParams): string[] {
  const errors: string[] = []
  const near = (searchParams.get(CALENDAR_FILTER_PARAMS.near) ?? '').trim()
  const radius = (searchParams.get(CALENDAR_FILTER_PARAMS.radius) ?? '').trim()
  const sort = (searchParams.get(CALENDAR_FILTER_PARAMS.sort) ?? '').trim()
  if (near && !fiveDigitZip(near)) errors.push(`near: "${shown(near)}" is not a ZIP code (5 digits)`)
  if (radius && !nearRadius(radius)) errors.push(`radius must be ${RADIUS_CHOICES} (miles)`)
  if (sort && !(CALENDAR_SORTS as readonly string[]).includes(sort)) {
    errors.push(`sort must be ${CALENDAR_SORTS.join(' or ')}`)
  }
  if (sort === 'nearest' && !near) errors.push('sort=nearest needs near (a ZIP code)')
  return errors
}

/** A yes/no filter is set by `1` (a checkbox's value), `true` or `on`. */
const YES = ['1', 'true', 'on']
const FLAG_VALUES = [...YES, '0', 'false', 'off', '']

/** The accessibility facts asked for: repeated (`access=a&access=b`, as a form sends them) or comma-separated. */
function accessValues(searchParams: URLSearchParams) {
  return searchParams
    .getAll(CALENDAR_FILTER_PARAMS.access)
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean)
}

const isAccessibilityFeature = (value: string): value is AccessibilityFeature =>
  (ACCESSIBILITY_FEATURES as readonly string[]).includes(value)

/** What is wrong with the practical facts' filters of a query string (Free, Online, accessibility). */
export function factFilterErrors(searchParams: URLSearchParams): string[] {
  const errors: string[] = []
  for (const name of [
    CALENDAR_FILTER_PARAMS.free,
    CALENDAR_FILTER_PARAMS.online,
    CALENDAR_FILTER_PARAMS.hideCancelled,
  ]) {
    const value = (searchParams.get(name) ?? '').trim().toLowerCase()
    if (!FLAG_VALUES.includes(value)) errors.push(`${name} must be 1 or 0`)
  }
  const unknown = accessValues(searchParams).find((value) => !isAccessibilityFeature(value))
  if (unknown !== undefined)
    errors.push(`access: "${shown(unknown)}" is not one of ${ACCESSIBILITY_FEATURES.join(', ')}`)
  return errors
}

/**
 * What is wrong with the filters of a query string, for the JSON API, which refuses the request instead of ignoring a bad
 * value or cutting a long one as the page does. Empty when every filter is usable.
 */
export function calendarFilterErrors(searchParams: URLSearchParams): string[] {
  const errors: string[] = []
  for (const [name, max] of Object.entries(FILTER_TEXT_MAX)) {
    if ((searchParams.get(name) ?? '').trim().length > max) {
      errors.push(`${name} must be at most ${max} characters`)
    }
  }
  for (const name of [CALENDAR_FILTER_PARAMS.from, CALENDAR_FILTER_PARAMS.to]) {
    const value = (searchParams.get(name) ?? '').trim()
    if (value && !isValidIsoDate(value)) {
      errors.push(`${name}: "${shown(value)}" is not a valid date (yyyy-mm-dd)`)
    }
  }
  return [...errors, ...nearFilterErrors(searchParams), ...factFilterErrors(searchParams)]
}

/**
 * Reads the filters from a query string: trims, treats 'All' as no category, ignores an invalid date (with a notice)
 * and swaps From and To when From is after To. Pure, so the page, the feeds and the API agree.
 */
export function normalizeCalendarFilters(searchParams: URLSearchParams): NormalizedCalendarFilters {
  const notices: string[] = []
  const keyword = text(searchParams, CALENDAR_FILTER_PARAMS.keyword, FILTER_TEXT_MAX.keyword)
  const rawCategory = text(searchParams, CALENDAR_FILTER_PARAMS.category, FILTER_TEXT_MAX.category)
  const category = rawCategory.toLowerCase() === ALL_CATEGORIES.toLowerCase() ? '' : rawCategory
  const zip = text(searchParams, CALENDAR_FILTER_PARAMS.zip, FILTER_TEXT_MAX.zip)

  function date(name: string, label: string) {
    const value = (searchParams.get(name) ?? '').trim()
    if (!value) return null
    // Nothing runs after the open-ended limit, so a later date means the same as the limit.
    if (isValidIsoDate(value)) return value > OPEN_ENDED_DATE_LIMIT ? OPEN_ENDED_DATE_LIMIT : value
    notices.push(invalidDateNotice(label, value))
    return null
  }
  let from = date(CALENDAR_FILTER_PARAMS.from, 'Date(s) From')
  let to = date(CALENDAR_FILTER_PARAMS.to, 'To')
  if (from && to && from > to) [from, to] = [to, from]

  const nearText = text(searchParams, CALENDAR_FILTER_PARAMS.near, FILTER_TEXT_MAX.zip)
  const near = nearText ? fiveDigitZip(nearText) : ''
  if (near === null)
    notices.push(`Near: "${shown(nearText)}" is not a ZIP code (5 digits), so it was ignored.`)
  const radiusText = (searchParams.get(CALENDAR_FILTER_PARAMS.radius) ?? '').trim()
  let radius = DEFAULT_NEAR_RADIUS
  if (near && radiusText) {
    radius = nearRadius(radiusText) ?? DEFAULT_NEAR_RADIUS
    if (!nearRadius(radiusText)) {
      notices.push(`Within: ${RADIUS_CHOICES} miles can be chosen, so ${DEFAULT_NEAR_RADIUS} miles was used.`)
    }
  }
  const sort: CalendarSort =
    near && searchParams.get(CALENDAR_FILTER_PARAMS.sort) === 'nearest' ? 'nearest' : 'soonest'

  const flag = (name: string) => YES.includes((searchParams.get(name) ?? '').trim().toLowerCase())
  const asked = accessValues(searchParams)
  if (asked.some((value) => !isAccessibilityFeature(value)))
    notices.push('Accessibility: a fact we do not know was asked for, so it was ignored.')
  const access = ACCESSIBILITY_FEATURES.filter((feature) => asked.includes(feature))
  const facts = {
    free: flag(CALENDAR_FILTER_PARAMS.free),
    online: flag(CALENDAR_FILTER_PARAMS.online),
    access,
  }

  const pageText = (searchParams.get(CALENDAR_FILTER_PARAMS.page) ?? '').trim()
  const pageNumber = /^\d{1,6}$/.test(pageText) ? Number(pageText) : 1
  const page = Math.min(Math.max(pageNumber, 1), MAX_PAGE)

  return {
    filters: {
      keyword,
      category,
      zip,
      from,
      to,
      near: near ?? '',
      radius,
      sort,
      ...facts,
      hideCancelled: flag(CALENDAR_FILTER_PARAMS.hideCancelled),
    },
    page,
    notices,
  }
}

/** The inclusive date window a date filter asks for, or null when no date filter is set. */
export function dateWindow(
  filters: Pick<CalendarFilters, 'from' | 'to'>,
): { from: string | null; to: string } | null {
  if (!filters.from && !filters.to) return null
  return { from: filters.from, to: filters.to ?? OPEN_ENDED_DATE_LIMIT }
}

/** Whether a date lies inside a date filter's window. */
export function isInDateWindow(date: string, window: { from: string | null; to: string }) {
  return (window.from === null || date >= window.from) && date <= window.to
}

/**
 * The day a listing starts from: the date filter's first day when that is after today, else today. Each matching
 * event is listed (and its card dated) at its first date from there, so a window from a later day lists its events
 * in the order of their dates inside it.
 */
export function listingStart(filters: Pick<CalendarFilters, 'from'>, today: string): string {
  return filters.from && filters.from > today ? filters.from : today
}

/** The filter's checkbox and its chip. */
export const HIDE_CANCELLED_LABEL = 'Hide cancelled'
export const HIDING_CANCELLED_LABEL = 'Hiding cancelled'

export interface ActiveFilter {
  /** What is set, in a few words ("Keyword “jazz”", "Music", "from Dec 1, 2026"). */
  label: string
  /** The same filters without this one. */
  without: CalendarFilters
}

/** The filters set, each with the filters that remain when it is removed, in the order of the form. */
export function activeFilters(filters: CalendarFilters): ActiveFilter[] {
  const active: ActiveFilter[] = []
  const add = (label: string, change: Partial<CalendarFilters>) =>
    active.push({ label, without: { ...filters, ...change } })
  if (filters.keyword) add(`Keyword “${filters.keyword}”`, { keyword: '' })
  if (filters.category && filters.category !== ALL_CATEGORIES) add(filters.category, { category: '' })
  if (filters.zip) add(`ZIP ${filters.zip}`, { zip: '' })
  if (filters.near) {
    const order = filters.sort === 'nearest' ? ', nearest first' : ''
    add(`within ${filters.radius} mi of ${filters.near}${order}`, {
      near: '',
      radius: DEFAULT_NEAR_RADIUS,
      sort: 'soonest',
    })
  }
  if (filters.from) add(`from ${formatShortDate(filters.from, { withYear: true })}`, { from: null })
  if (filters.to) add(`to ${formatShortDate(filters.to, { withYear: true })}`, { to: null })
  if (filters.free) add('Free', { free: false })
  if (filters.online) add('Online', { online: false })
  for (const feature of filters.access)
    add(ACCESSIBILITY_LABELS[feature], { access: filters.access.filter((f) => f !== feature) })
  if (filters.hideCancelled) add(HIDING_CANCELLED_LABEL, { hideCancelled: false })
  return active
}

export function hasActiveFilters(filters: CalendarFilters) {
  return Boolean(
    filters.keyword ||
    filters.category ||
    filters.zip ||
    filters.from ||
    filters.to ||
    filters.near ||
    filters.hideCancelled ||
    hasFactFilters(filters),
  )
}

/** Whether a practical fact is asked for (Free, Online, an accessibility fact). */
export function hasFactFilters(filters: Pick<CalendarFilters, 'free' | 'online' | 'access'>) {
  return filters.free || filters.online || filters.access.length > 0
}

/** The query string for these filters (only the ones set), e.g. for pagination links and feeds. */
export function calendarSearchParams(filters: CalendarFilters, page = 1): URLSearchParams {
  const params = new URLSearchParams()
  if (filters.keyword) params.set(CALENDAR_FILTER_PARAMS.keyword, filters.keyword)
  if (filters.category) params.set(CALENDAR_FILTER_PARAMS.category, filters.category)
  if (filters.zip) params.set(CALENDAR_FILTER_PARAMS.zip, filters.zip)
  if (filters.from) params.set(CALENDAR_FILTER_PARAMS.from, filters.from)
  if (filters.to) params.set(CALENDAR_FILTER_PARAMS.to, filters.to)
  if (filters.near) {
    params.set(CALENDAR_FILTER_PARAMS.near, filters.near)
    params.set(CALENDAR_FILTER_PARAMS.radius, String(filters.radius))
    if (filters.sort !== 'soonest') params.set(CALENDAR_FILTER_PARAMS.sort, filters.sort)
  }
  if (filters.free) params.set(CALENDAR_FILTER_PARAMS.free, '1')
  if (filters.online) params.set(CALENDAR_FILTER_PARAMS.online, '1')
  for (const feature of filters.access) params.append(CALENDAR_FILTER_PARAMS.access, feature)
  if (filters.hideCancelled) params.set(CALENDAR_FILTER_PARAMS.hideCancelled, '1')
  if (page > 1) params.set(CALENDAR_FILTER_PARAMS.page, String(page))
  return params
}

/** `%` and `_` are wildcards in LIKE patterns; typed text must match literally. */
export function escapeLikePattern(value: string) {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`)
}
