/**
 * The links of an ad that leave the site (the business's website and social pages, the tickets, the link to join an
 * online event): the site's UTM parameters, so the advertiser's own analytics credit the visit to this site, and the
 * `rel` that tells search engines whether the link was paid for. One rule for every page that shows them.
 */
import { eventSlug, type EventAddressSource } from '#app/models/ads/event-address.ts'
import { slugify } from '#app/models/calendar/business-links.ts'

/** `utm_medium` of every credited link. */
export const UTM_MEDIUM = 'event_listing'

/** Whom a visit is credited to: the site (`utm_source`, its public host name) and the ad (`utm_campaign`). */
export interface LinkCredit {
  source: string
  campaign: string
}

/** How a page draws an ad's outbound links: the credit they carry (null: none, the setting is off) and their `rel`. */
export interface OutboundLinks {
  credit: LinkCredit | null
  rel: string
}

/** A paid ad's links: `sponsored` for search engines; no `noreferrer`, so the advertiser sees the visit's origin. */
export const SPONSORED_REL = 'sponsored noopener'
export const UNPAID_REL = 'noopener'

/** What the links of a page are drawn with when no ad is known (a preview, the review): as before, no credit. */
export const UNCREDITED_LINKS: OutboundLinks = { credit: null, rel: 'noopener noreferrer' }

/** What an ad's payment is read from. */
export interface AdPayment {
  paymentStatus: string
  /** What the ad's own payment came to, in dollars. */
  totalCost: number
  /** A sponsorship bought for it, in cents. */
  sponsoredCents?: number | null
}

/** Whether the ad's placement was paid for: paid, for more than $0 (a code that made it free is no payment). */
export function isPaidPlacement(ad: AdPayment): boolean {
  return ad.paymentStatus === 'paid' && (ad.totalCost > 0 || (ad.sponsoredCents ?? 0) > 0)
}

/** The `rel` of a link of an ad, from its payment. */
export function outboundRel(paid: boolean): string {
  return paid ? SPONSORED_REL : UNPAID_REL
}

/** `utm_campaign` of an ad: its public address's segment, `{id}-{slug}` (the id keeps it unique). */
export function adCampaign(ad: EventAddressSource): string {
  return `${ad.eventID}-${eventSlug(ad.eventTitle)}`
}

/** `utm_campaign` of a business page's links: `business-{id}-{slug}`. */
export function businessCampaign(business: { businessID: number; businessName: string }): string {
  return `business-${business.businessID}-${slugify(business.businessName)}`
}

/** An ad's outbound links: credited to `source` (the host name; null when crediting is off) and its `rel`. */
export function adOutboundLinks(ad: EventAddressSource & AdPayment, source: string | null): OutboundLinks {
  return {
    credit: source ? { source, campaign: adCampaign(ad) } : null,
    rel: outboundRel(isPaidPlacement(ad)),
  }
}

const UTM_PREFIX = 'utm_'

/**
 * `href` with the credit's `utm_source`, `utm_medium` and `utm_campaign` added. A utm_ parameter the advertiser's
 * own link has (in any letter case) is kept as it is, never overwritten. The rest of the link is left exactly as it
 * was written: its own parameters are not re-encoded, and the fragment stays last. A link that is not http(s), or
 * does not parse, is given back unchanged (the pages refuse those before they get here).
 */
export function creditedHref(href: string, credit: LinkCredit | null): string {
  if (!credit) return href
  let url: URL
  try {
    url = new URL(href)
  } catch {
    return href
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return href
  const own = new Set<string>()
  for (const name of url.searchParams.keys()) {
    const lower = name.toLowerCase()
    if (lower.startsWith(UTM_PREFIX)) own.add(lower)
  }
  const added = (
    [
      ['utm_source', credit.source],
      ['utm_medium', UTM_MEDIUM],
      ['utm_campaign', credit.campaign],
    ] as const
  )
    .filter(([name]) => !own.has(name))
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
  if (added.length === 0) return href
  const hashAt = href.indexOf('#')
  const base = hashAt === -1 ? href : href.slice(0, hashAt)
  const fragment = hashAt === -1 ? '' : href.slice(hashAt)
  // An origin alone ("https://example.com") gets its path before the query, as the browser would show it.
  const start = /^[a-z][a-z\d+.-]*:\/\/[^/?#]+$/i.test(base) ? `${base}/` : base
  const separator = !start.includes('?') ? '?' : /[?&]$/.test(start) ? '' : '&'
  return `${start}${separator}${added.join('&')}${fragment}`
}
