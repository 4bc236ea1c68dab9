import {
  calendarFilterErrors,
  normalizeCalendarFilters,
  unknownZipMessage,
  type CalendarFilters,
} from '#app/models/calendar/calendar-filters.ts'
import { eventFor, type EventAudience, type PublicEvent } from '#app/models/ads/event-projection.server.ts'
import { withTimesOfDay } from '#app/models/ads/event-times.ts'
import { getLiveEventsCount, getLiveEventsPage } from '#app/models/calendar/cached-listing.server.ts'
import { isKnownZip } from '#app/models/calendar/zip-centroids.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import { sponsoredSlotEvents } from './sponsored-slots.server.ts'

/** Events per page unless `limit` asks for fewer; also the most a page holds. */
export const API_PAGE_SIZE = 100
/** With the largest pages this reaches a million events; deeper pages would only cost the database an OFFSET. */
export const API_MAX_PAGE = 10_000

const PAGE_MESSAGE = `page must be a whole number from 1 to ${API_MAX_PAGE}`
const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${API_PAGE_SIZE}`
const OFFSET_MESSAGE = 'offset is not supported: use page (1-based) and follow the Link header'

/** A whole number from 1 to `max` in the query string; `fallback` when absent or blank, null when invalid. */
function wholeNumberParam(
  params: URLSearchParams,
  name: string,
  { max, fallback }: { max: number; fallback: number },
) {
  const raw = (params.get(name) ?? '').trim()
  if (raw === '') return fallback
  if (!/^\d{1,7}$/.test(raw)) return null
  const n = Number(raw)
  return n < 1 || n > max ? null : n
}

type ListQuery = { filters: CalendarFilters; page: number; limit: number } | { error: string }

/** The filters and the page a query string asks for, or what is wrong with it. */
function parseEventsListQuery(params: URLSearchParams): ListQuery {
  const errors = calendarFilterErrors(params)
  const page = wholeNumberParam(params, 'page', { max: API_MAX_PAGE, fallback: 1 })
  const limit = wholeNumberParam(params, 'limit', { max: API_PAGE_SIZE, fallback: API_PAGE_SIZE })
  if (page === null) errors.push(PAGE_MESSAGE)
  if (limit === null) errors.push(LIMIT_MESSAGE)
  if (params.has('offset')) errors.push(OFFSET_MESSAGE)
  if (errors.length > 0 || page === null || limit === null) return { error: errors.join('; ') }
  return { filters: normalizeCalendarFilters(params).filters, page, limit }
}

type LiveEventRow = Awaited<ReturnType<typeof getLiveEventsPage>>[number]
/** An ad in a Sponsored slot, as the audience may see it, marked `sponsored: true`. */
type SponsoredSlotEntry = (LiveEventRow | PublicEvent<LiveEventRow>) & { sponsored: true }

/** One page of the live events, as the audience may see each. */
export interface LiveEventsList {
  events: Array<LiveEventRow | PublicEvent<LiveEventRow> | SponsoredSlotEntry>
  page: number
  pageCount: number
  /** Every match, on all pages. */
  total: number
}

/**
 * GET /api/events, /api/events/active and /api/public-events: live events, soonest first, with the calendar's
 * filters from the query string (keyword, category, zip, from, to, near, radius, sort), one page at a time (`page`,
 * 1-based; `limit` events a page, at most 100). A bad filter or page is an invalid AppError saying what is wrong.
 * Visitors get each event's public fields; its owner and administrators the whole row (see `eventFor`). Times are
 * `hh:mm` or null.
 */
export async function listLiveEvents(
  searchParams: URLSearchParams,
  audience: EventAudience,
  /** /api/public-events: page 1 starts with the ads in the Sponsored slots (`sponsored: true`), then the matches. */
  { withSponsoredSlots = false }: { withSponsoredSlots?: boolean } = {},
): Promise<LiveEventsList> {
  const query = parseEventsListQuery(searchParams)
  if ('error' in query) throw new AppError(query.error, 'invalid')
  const { filters, page, limit } = query
  if (filters.near && !(await isKnownZip(filters.near)))
    throw new AppError(unknownZipMessage(filters.near), 'invalid')
  const today = platformToday()
  const [events, total, slots] = await Promise.all([
    getLiveEventsPage(filters, { today, limit, offset: (page - 1) * limit }),
    getLiveEventsCount(filters, { today }),
    withSponsoredSlots && page === 1 ? sponsoredSlotEvents(filters, { today }) : null,
  ])
  const inSlots = (slots?.events ?? []).map(({ sponsored, ...event }): SponsoredSlotEntry => ({
    ...eventFor(audience, withTimesOfDay(event)),
    sponsored,
  }))
  return {
    events: [...inSlots, ...events.map((event) => eventFor(audience, withTimesOfDay(event)))],
    page,
    pageCount: Math.max(1, Math.ceil(total / limit)),
    total,
  }
}
