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
