/**
 * A business's public page (/business/{id}-{slug}): the business, its upcoming live ads as the calendar's cards
 * (narrowed by the calendar's quick dates), how many of its events are past, its structured data; and the
 * advertiser's "Show my business page" setting. A business without a page is `not_found`, whatever the reason.
 */
import { PRODUCT_NAME } from '#app/constants.ts'
import { eventShowDates, nextEventDate } from '#app/models/ads/event-dates.ts'
import { mapSearchUrl, streetAddress } from '#app/models/ads/event-links.ts'
import { eventSeo, jsonLdNodes, type EventSeo } from '#app/models/ads/event-seo.ts'
import { eventTimesOf } from '#app/models/ads/event-times.ts'
import type { EventTileData } from '#app/models/ads/event-tile.ts'
import { cardFacts } from '#app/models/ads/customer-card.ts'
import { scheduleStatusOf } from '#app/models/ads/schedule-status.ts'
import { businessIcsPath, businessPagePath, businessRssPath } from '#app/models/calendar/business-links.ts'
import {
  getPublishedBusiness,
  listBusinessLiveAds,
  setShowBusinessPage,
  showsBusinessPage,
  type BusinessLiveAd,
  type BusinessPageBusiness,
} from '#app/models/calendar/business-page.server.ts'
import {
  dateWindow,
  EMPTY_CALENDAR_FILTERS,
  isInDateWindow,
  listingStart,
  normalizeCalendarFilters,
  type CalendarFilters,
} from '#app/models/calendar/calendar-filters.ts'
import { announcePublicPagesChanged } from '#app/models/calendar/public-pages-changes.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { externalUrl, mediaSrc } from '#app/utils/format.ts'
import type { OutboundLinks } from '#app/models/ads/outbound-links.ts'
import { getEnv } from '../platform/env.server.ts'
import { businessLinksOn } from '../ads/outbound-links.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'

export const BUSINESS_NOT_FOUND = 'This business has no page here: it has no event on the calendar now.'

export interface BusinessPage {
  business: Omit<BusinessPageBusiness, 'pastEvents'>
  /** The page's own path: any other spelling of it redirects here. */
  path: string
  address: string
  mapUrl: string | null
  pastEvents: number
  /** The quick dates' window (only `from` and `to` are read). */
  filters: CalendarFilters
  today: string
  events: EventTileData[]
  /** How many upcoming live ads there are, whatever the quick dates. */
  upcomingCount: number
  icsPath: string
  rssPath: string
  seo: EventSeo
  /** How the business's website and social links are drawn (the site's credit, their `rel`). */
  outbound: OutboundLinks
}

/** The business of a page, or `not_found` when it has none today (no live ad, or its page is off). */
async function publishedBusiness(businessID: number, today: string) {
  const found = await getPublishedBusiness(businessID, today)
  if (!found) throw new AppError(BUSINESS_NOT_FOUND, 'not_found')
  return found
}

/** The page of a business that has one today (`not_found` otherwise), its quick dates read from `searchParams`. */
export async function businessPageFor(
  businessID: number,
  searchParams: URLSearchParams,
  origin: string,
): Promise<BusinessPage> {
  const today = platformToday()
  const found = await publishedBusiness(businessID, today)
  const { pastEvents, ...business } = found
  const { filters: asked } = normalizeCalendarFilters(searchParams)
  const filters: CalendarFilters = { ...EMPTY_CALENDAR_FILTERS, from: asked.from, to: asked.to }
  const ads = await listBusinessLiveAds(businessID, today)
  const listed = ads.filter(inWindow(filters))
  const start = listingStart(filters, today)
  const events = listed
    .map((ad) => toTile(ad, start))
    .sort((a, b) => (a.date ?? '').localeCompare(b.date ?? '') || a.eventID - b.eventID)
  const address = streetAddress(business)
  const path = businessPagePath(businessID, business.businessName)
  return {
    business,
    path,
    address,
    mapUrl: address ? mapSearchUrl(address) : null,
    pastEvents,
    filters,
    today,
    events,
    upcomingCount: ads.length,
    icsPath: businessIcsPath(businessID),
    rssPath: businessRssPath(businessID),
    seo: businessSeo(business, ads, { origin, path, today }),
    outbound: businessLinksOn(business, ads, origin),
  }
}

/** The business of a page that can be followed today, or null. */
export async function followableBusiness(businessID: number) {
  const found = await getPublishedBusiness(businessID, platformToday())
  return found ? { businessID: found.businessID, businessName: found.businessName } : null
}

/** The live ads of a business with a page, for its own feeds (`not_found` without a page). */
export async function businessFeedAds(businessID: number) {
  const today = platformToday()
  const business = await publishedBusiness(businessID, today)
  return { business, today, ads: await listBusinessLiveAds(businessID, today) }
}

/** Whether one of the ad's show dates lies in the quick dates' window (all of them without one). */
function inWindow(filters: CalendarFilters) {
  const window = dateWindow(filters)
  return (ad: BusinessLiveAd) =>
    !window || eventShowDates(ad.eventDate, ad.showAdOnDates).some((date) => isInDateWindow(date, window))
}

function toTile(ad: BusinessLiveAd, start: string): EventTileData {
  const { startTime, endTime } = eventTimesOf(ad)
  const { priceCents, attendanceMode, accessibilityFeatures } = cardFacts(ad)
  return {
    eventID: ad.eventID,
    eventTitle: ad.eventTitle,
    eventDescription: ad.eventDescription,
    category: ad.category,
    stillPhotoPath: ad.stillPhotoPath,
    businessName: ad.businessName,
    date: nextEventDate(ad, start),
    startTime,
    endTime,
    scheduleStatus: scheduleStatusOf(ad.scheduleStatus),
    facts: { priceCents, attendanceMode, accessibilityFeatures },
  }
}

const CONTACT_FIELDS = [
  'businessWebsite',
  'facebookURL',
  'instagramURL',
  'linkedin',
  'youtubeURL',
  'xURL',
  'tiktokURL',
] as const

/** Canonical URL, Open Graph values and schema.org LocalBusiness data with its upcoming events. */
function businessSeo(
  business: Omit<BusinessPageBusiness, 'pastEvents'>,
  ads: BusinessLiveAd[],
  { origin, path, today }: { origin: string; path: string; today: string },
): EventSeo {
  const canonicalUrl = new URL(path, `${origin}/`).toString()
  const timeZone = getEnv().APP_TIME_ZONE
  const photo = ads.map((ad) => mediaSrc(ad.stillPhotoPath)).find((src) => src && !/^(blob|data):/i.test(src))
  const imageUrl = photo ? new URL(photo, `${origin}/`).toString() : null
  const links = CONTACT_FIELDS.flatMap((field) => externalUrl(business[field]) ?? [])
  const place = [business.businessCity, business.businessState].filter(Boolean).join(', ')
  const description = `Upcoming events from ${business.businessName}${place ? ` in ${place}` : ''} on ${PRODUCT_NAME}.`
  // The page is the business's own, so each ad's organizer is this page; its specials are offers, not events.
  const nodes = ads.flatMap((ad) =>
    jsonLdNodes(eventSeo({ ...ad, businessPageOn: true }, { origin, today, timeZone }).jsonLd),
  )
  const events = nodes.filter((node) => node['@type'] === 'Event')
  const offers = nodes.filter((node) => node['@type'] === 'Offer')
  const postalAddress = {
    '@type': 'PostalAddress',
    ...(business.businessAddress ? { streetAddress: business.businessAddress } : {}),
    ...(business.businessCity ? { addressLocality: business.businessCity } : {}),
    ...(business.businessState ? { addressRegion: business.businessState } : {}),
    ...(business.businessZip ? { postalCode: business.businessZip } : {}),
    addressCountry: 'US',
  }
  return {
    canonicalUrl,
    title: `${business.businessName} · ${PRODUCT_NAME}`,
    description,
    imageUrl,
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'LocalBusiness',
      name: business.businessName,
      url: canonicalUrl,
      address: postalAddress,
      ...(business.businessPhone ? { telephone: business.businessPhone } : {}),
      ...(links.length ? { sameAs: links } : {}),
      ...(imageUrl ? { image: imageUrl } : {}),
      event: events,
      ...(offers.length ? { makesOffer: offers } : {}),
    },
  }
}

/** The advertiser's own setting, for the dashboard. */
export function businessPageShown(businessID: number) {
  return showsBusinessPage(businessID)
}

/** "Show my business page" on or off: the page, its feeds and its sitemap entry appear or go at once. */
export async function showBusinessPage(businessID: number, show: boolean) {
  await setShowBusinessPage(businessID, show)
  await announcePublicPagesChanged()
}
