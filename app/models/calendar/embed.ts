import { PRODUCT_NAME } from '#app/constants.ts'
import { AppError } from '#app/utils/app-error.ts'
import {
  calendarFilterErrors,
  calendarSearchParams,
  normalizeCalendarFilters,
  type CalendarFilters,
} from '#app/models/calendar/calendar-filters.ts'

/** How many events the embedded list shows (the soonest first); a link under it opens the rest on the calendar. */
export const EMBED_EVENTS_LIMIT = 10
export const EMBED_FRAME_HEIGHT_PX = 600
export const EMBED_FRAME_TITLE = `Upcoming events from ${PRODUCT_NAME}`

/** A refusal of the embed's filters: each problem in the list (conform's form-level key), all of them as message. */
export function embedFiltersRefused(errors: string[]) {
  return new AppError(errors.join('; '), 'invalid', { fieldErrors: { '': errors } })
}

/**
 * The embed's filters: the calendar's, but a bad value is refused (an invalid AppError, {@link embedFiltersRefused})
 * rather than ignored, since a partner's snippet that silently showed other events would go unnoticed.
 */
export function parseEmbedFilters(searchParams: URLSearchParams): CalendarFilters {
  const errors = calendarFilterErrors(searchParams)
  if (errors.length) throw embedFiltersRefused(errors)
  return normalizeCalendarFilters(searchParams).filters
}

/** The framed list's path for these filters. */
export function embedCalendarPath(filters: CalendarFilters) {
  const query = calendarSearchParams(filters).toString()
  return `/embed/calendar${query ? `?${query}` : ''}`
}

function escapeHtmlAttribute(value: string) {
  return value.replace(/[&"<>]/g, (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' })[c]!)
}

/** The HTML a partner pastes into a page: an iframe of the list at `url` (absolute). */
export function embedSnippet(url: string) {
  return (
    `<iframe src="${escapeHtmlAttribute(url)}" title="${escapeHtmlAttribute(EMBED_FRAME_TITLE)}" ` +
    `width="100%" height="${EMBED_FRAME_HEIGHT_PX}" loading="lazy" style="border:0"></iframe>`
  )
}
