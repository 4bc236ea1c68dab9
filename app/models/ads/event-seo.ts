import { PRODUCT_NAME } from '#app/constants.ts'
import { eventDates, nextEventDate } from '#app/models/ads/event-dates.ts'
import { externalUrl, mediaSrc } from '#app/utils/format.ts'
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
  jsonLd: Record<string, unknown>
}

/** The public address of an event's page. */
export function eventPagePath(eventID: number) {
  return `/event/${eventID}?viewMode=true`
}

function clip(text: string, max: number) {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`
}

/**
 * Canonical URL, Open Graph values and schema.org Event data for a live event. Start and end are the next of the
 * event's dates (`eventDates`: its own date, else its display dates) and the last: dates for an all-day event, else
 * date-times with the UTC offset the platform time zone has on that date.
 */
export function eventSeo(event: EventSeoSource, { origin, today, timeZone }: EventLinkContext): EventSeo {
  const canonicalUrl = new URL(eventPagePath(event.eventID), `${origin}/`).toString()
  const photo = mediaSrc(event.stillPhotoPath)
  const imageUrl = photo && !/^(blob|data):/i.test(photo) ? new URL(photo, `${origin}/`).toString() : null
  const times = eventTimesOf(event)
  const { startDate, endDate } = jsonLdDates(
    nextEventDate(event, today),
    eventDates(event.eventDate, event.showAdOnDates).at(-1),
    times,
    timeZone,
  )
  const status = scheduleStatusOf(event.scheduleStatus)
  const description = clip(event.eventDescription, 300)
  const facts = cardFacts(event)
  const website = externalUrl(event.businessWebsite)
  const jsonLd: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: event.eventTitle,
    description,
    url: canonicalUrl,
    ...(startDate ? { startDate } : {}),
    ...(endDate ? { endDate } : {}),
    eventStatus: EVENT_STATUS_URLS[status ?? 'scheduled'],
    ...practicalFactsJsonLd(event, facts, canonicalUrl, status === 'sold_out'),
    organizer: { '@type': 'Organization', name: event.businessName, ...(website ? { url: website } : {}) },
    ...(imageUrl ? { image: [imageUrl] } : {}),
  }
  return {
    canonicalUrl,
    title: `${event.eventTitle} · ${PRODUCT_NAME}`,
    description: clip(event.eventDescription, 160),
    imageUrl,
    jsonLd,
  }
}

/** Sold out is still on as scheduled; the offer says it is sold out. */
const EVENT_STATUS_URLS: Record<ScheduleStatus | 'scheduled', string> = {
  scheduled: 'https://schema.org/EventScheduled',
  sold_out: 'https://schema.org/EventScheduled',
  cancelled: 'https://schema.org/EventCancelled',
  postponed: 'https://schema.org/EventPostponed',
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
  return { startDate, endDate }
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
  soldOut: boolean,
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
            ...(soldOut ? { availability: 'https://schema.org/SoldOut' } : {}),
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
    { name: 'twitter:card', content: seo.imageUrl ? 'summary_large_image' : 'summary' },
    { name: 'twitter:title', content: seo.title },
    { name: 'twitter:description', content: seo.description },
    ...(seo.imageUrl ? [{ name: 'twitter:image', content: seo.imageUrl }] : []),
    { 'script:ld+json': seo.jsonLd },
  ]
}
