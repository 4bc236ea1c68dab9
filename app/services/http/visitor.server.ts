import { isFetchedAhead } from '#app/models/analytics/fetched-ahead.ts'
import { clientIp } from './client-address.server.ts'

/**
 * Who sent a request, as a click or bounce on an ad is counted: the client's address (null when the server cannot
 * vouch for one), its User-Agent, and whether another site made the browser send it.
 */
export function requestVisitor(request: Request) {
  const ip = clientIp(request)
  return {
    ip: ip === 'unknown' ? null : ip,
    userAgent: request.headers.get('User-Agent'),
    crossSite: request.headers.get('Sec-Fetch-Site') === 'cross-site',
  }
}

/**
 * Whether a person's browser opened this address as a page: a GET that is a navigation (when the browser says what
 * it fetches: `Sec-Fetch-Mode: navigate`), not fetched ahead. What a scanned QR code is; an image or a script
 * pointing at the address, or a prefetch of it, is not.
 */
export function opensPage(request: Request) {
  const mode = request.headers.get('Sec-Fetch-Mode')
  return (
    request.method === 'GET' &&
    (mode === null || mode === 'navigate') &&
    !isFetchedAhead((name) => request.headers.get(name))
  )
}
