import type { IncomingMessage, ServerResponse } from 'node:http'
import onHeaders from 'on-headers'
import { keepsOwnValue } from './security.server.ts'

/**
 * Checks every request gets before routing (server.js mounts `requestGuard` in front of everything else): every
 * response carries the security headers (early refusals included), and no request that changes state may come from
 * another site.
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

/** `origin` is this site's, as both this guard and the framework see it. */
function isOwnOrigin(req: GuardedRequest, origin: string, publicUrl: string | undefined) {
  return origin === ownOrigin(req, publicUrl) && new URL(origin).host === frameworkHost(req)
}

function refererOrigin(req: IncomingMessage) {
  const referer = header(req, 'referer')
  if (!referer) return undefined
  try {
    return new URL(referer).origin
  } catch {
    return undefined
  }
}

/**
 * A form of this site's page whose Referrer-Policy is no-referrer (the subscription token pages) is posted with
 * `Origin: null`: the browser withholds the origin, but its Sec-Fetch-Site (which no page can set) still says the
 * request came from this site. A null origin from anywhere else (a sandboxed frame, a redirect) is not same-origin.
 */
function isWithheldOwnOrigin(req: IncomingMessage) {
  return (
    header(req, 'origin') === 'null' && header(req, 'sec-fetch-site')?.trim().toLowerCase() === 'same-origin'
  )
}

/** The framework refuses an action whose Origin is not the Host (`null` included): a withheld origin is dropped. */
function dropOrigin(req: IncomingMessage) {
  delete req.headers.origin
  for (let i = req.rawHeaders.length - 2; i >= 0; i -= 2) {
    if (req.rawHeaders[i]?.toLowerCase() === 'origin') req.rawHeaders.splice(i, 2)
  }
}

function hasCookie(req: IncomingMessage, name: string) {
  return (header(req, 'cookie') ?? '')
    .split(';')
    .some((pair) => pair.slice(0, pair.indexOf('=')).trim() === name)
}

/**
 * A request that would change state on behalf of another site: a method other than GET/HEAD whose Origin is not this
 * site's (a `null` origin included, unless Sec-Fetch-Site says same-origin), or, when the browser sent no Origin,
 * whose Sec-Fetch-Site is not same-origin or none. A request with neither header that carries the session cookie
 * (`sessionCookie`, its name) passes only when its Referer is this site's: browsers send one of the headers, so this
 * is defence in depth. Requests with neither header and no session (curl, server-to-server calls such as the Stripe
 * webhook) are nobody's browser acting for someone else, and pass.
 */
export function isCrossSiteWrite(
  req: GuardedRequest,
  publicUrl: string | undefined,
  { sessionCookie }: { sessionCookie?: string } = {},
): boolean {
  if (SAFE_METHODS.has(req.method ?? 'GET')) return false
  if (isWithheldOwnOrigin(req)) return false
  const origin = header(req, 'origin')
  if (origin !== undefined) return !isOwnOrigin(req, origin, publicUrl)
  const fetchSite = header(req, 'sec-fetch-site')
  if (fetchSite !== undefined) return !OWN_FETCH_SITES.has(fetchSite.trim().toLowerCase())
  if (!sessionCookie || !hasCookie(req, sessionCookie)) return false
  const referer = refererOrigin(req)
  return referer === undefined || !isOwnOrigin(req, referer, publicUrl)
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

/**
 * The security headers an answer goes out with: a page brings its own set (its policy has the request's nonce, the
 * embed may be framed), every other answer gets `answerHeaders`; an error answer without a caching rule is not
 * stored (a refusal on a patient route included). `nosniff` holds for every answer.
 */
function completeSecurityHeaders(res: ServerResponse, answerHeaders: Headers) {
  if (!res.hasHeader('Content-Security-Policy')) {
    answerHeaders.forEach((value, name) => {
      if (!keepsOwnValue(name, res.hasHeader(name))) res.setHeader(name, value)
    })
  }
  if (res.statusCode >= 400 && !res.hasHeader('Cache-Control')) res.setHeader('Cache-Control', 'no-store')
  res.setHeader('X-Content-Type-Options', 'nosniff')
}

/**
 * Connect/Express middleware: the security headers on every response, and 403 for cross-site writes.
 * `answerHeaders`: the security headers of an answer that is not a page; `sessionCookie`: the session cookie's name.
 */
export function createRequestGuard({
  publicUrl,
  answerHeaders,
  sessionCookie,
}: {
  publicUrl: string | undefined
  answerHeaders: Headers
  sessionCookie: string
}) {
  return function requestGuard(req: GuardedRequest, res: ServerResponse, next: () => void) {
    // Set as the headers go out, so they hold for every answer (pages, JSON, redirects, files, errors) exactly once.
    onHeaders(res, () => completeSecurityHeaders(res, answerHeaders))
    if (isCrossSiteWrite(req, publicUrl, { sessionCookie })) return refuse(req, res)
    if (isWithheldOwnOrigin(req)) dropOrigin(req)
    next()
  }
}
