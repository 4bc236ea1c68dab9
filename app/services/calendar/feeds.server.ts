import { createEvents, type DateArray, type EventAttributes } from 'ics'
import { PRODUCT_NAME, TAGLINE, UNSET_DATE } from '#app/constants.ts'
import {
  calendarSearchParams,
  dateWindow,
  factFilterErrors,
  listingStart,
  nearFilterErrors,
  normalizeCalendarFilters,
  unknownZipMessage,
} from '#app/models/calendar/calendar-filters.ts'
import { eventDates, hasOwnDate, nextEventDate } from '#app/models/ads/event-dates.ts'
import { eventLocation, type CalendarEntrySource } from '#app/models/ads/event-links.ts'
import { eventPagePath } from '#app/models/ads/event-seo.ts'
import { cardFacts } from '#app/models/ads/customer-card.ts'
import { practicalFactLines } from '#app/models/ads/practical-facts.ts'
import { getLiveEventsPage } from '#app/models/calendar/cached-listing.server.ts'
import { listLiveEventIds } from '#app/models/calendar/sitemap.server.ts'
import { isKnownZip } from '#app/models/calendar/zip-centroids.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'

/** Feeds list the soonest events; a subscriber does not need thousands at once. */
export const FEED_EVENTS_LIMIT = 200
/** The sitemap protocol's limit per file. */
export const SITEMAP_URL_LIMIT = 50_000

export const PUBLIC_PAGE_PATHS = ['/landing', '/public', '/calendar'] as const

/**
 * The feed's filters from its query string; a distance filter a subscriber cannot have meant (a bad ZIP or radius)
 * is an invalid AppError.
 */
async function feedFilters(searchParams: URLSearchParams) {
  const errors = [...nearFilterErrors(searchParams), ...factFilterErrors(searchParams)]
  if (errors.length > 0) throw new AppError(errors.join('; '), 'invalid')
  const { filters } = normalizeCalendarFilters(searchParams)
  if (filters.near && !(await isKnownZip(filters.near)))
    throw new AppError(unknownZipMessage(filters.near), 'invalid')
  return { filters, today: platformToday() }
}

function dateArray(isoDate: string): DateArray {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number]
  return [y, m, d]
}

/** One all-day entry per given date of the event, each linking to the event's page. */
function calendarEntries(
  event: CalendarEntrySource,
  dates: readonly string[],
  origin: string,
): EventAttributes[] {
  const url = new URL(eventPagePath(event.eventID), `${origin}/`).toString()
  const host = new URL(origin).host
  return dates.map((date): EventAttributes => ({
    uid: `event-${event.eventID}-${date}@${host}`,
    start: dateArray(date),
    end: dateArray(addDaysIso(date, 1)),
    title: event.eventTitle,
    description: [event.eventDescription, ...practicalFactLines(cardFacts(event)), url].join('\n\n'),
    location: eventLocation(event),
    url,
    categories: event.category.length > 0 ? [...event.category] : undefined,
    status: 'CONFIRMED',
    busyStatus: 'FREE',
    transp: 'TRANSPARENT',
  }))
}

function icsText(entries: EventAttributes[], calName: string) {
  const { error, value } = createEvents(entries, { productId: `-//${PRODUCT_NAME}//Calendar//EN`, calName })
  if (error || value === null) throw error ?? new Error('The calendar could not be written')
  return value
}

/**
 * The live events matching the calendar's filters (its query string) as iCalendar, one all-day entry per event date
 * from today on: an event's own date, or each of its display dates inside the date filter (when one is set). Each
 * links to the page on the site at `origin`.
 */
export async function calendarIcs(searchParams: URLSearchParams, origin: string): Promise<string> {
  const { filters, today } = await feedFilters(searchParams)
  const window = dateWindow(filters)
  const inWindow = (d: string) => !window || ((window.from === null || d >= window.from) && d <= window.to)
  const events = await getLiveEventsPage(filters, { today, limit: FEED_EVENTS_LIMIT })
  const entries = events.flatMap((event) => {
    const upcoming = eventDates(event.eventDate, event.showAdOnDates).filter((d) => d >= today)
    // The filter picked the event; its own date is when it happens, whichever display date matched.
    const dates = hasOwnDate(event.eventDate) ? upcoming : upcoming.filter(inWindow)
    return calendarEntries(event, dates, origin)
  })
  return icsText(entries, `${PRODUCT_NAME} events`)
}

/** One event as iCalendar ("Add to calendar"): an entry per event date. */
export function eventIcs(event: CalendarEntrySource, origin: string): string {
  return icsText(
    calendarEntries(event, eventDates(event.eventDate, event.showAdOnDates), origin),
    event.eventTitle,
  )
}

function xml(text: string) {
  return text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  )
}

function rfc822(isoDateOrInstant: string | Date) {
  const date =
    typeof isoDateOrInstant === 'string' ? new Date(`${isoDateOrInstant}T12:00:00Z`) : isoDateOrInstant
  return date.toUTCString()
}

/** The live events matching the calendar's filters (its query string) as RSS 2.0, soonest first. */
export async function calendarRss(searchParams: URLSearchParams, origin: string): Promise<string> {
  const { filters, today } = await feedFilters(searchParams)
  const events = await getLiveEventsPage(filters, { today, limit: FEED_EVENTS_LIMIT })
  const query = calendarSearchParams(filters).toString()
  const pageUrl = `${origin}/calendar${query ? `?${query}` : ''}`
  const selfUrl = `${origin}/calendar.rss${query ? `?${query}` : ''}`
  const items = events.map((event) => {
    const url = new URL(eventPagePath(event.eventID), `${origin}/`).toString()
    const date = nextEventDate(event, listingStart(filters, today))
    const when = date ? ` (${date})` : ''
    const published =
      event.approvedDateByAdmin !== UNSET_DATE ? rfc822(event.approvedDateByAdmin) : rfc822(event.createdDate)
    return [
      '<item>',
      `<title>${xml(`${event.eventTitle}${when}`)}</title>`,
      `<link>${xml(url)}</link>`,
      `<guid isPermaLink="true">${xml(url)}</guid>`,
      `<description>${xml([event.eventDescription, ...practicalFactLines(cardFacts(event))].join('\n'))}</description>`,
      ...event.category.map((c) => `<category>${xml(c)}</category>`),
      `<pubDate>${published}</pubDate>`,
      '</item>',
    ].join('')
  })
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>',
    `<title>${xml(`${PRODUCT_NAME} events`)}</title>`,
    `<link>${xml(pageUrl)}</link>`,
    `<description>${xml(`${TAGLINE} Upcoming events from local businesses.`)}</description>`,
    `<atom:link href="${xml(selfUrl)}" rel="self" type="application/rss+xml"/>`,
    `<lastBuildDate>${new Date().toUTCString()}</lastBuildDate>`,
    ...items,
    '</channel></rss>',
  ].join('\n')
}

/** The public pages and every live event's page. */
export async function sitemapXml(origin: string): Promise<string> {
  const today = platformToday()
  const live = await listLiveEventIds({ today, limit: SITEMAP_URL_LIMIT - PUBLIC_PAGE_PATHS.length })
  const urls = [
    ...PUBLIC_PAGE_PATHS.map(
      (p) => `<url><loc>${xml(`${origin}${p}`)}</loc><changefreq>daily</changefreq></url>`,
    ),
    ...live.map((e) => {
      const loc = new URL(eventPagePath(e.eventID), `${origin}/`).toString()
      const lastmod =
        e.approvedDateByAdmin !== UNSET_DATE ? `<lastmod>${e.approvedDateByAdmin}</lastmod>` : ''
      return `<url><loc>${xml(loc)}</loc>${lastmod}</url>`
    }),
  ]
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
  ].join('\n')
}

export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    // Event photos stay reachable for link previews and image search.
    'Allow: /api/media/',
    'Disallow: /api/',
    'Disallow: /admin',
    'Disallow: /dashboard',
    'Disallow: /checkout',
    'Disallow: /patient-diseases',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n')
}
