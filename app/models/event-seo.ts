import { PRODUCT_NAME } from '#app/constants.ts'
import { eventDates, nextEventDate } from './event-dates.ts'
import { externalUrl, mediaSrc } from '#app/utils/format.ts'

/** What search engines and link previews read of a live event. */
export interface EventSeoSource {
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
 * Canonical URL, Open Graph values and schema.org Event data for a live event. Its dates have no times, so start
 * and end are dates: the next of the event's dates (`eventDates`: its own date, else its display dates) and the last.
 */
export function eventSeo(
  event: EventSeoSource,
  { origin, today }: { origin: string; today: string },
): EventSeo {
  const canonicalUrl = new URL(eventPagePath(event.eventID), `${origin}/`).toString()
  const photo = mediaSrc(event.stillPhotoPath)
  const imageUrl = photo && !/^(blob|data):/i.test(photo) ? new URL(photo, `${origin}/`).toString() : null
  const startDate = nextEventDate(event, today)
  const endDate = eventDates(event.eventDate, event.showAdOnDates).at(-1)
  const description = clip(event.eventDescription, 300)
  const address = {
    '@type': 'PostalAddress',
    ...(event.businessAddress ? { streetAddress: event.businessAddress } : {}),
    ...(event.businessCity ? { addressLocality: event.businessCity } : {}),
    ...(event.businessState ? { addressRegion: event.businessState } : {}),
    ...(event.businessZip ? { postalCode: event.businessZip } : {}),
  }
  const website = externalUrl(event.businessWebsite)
  const jsonLd: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: event.eventTitle,
    description,
    url: canonicalUrl,
    ...(startDate ? { startDate } : {}),
    ...(endDate ? { endDate } : {}),
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    location: { '@type': 'Place', name: event.businessName, address },
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
