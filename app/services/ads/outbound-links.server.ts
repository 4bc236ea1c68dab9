import {
  adOutboundLinks,
  businessCampaign,
  isPaidPlacement,
  outboundRel,
  type AdPayment,
  type OutboundLinks,
} from '#app/models/ads/outbound-links.ts'
import type { EventAddressSource } from '#app/models/ads/event-address.ts'
import { getEnv } from '../platform/env.server.ts'

/**
 * Whom the advertisers' links credit: the site's public host name (`origin` is PUBLIC_URL's, or the address a local
 * request came to), or null when AD_LINK_UTM is off.
 */
export function creditSource(origin: string): string | null {
  return getEnv().AD_LINK_UTM === 'off' ? null : new URL(origin).hostname
}

/** How the ad's outbound links are drawn on a page of `origin`: credited to the site, `rel` from its payment. */
export function adLinksOn(ad: EventAddressSource & AdPayment, origin: string): OutboundLinks {
  return adOutboundLinks(ad, creditSource(origin))
}

/** A business page's links: credited to its page, sponsored while one of its live ads is a paid placement. */
export function businessLinksOn(
  business: { businessID: number; businessName: string },
  ads: readonly AdPayment[],
  origin: string,
): OutboundLinks {
  const source = creditSource(origin)
  return {
    credit: source ? { source, campaign: businessCampaign(business) } : null,
    rel: outboundRel(ads.some(isPaidPlacement)),
  }
}
