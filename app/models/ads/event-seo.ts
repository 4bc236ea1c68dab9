import { MAX_DISPLAY_DATES, PRODUCT_NAME, type DEFAULT_CATEGORIES } from '#app/constants.ts'
import { eventPageUrl } from '#app/models/ads/event-address.ts'
import { eventDates } from '#app/models/ads/event-dates.ts'
import { businessPagePath } from '#app/models/calendar/business-links.ts'
import { externalUrl } from '#app/utils/format.ts'
import { SHARE_IMAGE_CONTENT_TYPE, SHARE_IMAGE_SIZES, shareImagePaths } from '#app/models/ads/share-images.ts'
import { cardFacts } from '#app/models/ads/customer-card.ts'
import { endDateOf, eventTimesOf, type EventTimes } from '#app/models/ads/event-times.ts'
import { scheduleStatusOf, type ScheduleStatus } from '#app/models/ads/schedule-status.ts'
import { zonedIsoDateTime } from '#app/models/ads/zoned-times.ts'
import type {
  AccessibilityFeature,
  AgeRange,
  AttendanceMode,
  PracticalFacts,
  StoredFacts,
} from '#app/models/ads/practical-facts.ts'

/** What search engines and link previews read of a live event. */
export interface EventSeoSource extends Partial<StoredFacts> {
  eventID: number
  eventTitle: string
  eventDescription: string
  eventDate: string
  showAdOnDates: readonly string[]
  businessName: string
  businessAddress?: string | null
  businessCity?: string | null
  businessState?: string | null
  businessZip?: string | null
  businessWebsite?: string | null
  stillPhotoPath?: string | null
  /** As stored (`hh:mm:ss`), in the platform time zone; no start time = all day. */
  startTime?: string | null
  endTime?: string | null
  scheduleStatus?: string | null
  scheduleNote?: string | null
  /** The ad's business, and whether it shows its page: the organizer's address is then that page. */
  businessID?: number
  businessPageOn?: boolean | null
  category?: readonly string[] | null
  /** A postponed ad given new dates: its next date before them (new-dates.ts). */
  previousStartDate?: string | null
}

/** Where an event's links and structured data are read: the site's origin, today and the platform time zone. */
export interface EventLinkContext {
  origin: string
  today: string
  /** The platform time zone (APP_TIME_ZONE): the times of day are in it. */
  timeZone: string
}

export interface EventSeo {
  canonicalUrl: string
  title: string
  description: string
  imageUrl: string | null
  /** The image's size, type and text alternative, when known (the share card's): `og:image:*`. */
  imageDetails?: { width: number; height: number; type: string; alt: string }
  /** The page's schema.org data (see `markedUp`); null when there is nothing to mark up. */
  jsonLd: JsonLd | null
}

/** One JSON-LD node, or several (each with its own `@context`). */
export type JsonLd = Record<string, unknown> | Array<Record<string, unknown>>

/**
 * The category of deals, coupons and offers: Google's Event guidance says they are not events (docs/decisions/042),
 * so an ad that has it is marked up as an Offer.
 */
export const SPECIAL_CATEGORY = 'Special' satisfies (typeof DEFAULT_CATEGORIES)[number]

/** At most this many of an ad's dates are marked up, one Event each: every date an ad can have. */
export const MAX_MARKED_UP_DATES = MAX_DISPLAY_DATES

function clip(text: string, max: number) {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`
}

/**
 * Canonical URL, Open Graph values and schema.org data for a live event: one Event per date from today on (`markedUp`),
 * its start and end dates for an all-day event, else date-times with the UTC offset the platform time zone has on
 * that date.
 */
export function eventSeo(event: EventSeoSource, { origin, today, timeZone }: EventLinkContext): EventSeo {
  const canonicalUrl = eventPageUrl(event, origin)
  const images = shareImagePaths(event)
  const imageUrl = new URL(images.card, `${origin}/`).toString()
  const image = images.structuredData.map((path) => new URL(path, `${origin}/`).toString())
  const times = eventTimesOf(event)
  const status = scheduleStatusOf(event.scheduleStatus)
  const description = clip(event.eventDescription, 300)
  const facts = cardFacts(event)
  const jsonLd: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: event.eventTitle,
    description,
    url: canonicalUrl,
    ...practicalFactsJsonLd(event, facts, canonicalUrl, status),
    organizer: organizerJsonLd(event, origin),
    ...(image.length ? { image } : {}),
  }
  return {
    canonicalUrl,
    title: `${event.eventTitle} · ${PRODUCT_NAME}`,
    description: clip(event.eventDescription, 160),
    imageUrl,
    imageDetails: { ...SHARE_IMAGE_SIZES.card, type: SHARE_IMAGE_CONTENT_TYPE, alt: event.eventTitle },
    jsonLd: markedUp(jsonLd, event, { today, timeZone, times, status }),
  }
}

/** The nodes of a page's JSON-LD, without their `@context`: for nesting them in another node. */
export function jsonLdNodes(jsonLd: JsonLd | null): Array<Record<string, unknown>> {
  return [jsonLd ?? []].flat().map(({ '@context': _context, ...node }) => node)
}

/** The ads that are a deal rather than an event. */
export function isSpecial(category: readonly string[] | null | undefined): boolean {
  return category?.includes(SPECIAL_CATEGORY) ?? false
}

interface MarkUpContext {
  today: string
  timeZone: string
  times: EventTimes
  status: ScheduleStatus | null
}

/**
 * What the page marks up, from the properties every node shares (`node`), as Google's Event guidance asks
 * (docs/decisions/042): a special is one Offer, valid from its next date to its last; any other ad is one Event per
 * date from today on (at most MAX_MARKED_UP_DATES), each with its own start and end. A postponed ad whose dates have
 * all passed keeps its last one, since a postponed event keeps its start date until the new one is known. Null when
 * no date is left.
 */
function markedUp(
  node: Record<string, unknown>,
  event: EventSeoSource,
  context: MarkUpContext,
): JsonLd | null {
  const dates = eventDates(event.eventDate, event.showAdOnDates)
  const upcoming = dates.filter((date) => date >= context.today).slice(0, MAX_MARKED_UP_DATES)
  if (isSpecial(event.category)) return specialOffer(node, upcoming[0] ?? dates.at(-1), dates.at(-1), context)
  const marked = upcoming.length > 0 ? upcoming : context.status === 'postponed' ? dates.slice(-1) : []
  const status = eventStatusJsonLd(context, event.previousStartDate)
  const nodes = marked.map((date) => ({
    ...node,
    ...jsonLdDates(date, date, context.times, context.timeZone),
    ...status,
  }))
  return nodes.length === 0 ? null : nodes.length === 1 ? nodes[0]! : nodes
}

/**
 * The event's status: cancelled, postponed, or (given new dates after it was postponed) rescheduled with the date it
 * had before; otherwise scheduled, sold out included (its offer says it is sold out).
 */
function eventStatusJsonLd(
  { status, times, timeZone }: MarkUpContext,
  previousStartDate: string | null | undefined,
): Record<string, string> {
  if (status === 'cancelled') return { eventStatus: 'https://schema.org/EventCancelled' }
  if (status === 'postponed') return { eventStatus: 'https://schema.org/EventPostponed' }
  const previous = previousStartDate
    ? jsonLdDates(previousStartDate, previousStartDate, times, timeZone).startDate
    : undefined
  return previous
    ? { eventStatus: 'https://schema.org/EventRescheduled', previousStartDate: previous }
    : { eventStatus: 'https://schema.org/EventScheduled' }
}

const OFFER_AVAILABILITY: Record<ScheduleStatus, string | null> = {
  cancelled: 'https://schema.org/Discontinued',
  sold_out: 'https://schema.org/SoldOut',
  postponed: null,
}

/**
 * A special as an Offer by its business: its text, page, price, place and picture, valid from `from` (its next date)
 * to `to` (its last), with its times of day when it has them.
 */
function specialOffer(
  node: Record<string, unknown>,
  from: string | undefined,
  to: string | undefined,
  { times, timeZone, status }: MarkUpContext,
): Record<string, unknown> {
  const { startDate, endDate } = jsonLdDates(from, to, times, timeZone)
  const ticket = node.offers as Record<string, unknown> | undefined
  const places = [node.location].flat() as Array<Record<string, unknown>>
  const place = places.find((location) => location['@type'] === 'Place')
  const availability = status ? OFFER_AVAILABILITY[status] : 'https://schema.org/InStock'
  return {
    '@context': node['@context'],
    '@type': 'Offer',
    name: node.name,
    description: node.description,
    url: node.url,
    offeredBy: node.organizer,
    ...(ticket && 'price' in ticket ? { price: ticket.price, priceCurrency: ticket.priceCurrency } : {}),
    ...(startDate ? { validFrom: startDate } : {}),
    ...((endDate ?? startDate) ? { validThrough: endDate ?? startDate } : {}),
    ...(availability ? { availability } : {}),
    ...(place ? { availableAtOrFrom: place } : {}),
    ...(node.image ? { image: node.image } : {}),
  }
}

/**
 * Who organizes the event: the business, at its page here when it shows one (its own website then beside it),
 * else at its website.
 */
function organizerJsonLd(event: EventSeoSource, origin: string) {
  const website = externalUrl(event.businessWebsite)
  const page =
    event.businessPageOn && event.businessID !== undefined
      ? new URL(businessPagePath(event.businessID, event.businessName), `${origin}/`).toString()
      : null
  const links = page
    ? { url: page, ...(website ? { sameAs: [website] } : {}) }
    : website
      ? { url: website }
      : {}
  return { '@type': 'Organization', name: event.businessName, ...links }
}

/**
 * JSON-LD's start and end: dates for an all-day event; otherwise the start time on the first date, and the end time
 * on the last (the day after it when the event ends after midnight) or, without an end time, its start time there
 * (none when that is the start itself).
 */
function jsonLdDates(
  first: string | null | undefined,
  last: string | undefined,
  times: EventTimes,
  timeZone: string,
): { startDate?: string; endDate?: string } {
  if (!times.startTime) return { startDate: first ?? undefined, endDate: last }
  const startDate = first ? zonedIsoDateTime(first, times.startTime, timeZone) : undefined
  if (!last) return { startDate }
  const endDate = times.endTime
    ? zonedIsoDateTime(endDateOf(last, times), times.endTime, timeZone)
    : last === first
      ? undefined
      : zonedIsoDateTime(last, times.startTime, timeZone)
  return endDate ? { startDate, endDate } : { startDate }
}

const ATTENDANCE_MODE_URLS: Record<AttendanceMode, string> = {
  in_person: 'https://schema.org/OfflineEventAttendanceMode',
  online: 'https://schema.org/OnlineEventAttendanceMode',
  mixed: 'https://schema.org/MixedEventAttendanceMode',
}

/** schema.org's spelling of each accessibility fact (its `accessibilityFeature` values are camelCase words). */
const ACCESSIBILITY_FEATURE_NAMES: Record<AccessibilityFeature, string> = {
  step_free: 'stepFreeAccess',
  accessible_restroom: 'accessibleRestroom',
  seating: 'seatingAvailable',
  sign_language: 'signLanguage',
  captions: 'captions',
  quiet_space: 'quietSpace',
  accessible_parking: 'accessibleParking',
}

const AGE_RANGE_VALUES: Record<AgeRange, string> = { all_ages: '0-', '18+': '18-', '21+': '21-' }

/**
 * The practical facts as schema.org Event properties (Google's rich results for Event are the reference): where
 * (`location` a Place, at the business's or the other address, and/or a VirtualLocation), `offers`,
 * `isAccessibleForFree`, `accessibilityFeature` and `typicalAgeRange`.
 */
function practicalFactsJsonLd(
  event: EventSeoSource,
  facts: PracticalFacts,
  pageUrl: string,
  status: ScheduleStatus | null,
) {
  const other = facts.venueAddress !== ''
  const address = {
    '@type': 'PostalAddress',
    ...nonEmpty('streetAddress', other ? facts.venueAddress : event.businessAddress),
    ...nonEmpty('addressLocality', other ? facts.venueCity : event.businessCity),
    ...nonEmpty('addressRegion', other ? facts.venueState : event.businessState),
    ...nonEmpty('postalCode', other ? facts.venueZip : event.businessZip),
    addressCountry: 'US',
  }
  const place = { '@type': 'Place', name: event.businessName, address }
  const virtual = { '@type': 'VirtualLocation', url: facts.onlineUrl || pageUrl }
  const location =
    facts.attendanceMode === 'in_person'
      ? place
      : facts.attendanceMode === 'online'
        ? virtual
        : [place, virtual]
  const offered = facts.priceCents !== null || facts.ticketUrl !== ''
  return {
    eventAttendanceMode: ATTENDANCE_MODE_URLS[facts.attendanceMode],
    location,
    ...(offered
      ? {
          offers: {
            '@type': 'Offer',
            ...(facts.priceCents !== null ? { price: facts.priceCents / 100, priceCurrency: 'USD' } : {}),
            url: facts.ticketUrl || pageUrl,
            ...(status === 'sold_out'
              ? { availability: 'https://schema.org/SoldOut' }
              : status === null
                ? { availability: 'https://schema.org/InStock' }
                : {}),
          },
        }
      : {}),
    ...(facts.priceCents !== null ? { isAccessibleForFree: facts.priceCents === 0 } : {}),
    ...(facts.accessibilityFeatures.length > 0
      ? { accessibilityFeature: facts.accessibilityFeatures.map((f) => ACCESSIBILITY_FEATURE_NAMES[f]) }
      : {}),
    ...(facts.ageRange ? { typicalAgeRange: AGE_RANGE_VALUES[facts.ageRange] } : {}),
  }
}

function nonEmpty(key: string, value: string | null | undefined) {
  return value ? { [key]: value } : {}
}

/** Remix meta descriptors for an event's SEO values. */
export function eventSeoMeta(seo: EventSeo) {
  return [
    { tagName: 'link', rel: 'canonical', href: seo.canonicalUrl },
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: PRODUCT_NAME },
    { property: 'og:title', content: seo.title },
    { property: 'og:description', content: seo.description },
    { property: 'og:url', content: seo.canonicalUrl },
    ...(seo.imageUrl ? [{ property: 'og:image', content: seo.imageUrl }] : []),
    ...(seo.imageUrl && seo.imageDetails
      ? [
          { property: 'og:image:type', content: seo.imageDetails.type },
          { property: 'og:image:width', content: String(seo.imageDetails.width) },
          { property: 'og:image:height', content: String(seo.imageDetails.height) },
          { property: 'og:image:alt', content: seo.imageDetails.alt },
        ]
      : []),
    { name: 'twitter:card', content: seo.imageUrl ? 'summary_large_image' : 'summary' },
    { name: 'twitter:title', content: seo.title },
    { name: 'twitter:description', content: seo.description },
    ...(seo.imageUrl ? [{ name: 'twitter:image', content: seo.imageUrl }] : []),
    ...(seo.jsonLd ? [{ 'script:ld+json': seo.jsonLd }] : []),
  ]
}
