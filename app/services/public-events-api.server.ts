import { normalizeCalendarFilters } from '#app/models/calendar-filters.ts'
import { getLiveEventsCount, getLiveEventsPage } from '#app/models/public-events.server.ts'
import { jsonError } from './http.server.ts'
import { platformToday } from './platform-today.server.ts'

export const API_PAGE_MAX = 100
const OFFSET_MAX = 1_000_000

function intParam(
  params: URLSearchParams,
  name: string,
  { min, max, fallback }: { min: number; max: number; fallback: number },
) {
  const raw = params.get(name)
  if (raw === null || raw.trim() === '') return fallback
  if (!/^\d{1,7}$/.test(raw.trim())) return null
  const n = Number(raw.trim())
  return n < min || n > max ? null : n
}

/**
 * GET /api/events, /api/events/active and /api/public-events: live events as a JSON list, soonest first, with the
 * calendar's filters from the query string (keyword, category, zip, from, to) and paging (limit ≤ 100, offset).
 * The total number of matches is in X-Total-Count. An invalid filter value is a 400, not silently ignored.
 */
export async function liveEventsResponse(request: Request): Promise<Response> {
  const params = new URL(request.url).searchParams
  const { filters, notices } = normalizeCalendarFilters(params)
  if (notices.length > 0) return jsonError(notices.join(' '), 400)
  const limit = intParam(params, 'limit', { min: 1, max: API_PAGE_MAX, fallback: API_PAGE_MAX })
  const offset = intParam(params, 'offset', { min: 0, max: OFFSET_MAX, fallback: 0 })
  if (limit === null) return jsonError(`limit must be a whole number from 1 to ${API_PAGE_MAX}`, 400)
  if (offset === null) return jsonError('offset must be a whole number, 0 or more', 400)
  const today = platformToday()
  const [events, total] = await Promise.all([
    getLiveEventsPage(filters, { today, limit, offset }),
    getLiveEventsCount(filters, { today }),
  ])
  return Response.json(events, { headers: { 'X-Total-Count': String(total), 'Cache-Control': 'no-cache' } })
}
