/**
 * Which links "Fill from a link" may fetch, before and after the name is resolved: http(s) on the standard ports,
 * and only addresses on the public internet. Pure, so each rule is tested on its own; the fetcher
 * (app/services/ads/fetch-from-link.server.ts) applies them to every address it connects to.
 */
import ipaddr from 'ipaddr.js'

export const LINK_TEXT = {
  notALink: 'Enter the full address of the event page or .ics file, starting with https://',
  scheme: 'Only http:// and https:// links can be read.',
  port: 'Only links on the usual web ports (80 and 443) can be read.',
  credentials: 'Links with a user name or password cannot be read.',
  privateAddress: 'That link points to a private or local network address, which cannot be read.',
  notFound: 'That site could not be found. Check the address.',
  unreachable: 'That site did not answer. Check the address, or try again later.',
  tooManyRedirects: 'That link redirects too many times (more than 3).',
  redirectLoop: 'That link redirects in a loop.',
  slow: 'That site took too long to answer (more than 5 seconds).',
  tooLarge: 'That page is too large to read (more than 2 MB).',
  notAnEventPage: 'That link is neither a web page nor an .ics calendar file.',
  status: (status: number) => `That site answered with an error (HTTP ${status}).`,
  nothingFound: 'No event could be found at that link.',
} as const

/** The most redirects one link may take. */
export const MAX_LINK_REDIRECTS = 3

/** The cloud metadata services, named although their ranges (link-local, unique local) are refused anyway. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254'])

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3')

/**
 * Whether an address (IPv4, IPv6, an IPv4-mapped IPv6) is on the public internet: not private, loopback,
 * link-local, shared (CGNAT), multicast, broadcast, unspecified, reserved or documentation, not a metadata service;
 * for IPv6 only the global unicast range, with the ranges that embed an IPv4 address (6to4, Teredo, NAT64) refused.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  if (!ipaddr.isValid(bare)) return false
  // An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 address it is.
  const parsed = ipaddr.process(bare)
  if (METADATA_ADDRESSES.has(parsed.toNormalizedString()) || METADATA_ADDRESSES.has(parsed.toString()))
    return false
  if (parsed.range() !== 'unicast') return false
  if (parsed.kind() === 'ipv6' && !(parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6)) return false
  return true
}

/** A link as typed, read as a URL the fetcher may try: its problem, or the URL. */
export function checkedLinkUrl(
  value: string,
  { allowedHosts = [] }: { allowedHosts?: readonly string[] } = {},
): { url: URL } | { problem: string } {
  const trimmed = value.trim()
  let url: URL
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`)
  } catch {
    return { problem: LINK_TEXT.notALink }
  }
  if (trimmed === '') return { problem: LINK_TEXT.notALink }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: LINK_TEXT.scheme }
  if (!url.hostname) return { problem: LINK_TEXT.notALink }
  if (url.username || url.password) return { problem: LINK_TEXT.credentials }
  if (isAllowedHost(url, allowedHosts)) return { url }
  // `port` is '' for the scheme's own port; 443 on http or 80 on https are still one of the two.
  if (url.port !== '' && url.port !== '80' && url.port !== '443') return { problem: LINK_TEXT.port }
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (ipaddr.isValid(host) && !isPublicAddress(host)) return { problem: LINK_TEXT.privateAddress }
  return { url }
}

/** A host the allow-list names (a setting only tests use): its port and addresses are not checked. */
export function isAllowedHost(url: URL, allowedHosts: readonly string[]) {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return allowedHosts.some((allowed) => allowed.replace(/^\[|\]$/g, '').toLowerCase() === host)
}
