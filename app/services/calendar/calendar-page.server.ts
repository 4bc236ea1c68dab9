import {
  CALENDAR_FILTER_PARAMS,
  dateWindow,
  isInDateWindow,
  listingStart,
  unknownZipMessage,
  type CalendarFilters,
} from '#app/models/calendar/calendar-filters.ts'
import {
  MONTH_DAY_EVENTS_LIMIT,
  monthGrid,
  type DayEvents,
  type MonthGrid,
} from '#app/models/calendar/calendar-month.ts'
import type { EventTileData } from '#app/models/ads/event-tile.ts'
import { practicalFactsOf, type PracticalFacts } from '#app/models/ads/practical-facts.ts'
import { advertisedText, eventTimesOf } from '#app/models/ads/event-times.ts'
import { scheduleStatusOf } from '#app/models/ads/schedule-status.ts'
import { businessPagePath } from '#app/models/calendar/business-links.ts'
import { listBusinessIdsWithPageOff } from '#app/models/calendar/business-page.server.ts'
import { cachedLiveEvents } from '#app/models/calendar/live-events-cache.server.ts'
import { loadCalendarListing } from '#app/models/calendar/cached-listing.server.ts'
import type { LiveEventCard } from '#app/models/calendar/calendar-listing.server.ts'
import { listEventsByDay } from '#app/models/calendar/calendar-month-grid.server.ts'
import { isKnownZip, nearestZip } from '#app/models/calendar/zip-centroids.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { keptWith } from '#app/utils/kept-with.ts'
import { NEAR_ME_LAT, NEAR_ME_LNG } from '#app/utils/near-me.ts'
import { FEATURED_EVENTS_LIMIT } from '#app/constants.ts'
import { slotCard } from '#app/models/calendar/sponsored-slots.server.ts'
import { secondsLeftInTurn, sponsoredTurn } from '#app/models/calendar/sponsored-placement.ts'
import { sponsoredSlotCandidates } from './sponsored-slots.server.ts'

export interface CalendarPageResults {
  total: number
  page: number
  pageCount: number
  /** The Sponsored slots' ads first (labelled), then the first matches that are on. */
  featured: EventTileData[]
  /** The Sponsored slots, above the page of matches (each ad is in its own place among them too). */
  sponsored: EventTileData[]
  events: EventTileData[]
  /** Seconds until the slots' turn ends: how long the page may be shared (none without slots). */
  sponsoredForSeconds: number | null
}

/** What a tile needs of the request to say which of an event's dates matched, and which businesses have no page. */
interface TileContext {
  filters: CalendarFilters
  today: string
  pagesOff: Set<number>
}

/**
 * Under a date filter, an event whose own date lies outside the window matched on a display date: the tile says
 * which ("Advertised today"). Its `date` stays the event's own.
 */
function tileAdvertisedText(event: LiveEventCard, { filters, today }: TileContext): string | null {
  const window = dateWindow(filters)
  if (!window || event.date === event.listedDate) return null
  return !isInDateWindow(event.date, window) && isInDateWindow(event.listedDate, window)
    ? advertisedText(event.listedDate, today)
    : null
}

/**
 * The businesses whose cards do not link to a page, cached like the listings (and cleared with them when a business
 * turns its page on or off): read once for every listing, not joined into each.
 */
function getBusinessesWithPageOff(): Promise<Set<number>> {
  return cachedLiveEvents(
    JSON.stringify(['business-pages-off']),
    async () => new Set(await listBusinessIdsWithPageOff()),
  )
}

const tilesOfCards = keptWith<LiveEventCard, EventTileData>()

/**
 * A card of the listing as a tile. The same card in the same context gives the same tile object: listings hand out
 * the same card objects (`cardListedAt`), and the rendered-tile cache then finds the tile's key without building it.
 */
function toTile(event: LiveEventCard, context: TileContext, sponsored = false): EventTileData {
  const advertisedText = tileAdvertisedText(event, context)
  const pageOff = context.pagesOff.has(event.businessID)
  return tilesOfCards(event, `${sponsored} ${pageOff} ${advertisedText}`, () => {
    const { startTime, endTime } = eventTimesOf(event)
    return {
      eventID: event.eventID,
      eventTitle: event.eventTitle,
      eventDescription: event.eventDescription,
      category: event.category,
      stillPhotoPath: event.stillPhotoPath,
      businessName: event.businessName,
      date: event.date,
      startTime,
      endTime,
      scheduleStatus: scheduleStatusOf(event.scheduleStatus),
      advertisedText,
      facts: tileFacts(practicalFactsOf(event)),
      businessHref: pageOff ? null : businessPagePath(event.businessID, event.businessName),
      ...(sponsored ? { sponsored } : {}),
    }
  })
}

function tileFacts({ priceCents, attendanceMode, accessibilityFeatures }: PracticalFacts) {
  return { priceCents, attendanceMode, accessibilityFeatures }
}

/** What the page says about the distance filter's ZIP when it is not one we know (no event can be near it). */
export async function nearZipNotices(filters: CalendarFilters): Promise<string[]> {
  return filters.near && !(await isKnownZip(filters.near)) ? [unknownZipMessage(filters.near)] : []
}

/**
 * The calendar's results for these filters, from the listing cache (the shared page cache keeps whole pages), with
 * the Sponsored slots of the turn of `now` in front of the Featured strip and above the page.
 */
export async function getCalendarResults(
  filters: CalendarFilters,
  { today, page, now = Date.now() }: { today: string; page: number; now?: number },
): Promise<CalendarPageResults> {
  const results = await getMatchingResults(filters, { today, page })
  const sponsored = await getSponsoredSlots(filters, { today, now, allMatches: allMatchesOf(results) })
  if (sponsored.length === 0) return { ...results, sponsored, sponsoredForSeconds: null }
  const inSlots = new Set(sponsored.map((tile) => tile.eventID))
  return {
    ...results,
    featured: [...sponsored, ...results.featured.filter((tile) => !inSlots.has(tile.eventID))].slice(
      0,
      FEATURED_EVENTS_LIMIT,
    ),
    sponsored,
    sponsoredForSeconds: secondsLeftInTurn(now),
  }
}

/**
 * The Sponsored slots for these filters at the turn of `now`: up to the host's number of slots, labelled (cached like
 * the listing, one entry per turn). `allMatches`: every event the filters match, when the caller has them all.
 */
export function getSponsoredSlots(
  filters: CalendarFilters,
  { today, now = Date.now(), allMatches }: { today: string; now?: number; allMatches?: ReadonlySet<number> },
): Promise<EventTileData[]> {
  const turn = sponsoredTurn(now)
  const key = JSON.stringify(['sponsored-slots', today, turn, filters])
  return cachedLiveEvents(key, async () => {
    const start = listingStart(filters, today)
    const [inSlots, pagesOff] = await Promise.all([
      sponsoredSlotCandidates(filters, { today, now, allMatches }),
      getBusinessesWithPageOff(),
    ])
    return inSlots.map((candidate) =>
      toTile(slotCard(candidate, start, today), { filters, today, pagesOff }, true),
    )
  })
}

type MatchingResults = Omit<CalendarPageResults, 'sponsored' | 'sponsoredForSeconds'>

/**
 * Every match of the filters when the results hold them all (a first page with every match on it, as a narrow search
 * has), so the slots need not ask the database which of their ads match.
 */
function allMatchesOf({ page, total, events }: MatchingResults): Set<number> | undefined {
  return page === 1 && events.length >= total ? new Set(events.map((event) => event.eventID)) : undefined
}

function getMatchingResults(
  filters: CalendarFilters,
  { today, page }: { today: string; page: number },
): Promise<MatchingResults> {
  const key = JSON.stringify(['calendar-results', today, page, filters])
  return cachedLiveEvents(key, async () => {
    const [listing, pagesOff] = await Promise.all([
      loadCalendarListing(filters, { today, page }),
      getBusinessesWithPageOff(),
    ])
    const context = { filters, today, pagesOff }
    return {
      total: listing.total,
      page: listing.page,
      pageCount: listing.pageCount,
      featured: listing.featured.map((event) => toTile(event, context)),
      events: listing.events.map((event) => toTile(event, context)),
    }
  })
}

export interface CalendarMonthResults {
  grid: MonthGrid
  /** The days of the month with a match, in date order. */
  days: DayEvents[]
}

/** The month grid for these filters: the first few events of each day and the day's count (cached like the list). */
export function getCalendarMonth(
  filters: CalendarFilters,
  { today, month }: { today: string; month: string },
): Promise<CalendarMonthResults> {
  const grid = monthGrid(month)
  const key = JSON.stringify(['calendar-month', today, month, filters])
  return cachedLiveEvents(key, async () => ({
    grid,
    days: await listEventsByDay(filters, {
      today,
      from: grid.first,
      to: grid.last,
      perDay: MONTH_DAY_EVENTS_LIMIT,
    }),
  }))
}

export const NO_ZIP_NEAR_YOU_MESSAGE =
  'We could not find a US ZIP code near your location. Enter a ZIP code in "Near ZIP" instead.'
export const BAD_POSITION_MESSAGE = 'Your location could not be read: a latitude and a longitude are needed.'

function coordinate(value: unknown, limit: number) {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : null
}

/** Where "Use my location" leads: the calendar near `zip`, or without a distance (and a notice) when none was near. */
export interface NearPositionAnswer {
  href: string
  zip: string | null
}

/**
 * "Use my location": the calendar near the ZIP closest to the posted position (the form's latitude and longitude
 * fields, as posted), with the filters of the address's query string it was posted to. The position itself goes no
 * further (not into the URL, not into a log).
 */
export async function calendarNearPosition(
  position: { latitude: unknown; longitude: unknown },
  searchParams: URLSearchParams,
): Promise<NearPositionAnswer> {
  const latitude = coordinate(position.latitude, 90)
  const longitude = coordinate(position.longitude, 180)
  if (latitude === null || longitude === null) throw new AppError(BAD_POSITION_MESSAGE, 'invalid')
  const params = new URLSearchParams(searchParams)
  for (const name of [CALENDAR_FILTER_PARAMS.near, CALENDAR_FILTER_PARAMS.page, NEAR_ME_LAT, NEAR_ME_LNG])
    params.delete(name)
  // The filters form sends its empty fields too; the address keeps only what is set.
  for (const [name, value] of [...params]) if (value.trim() === '') params.delete(name)
  const zip = await nearestZip(latitude, longitude)
  if (!zip) {
    const query = params.toString()
    return { href: `/calendar${query ? `?${query}` : ''}`, zip: null }
  }
  params.set(CALENDAR_FILTER_PARAMS.near, zip)
  return { href: `/calendar?${params}`, zip }
}
