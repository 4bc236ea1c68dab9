import type { IncomingMessage, ServerResponse } from 'node:http'
import onHeaders from 'on-headers'

/**
 * Checks every request gets before routing (server.js mounts `requestGuard` in front of everything else): no response
 * may be content-sniffed, and no request that changes state may come from another site.
 */

/** The parts of an Express request the guard reads: `protocol` honours TRUST_PROXY (X-Forwarded-Proto). */
export interface GuardedRequest extends IncomingMessage {
  protocol?: string
  originalUrl?: string
}

export const CROSS_SITE_MESSAGE = 'Requests from other sites cannot change anything here.'

const SAFE_METHODS = new Set(['GET', 'HEAD'])
/** `Sec-Fetch-Site` values of a request this site's own pages made, or the user typed (no Origin sent). */
const OWN_FETCH_SITES = new Set(['same-origin', 'none'])

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}

/** This site's origin: PUBLIC_URL's when set, else the one the request was addressed to. */
export function ownOrigin(req: GuardedRequest, publicUrl: string | undefined): string | undefined {
  if (publicUrl) return new URL(publicUrl).origin
  const host = header(req, 'host')
  if (!host) return undefined
  try {
    return new URL(`${req.protocol ?? 'http'}://${host}`).origin
  } catch {
    return undefined
  }
}

/** The host Remix compares Origin with before any action runs (it throws, a 500, when they differ). */
function frameworkHost(req: IncomingMessage) {
  return header(req, 'x-forwarded-host')?.split(',')[0]?.trim() || header(req, 'host')
}

/**
 * A request that would change state on behalf of another site: a method other than GET/HEAD whose Origin is not this
 * site's (a `null` origin included), or, when the browser sent no Origin, whose Sec-Fetch-Site is not same-origin or
 * none. Requests with neither header (curl, server-to-server calls such as the Stripe webhook) are not browsers
 * acting for someone else, and pass.
 */
export function isCrossSiteWrite(req: GuardedRequest, publicUrl: string | undefined): boolean {
  if (SAFE_METHODS.has(req.method ?? 'GET')) return false
  const origin = header(req, 'origin')
  if (origin !== undefined) {
    if (origin !== ownOrigin(req, publicUrl)) return true
    return new URL(origin).host !== frameworkHost(req)
  }
  const fetchSite = header(req, 'sec-fetch-site')
  return fetchSite !== undefined && !OWN_FETCH_SITES.has(fetchSite.trim().toLowerCase())
}

function refuse(req: GuardedRequest, res: ServerResponse) {
  const path = (req.originalUrl ?? req.url ?? '').split('?')[0] ?? ''
  const json = path === '/api' || path.startsWith('/api/')
  const body = json ? JSON.stringify({ message: CROSS_SITE_MESSAGE }) : CROSS_SITE_MESSAGE
  res.statusCode = 403
  res.setHeader('Content-Type', json ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8')
  res.setHeader('Content-Length', Buffer.byteLength(body))
  res.setHeader('Cache-Control', 'no-store')
  // The body is not read: close the connection rather than leave it unread on a kept-alive socket.
  res.setHeader('Connection', 'close')
  res.end(req.method === 'HEAD' ? undefined : body)
}

/** Connect/Express middleware: `nosniff` on every response, and 403 for cross-site writes. */
export function createRequestGuard({ publicUrl }: { publicUrl: string | undefined }) {
  return function requestGuard(req: GuardedRequest, res: ServerResponse, next: () => void) {
    // Set as the headers go out, so it holds for every answer (pages, JSON, redirects, files, errors) exactly once.
    onHeaders(res, () => res.setHeader('X-Content-Type-Options', 'nosniff'))
    if (isCrossSiteWrite(req, publicUrl)) return refuse(req, res)
    next()
  }
}
