import { PRODUCT_NAME, TAGLINE, UNSET_DATE } from '#app/constants.ts'
import {
  calendarSearchParams,
  dateWindow,
  isInDateWindow,
  factFilterErrors,
  listingStart,
  nearFilterErrors,
  normalizeCalendarFilters,
  unknownZipMessage,
} from '#app/models/calendar/calendar-filters.ts'
import { eventDates, hasOwnDate, nextEventDate } from '#app/models/ads/event-dates.ts'
import { type CalendarEntrySource } from '#app/models/ads/event-links.ts'
import { eventPageUrl } from '#app/models/ads/event-address.ts'
import { eventTimesOf, formatTimeRange } from '#app/models/ads/event-times.ts'
import {
  eventCalendarEntries,
  feedTitle,
  scheduleStatusLine,
} from '#app/models/calendar/event-calendar-entries.ts'
import { icalendarText, type ICalEvent } from '#app/models/calendar/icalendar.ts'
import { timeZoneBlock } from '#app/models/calendar/time-zone-block.server.ts'
import { cardFacts } from '#app/models/ads/customer-card.ts'
import { practicalFactLines } from '#app/models/ads/practical-facts.ts'
import { getLiveEventsPage } from '#app/models/calendar/cached-listing.server.ts'
import { listLiveEventFiles, listLiveEventIds } from '#app/models/calendar/sitemap.server.ts'
import { businessPagePath, businessRssPath } from '#app/models/calendar/business-links.ts'
import { listBusinessPages } from '#app/models/calendar/business-page.server.ts'
import { isKnownZip } from '#app/models/calendar/zip-centroids.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { getEnv } from '../platform/env.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import { businessFeedAds } from './business-page.server.ts'

/** Feeds list the soonest events; a subscriber does not need thousands at once. */
export const FEED_EVENTS_LIMIT = 200
/** The sitemap protocol's limit per file. */
export const SITEMAP_URL_LIMIT = 50_000
/**
 * Event ids per sitemap file: file n lists the live events with an id in ((n - 1) × this, n × this], so an event
 * stays in one file for good. A file holds at most this many addresses (about 1 MB and a few tens of ms when every
 * id in its range is live, a tenth of that at the usual share of live ads), well under the protocol's 50,000 and
 * 50 MB, while a million ids make only a hundred files in the index.
 */
export const SITEMAP_EVENT_IDS_PER_FILE = 10_000
/** The largest id an event can have (its column is a PostgreSQL integer). */
const MAX_EVENT_ID = 2_147_483_647

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

/**
 * Writes the entries of the given dates of each event as one calendar, with the VTIMEZONE of the platform time zone
 * that its timed entries name (UTC times instead in the unlikely case the zone has no VTIMEZONE data).
 */
function icsText(
  items: ReadonlyArray<{ event: CalendarEntrySource; dates: readonly string[] }>,
  calName: string,
  origin: string,
) {
  const timeZone = getEnv().APP_TIME_ZONE
  const block = timeZoneBlock(timeZone)
  const context = { origin, now: new Date(), timeZone, tzid: block?.tzid ?? null }
  const entries: ICalEvent[] = items.flatMap(({ event, dates }) =>
    eventCalendarEntries(event, dates, context),
  )
  const timed = entries.some((entry) => entry.start.kind === 'local')
  return icalendarText({
    prodId: `-//${PRODUCT_NAME}//Calendar//EN`,
    name: calName,
    timeZones: timed && block ? [block.vtimezone] : [],
    events: entries,
  })
}

/**
 * The live events matching the calendar's filters (its query string) as iCalendar, one entry per event date from
 * today on: an event's own date, or each of its display dates inside the date filter (when one is set). Each links
 * to the page on the site at `origin`. Cancelled and postponed ads stay until their last date, with their status.
 */
export async function calendarIcs(searchParams: URLSearchParams, origin: string): Promise<string> {
  const { filters, today } = await feedFilters(searchParams)
  const window = dateWindow(filters)
  const inWindow = (d: string) => !window || isInDateWindow(d, window)
  const events = await getLiveEventsPage(filters, { today, limit: FEED_EVENTS_LIMIT })
  const items = events.map((event) => {
    const upcoming = eventDates(event.eventDate, event.showAdOnDates).filter((d) => d >= today)
    // The filter picked the event; its own date is when it happens, whichever display date matched.
    const dates = hasOwnDate(event.eventDate) ? upcoming : upcoming.filter(inWindow)
    return { event, dates }
  })
  return icsText(items, `${PRODUCT_NAME} events`, origin)
}

/** One event as iCalendar ("Add to calendar"): an entry per event date. */
export function eventIcs(event: CalendarEntrySource, origin: string): string {
  return icsText(
    [{ event, dates: eventDates(event.eventDate, event.showAdOnDates) }],
    event.eventTitle,
    origin,
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

type FeedEvent = Omit<Awaited<ReturnType<typeof getLiveEventsPage>>[number], 'nextShowDate'>

/** One event as an RSS item: its title with its date from `start` and time, its status, description and facts. */
function rssItem(event: FeedEvent, origin: string, start: string) {
  const url = eventPageUrl(event, origin)
  const date = nextEventDate(event, start)
  const time = formatTimeRange(eventTimesOf(event))
  const when = date ? ` (${[date, time].filter(Boolean).join(', ')})` : ''
  const published =
    event.approvedDateByAdmin !== UNSET_DATE ? rfc822(event.approvedDateByAdmin) : rfc822(event.createdDate)
  const status = scheduleStatusLine(event)
  // The same guid with a new title and description: readers update the item they already have.
  const description = [
    ...(status ? [status] : []),
    event.eventDescription,
    ...practicalFactLines(cardFacts(event)),
  ]
  return [
    '<item>',
    `<title>${xml(`${feedTitle(event)}${when}`)}</title>`,
    `<link>${xml(url)}</link>`,
    `<guid isPermaLink="true">${xml(url)}</guid>`,
    `<description>${xml(description.join('\n'))}</description>`,
    ...event.category.map((c) => `<category>${xml(c)}</category>`),
    `<pubDate>${published}</pubDate>`,
    '</item>',
  ].join('')
}

function rssText(
  channel: { title: string; pageUrl: string; selfUrl: string; description: string },
  items: string[],
) {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>',
    `<title>${xml(channel.title)}</title>`,
    `<link>${xml(channel.pageUrl)}</link>`,
    `<description>${xml(channel.description)}</description>`,
    `<atom:link href="${xml(channel.selfUrl)}" rel="self" type="application/rss+xml"/>`,
    `<lastBuildDate>${new Date().toUTCString()}</lastBuildDate>`,
    ...items,
    '</channel></rss>',
  ].join('\n')
}

/** The live events matching the calendar's filters (its query string) as RSS 2.0, soonest first. */
export async function calendarRss(searchParams: URLSearchParams, origin: string): Promise<string> {
  const { filters, today } = await feedFilters(searchParams)
  const events = await getLiveEventsPage(filters, { today, limit: FEED_EVENTS_LIMIT })
  const query = calendarSearchParams(filters).toString()
  const start = listingStart(filters, today)
  return rssText(
    {
      title: `${PRODUCT_NAME} events`,
      pageUrl: `${origin}/calendar${query ? `?${query}` : ''}`,
      selfUrl: `${origin}/calendar.rss${query ? `?${query}` : ''}`,
      description: `${TAGLINE} Upcoming events from local businesses.`,
    },
    events.map((event) => rssItem(event, origin, start)),
  )
}

/** A business page's live ads as iCalendar, an entry per event date from today on (`not_found` without a page). */
export async function businessIcs(businessID: number, origin: string): Promise<string> {
  const { business, today, ads } = await businessFeedAds(businessID)
  const items = ads.map((event) => ({
    event,
    dates: eventDates(event.eventDate, event.showAdOnDates).filter((d) => d >= today),
  }))
  return icsText(items, `${business.businessName} · ${PRODUCT_NAME}`, origin)
}

/** A business page's live ads as RSS 2.0, soonest first (`not_found` without a page). */
export async function businessRss(businessID: number, origin: string): Promise<string> {
  const { business, today, ads } = await businessFeedAds(businessID)
  const items = ads
    .map((event) => ({ event, date: nextEventDate(event, today) ?? '' }))
    .sort((a, b) => a.date.localeCompare(b.date) || a.event.eventID - b.event.eventID)
  return rssText(
    {
      title: `${business.businessName} · ${PRODUCT_NAME}`,
      pageUrl: new URL(businessPagePath(businessID, business.businessName), `${origin}/`).toString(),
      selfUrl: new URL(businessRssPath(businessID), `${origin}/`).toString(),
      description: `Upcoming events from ${business.businessName}.`,
    },
    items.map(({ event }) => rssItem(event, origin, today)),
  )
}

/** A sitemap's lastmod: a W3C datetime in UTC, to the second. */
function w3cDateTime(instant: Date) {
  return instant.toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/** The sitemap file of the public pages and every business page. */
export const SITEMAP_PAGES_PATH = '/sitemaps/pages.xml'

/** The address of the sitemap file with the events of ids ((n - 1) × idsPerFile, n × idsPerFile]. */
export function sitemapEventsPath(n: number) {
  return `/sitemaps/events-${n}.xml`
}

/** The lastmod of an event's page: its last change (a W3C datetime), else the day it was approved, if known. */
function eventLastmod(changedAt: Date | null, approvedDateByAdmin: string | null) {
  if (changedAt) return w3cDateTime(changedAt)
  return approvedDateByAdmin && approvedDateByAdmin !== UNSET_DATE ? approvedDateByAdmin : null
}

/**
 * The lastmod of an events file, the newest of its pages': the latest last change, or the latest approval day of
 * the pages without one when that day is later.
 */
function fileLastmod(changedAt: Date | null, approvedDateByAdmin: string | null) {
  const approved = eventLastmod(null, approvedDateByAdmin)
  if (!changedAt) return approved
  return approved && Date.parse(`${approved}T00:00:00Z`) > changedAt.getTime()
    ? approved
    : w3cDateTime(changedAt)
}

function urlset(urls: string[]) {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
  ].join('\n')
}

interface SitemapFileSize {
  /** Event ids per file; SITEMAP_EVENT_IDS_PER_FILE unless a test makes files smaller. */
  idsPerFile?: number
}

/**
 * The sitemap index: the pages' file, then each events file that holds a live event, with the newest lastmod of
 * the events in it.
 */
export async function sitemapIndexXml(
  origin: string,
  { idsPerFile = SITEMAP_EVENT_IDS_PER_FILE }: SitemapFileSize = {},
): Promise<string> {
  const files = await listLiveEventFiles({ today: platformToday(), idsPerFile })
  const entry = (path: string, lastmod: string | null) =>
    `<sitemap><loc>${xml(`${origin}${path}`)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</sitemap>`
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    entry(SITEMAP_PAGES_PATH, null),
    ...files.map((f) => entry(sitemapEventsPath(f.file), fileLastmod(f.changedAt, f.approvedDateByAdmin))),
    '</sitemapindex>',
  ].join('\n')
}

/** The public pages and every business page (as many as one file may hold). */
async function pagesXml(origin: string) {
  const businesses = await listBusinessPages({
    today: platformToday(),
    limit: SITEMAP_URL_LIMIT - PUBLIC_PAGE_PATHS.length,
  })
  return urlset([
    ...PUBLIC_PAGE_PATHS.map(
      (p) => `<url><loc>${xml(`${origin}${p}`)}</loc><changefreq>daily</changefreq></url>`,
    ),
    ...businesses.map((b) => {
      const loc = new URL(businessPagePath(b.businessID, b.businessName), `${origin}/`).toString()
      return `<url><loc>${xml(loc)}</loc><changefreq>daily</changefreq></url>`
    }),
  ])
}

/** The live events' pages of events file n; null when it holds none. */
async function eventsXml(n: number, origin: string, idsPerFile: number) {
  const afterId = (n - 1) * idsPerFile
  if (afterId >= MAX_EVENT_ID) return null
  const live = await listLiveEventIds({
    today: platformToday(),
    afterId,
    throughId: Math.min(afterId + idsPerFile, MAX_EVENT_ID),
  })
  if (live.length === 0) return null
  return urlset(
    live.map((e) => {
      const lastmod = eventLastmod(e.changedAt, e.approvedDateByAdmin)
      return `<url><loc>${xml(eventPageUrl(e, origin))}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`
    }),
  )
}

/**
 * A file the sitemap index names, by its name under /sitemaps/: `pages.xml` or `events-{n}.xml`. Any other name, or
 * an events file with no live event, is a not_found AppError.
 */
export async function sitemapFileXml(
  name: string,
  origin: string,
  { idsPerFile = SITEMAP_EVENT_IDS_PER_FILE }: SitemapFileSize = {},
): Promise<string> {
  if (name === 'pages.xml') return pagesXml(origin)
  const n = /^events-([1-9]\d{0,9})\.xml$/.exec(name)?.[1]
  const found = n ? await eventsXml(Number(n), origin, idsPerFile) : null
  if (found === null) throw new AppError('There is no such sitemap file.', 'not_found')
  return found
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
