import { isFetchedAhead } from '#app/models/analytics/fetched-ahead.ts'
import { gzipSync } from 'node:zlib'
import type { HeadersFunction } from '@remix-run/node'
import {
  LIVE_EVENTS_CACHE_TTL_MS,
  liveEventsGeneration,
} from '#app/models/calendar/live-events-cache.server.ts'
import { pageCacheHits, pageCacheMisses } from '../platform/metrics.server.ts'
import { createNonce } from './security.server.ts'

/**
 * A shared cache of whole public pages for visitors without cookies, in front of the rendering (server.js asks it
 * before Remix runs). Most visitors to /calendar, /public and /landing are anonymous and ask for the same few filter
 * combinations, and rendering a page costs several times what sending stored bytes does.
 *
 * A page opts in with `Cache-Control: s-maxage=N` (see `sharedPageHeaders`). It is kept only when that response is
 * a 200 with no Set-Cookie, and only for a request without cookies, so nothing personal (a signed-in header, a toast)
 * is ever stored or served to someone else. A moderation decision makes every stored page stale at once (the
 * live-events generation), like the listing cache it sits on.
 *
 * A CSP nonce must never be shared: every hit gets a fresh one, put in place of the stored page's nonce in its
 * Content-Security-Policy and wherever its HTML carries it (a script's nonce attribute).
 *
 * Views of ads are counted here, where a page is served: a rendered page names the ads it shows in the
 * LISTED_EVENTS_HEADER (taken off before the response leaves), and a stored page keeps that list for its hits. The
 * count itself is the analytics' (`countPageViewsWith`, set by the server entry when it starts counting views).
 */
const MAX_PAGES = 200
const MAX_PAGE_BYTES = 512 * 1024

export const SHARED_PAGE_MAX_AGE_S = LIVE_EVENTS_CACHE_TTL_MS / 1000

/** A loader's word to the server on which ads its page shows, for the view counter; never sent to the client. */
export const LISTED_EVENTS_HEADER = 'X-Listed-Events'

/** The headers a loader returns to have a view of each of these ads counted wherever its page is served. */
export function listedEventsHeaders(eventIDs: readonly number[]): HeadersInit {
  return eventIDs.length ? { [LISTED_EVENTS_HEADER]: eventIDs.join(',') } : {}
}

/** A loader's word on which ads its page shows in a Sponsored slot (counted apart); never sent to the client. */
export const SPONSORED_SLOTS_HEADER = 'X-Sponsored-Slots'

/**
 * The Cache-Control of a page showing Sponsored slots: shared until their turn ends (`secondsLeft`), never longer
 * than any other shared page, so a stored page never shows another turn's slots.
 */
export function sponsoredPageCacheControl(secondsLeft: number) {
  return `public, max-age=0, s-maxage=${Math.max(1, Math.min(SHARED_PAGE_MAX_AGE_S, Math.floor(secondsLeft)))}`
}

/**
 * The headers of a listing page: the ads it shows (`listed`), those in its Sponsored slots (`inSlots`), and when it
 * has slots, sharing bounded by their turn (`slotsForSeconds`).
 */
export function listingPageHeaders({
  listed,
  inSlots,
  slotsForSeconds,
}: {
  listed: readonly number[]
  inSlots: readonly number[]
  slotsForSeconds: number | null
}): Headers {
  const headers = new Headers(listedEventsHeaders(listed))
  if (inSlots.length > 0) headers.set(SPONSORED_SLOTS_HEADER, inSlots.join(','))
  if (slotsForSeconds !== null) headers.set('Cache-Control', sponsoredPageCacheControl(slotsForSeconds))
  return headers
}

function takeListedEvents(headers: Headers, name = LISTED_EVENTS_HEADER): number[] {
  const value = headers.get(name)
  if (value === null) return []
  headers.delete(name)
  return value.split(',').map(Number).filter(Number.isSafeInteger)
}

/**
 * A route's `headers` for a page any anonymous visitor may get from the shared cache. Its error pages are not shared,
 * and a loader can opt a response out with its own Cache-Control (a failure state, say).
 */
export const sharedPageHeaders: HeadersFunction = ({ loaderHeaders, errorHeaders }) => {
  if (errorHeaders) return new Headers()
  const headers = new Headers({
    'Cache-Control':
      loaderHeaders.get('Cache-Control') ?? `public, max-age=0, s-maxage=${SHARED_PAGE_MAX_AGE_S}`,
    Vary: 'Cookie',
  })
  for (const name of [LISTED_EVENTS_HEADER, SPONSORED_SLOTS_HEADER]) {
    const listed = loaderHeaders.get(name)
    if (listed) headers.set(name, listed)
  }
  return headers
}

/** A page as one hit serves it: its own nonce, if the stored page had one. */
export interface CachedPage {
  status: number
  headers: Array<[string, string]>
  body: Buffer
  storedAt: number
  /** The body gzipped (see `gzippedBody`). */
  gzip: () => Buffer
}

interface StoredPage {
  status: number
  headers: Array<[string, string]>
  /** The body cut at each occurrence of `nonce`: one part when it carries none. */
  parts: Buffer[]
  /** The nonce the page was rendered with, replaced on every hit. */
  nonce: string | undefined
  /** Made on the first request that accepts gzip, for a page without a nonce in its body (the same bytes every hit). */
  gzipBody?: Buffer
  storedAt: number
  freshUntil: number
  generation: number
  /** The ads the page shows: a view of each is counted on every hit. */
  listedEvents: number[]
  /** The ads it shows in a Sponsored slot: an appearance there is counted on every hit too. */
  slotEvents: number[]
}

/** What a lookup needs of the incoming request (an Express request or a Fetch Request can both give it). */
export interface PageRequest {
  method: string
  /** Host, path and query string: the cache key. */
  url: string
  hasCookie: boolean
  /** The client's address as the server vouches for it, and its User-Agent: for counting views. */
  ip?: string | null
  userAgent?: string | null
  /** Reads a request header: a page fetched ahead of a visit (`Sec-Purpose: prefetch`) is not a view. */
  header?: (name: string) => string | undefined
}

/** Counts a view of each of these ads by this visitor. */
export type PageViewCount = (
  eventIDs: readonly number[],
  viewer: Pick<PageRequest, 'ip' | 'userAgent'>,
) => void

let countPageViews: PageViewCount = () => {}
let countSlotViews: PageViewCount = () => {}

/**
 * Who counts the views of the ads a page shows, each time it is served, and (`slots`) their appearances in a
 * Sponsored slot: until this is set, none are counted.
 */
export function countPageViewsWith(count: PageViewCount, slots: PageViewCount = () => {}) {
  countPageViews = count
  countSlotViews = slots
}

function countViews(req: PageRequest, eventIDs: number[], slotEvents: number[] = []) {
  if (req.method !== 'GET' || (req.header && isFetchedAhead(req.header))) return
  countPageViews(eventIDs, req)
  if (slotEvents.length > 0) countSlotViews(slotEvents, req)
}

const pages = new Map<string, StoredPage>()

function isCacheableRequest(req: PageRequest) {
  return (req.method === 'GET' || req.method === 'HEAD') && !req.hasCookie
}

/** Drops every stored page: in development, a page rendered before a source changed must not be served again. */
export function forgetStoredPages() {
  pages.clear()
}

/** A fresh stored page for this request, if there is one, with a nonce of its own. */
export function lookupPage(req: PageRequest, now = Date.now()): CachedPage | undefined {
  if (!isCacheableRequest(req)) return undefined
  const page = pages.get(req.url)
  if (!page) return undefined
  if (now >= page.freshUntil || page.generation !== liveEventsGeneration()) {
    pages.delete(req.url)
    return undefined
  }
  pageCacheHits.inc()
  countViews(req, page.listedEvents, page.slotEvents)
  return servePage(page)
}

function servePage(page: StoredPage): CachedPage {
  const { status, storedAt } = page
  if (!page.nonce) {
    const body = page.parts[0] ?? Buffer.alloc(0)
    return { status, headers: page.headers, body, storedAt, gzip: () => (page.gzipBody ??= gzipSync(body)) }
  }
  const stored = `'nonce-${page.nonce}'`
  const nonce = createNonce()
  const headers = page.headers.map(([name, value]): [string, string] =>
    name.toLowerCase() === 'content-security-policy'
      ? [name, value.replaceAll(stored, `'nonce-${nonce}'`)]
      : [name, value],
  )
  const fresh = Buffer.from(nonce)
  const body =
    page.parts.length === 1
      ? page.parts[0]!
      : Buffer.concat(page.parts.flatMap((part, i) => (i === 0 ? [part] : [fresh, part])))
  let gzipBody: Buffer | undefined
  const gzip =
    page.parts.length === 1 ? () => (page.gzipBody ??= gzipSync(body)) : () => (gzipBody ??= gzipSync(body))
  return { status, headers, body, storedAt, gzip }
}

/** The page's body gzipped (made once per stored page when its body carries no nonce, else once per hit). */
export function gzippedBody(page: CachedPage): Buffer {
  return page.gzip()
}

/** `body` cut at each occurrence of `separator`. */
function splitAt(body: Buffer, separator: Buffer): Buffer[] {
  const parts: Buffer[] = []
  let start = 0
  for (let at = body.indexOf(separator); at !== -1; at = body.indexOf(separator, start)) {
    parts.push(body.subarray(start, at))
    start = at + separator.length
  }
  parts.push(body.subarray(start))
  return parts
}

function sharedMaxAge(cacheControl: string | null): number | undefined {
  const match = /(?:^|,)\s*s-maxage=(\d+)/i.exec(cacheControl ?? '')
  return match ? Number(match[1]) : undefined
}

/**
 * Passes `response` on, storing it first when it may be shared. A shareable page given to a request with cookies is
 * marked private, so no cache further down the line keeps a signed-in visitor's copy.
 */
export async function keepPage(req: PageRequest, response: Response, now = Date.now()): Promise<Response> {
  const listedEvents = takeListedEvents(response.headers)
  const slotEvents = takeListedEvents(response.headers, SPONSORED_SLOTS_HEADER)
  if (response.status === 200) countViews(req, listedEvents, slotEvents)
  const maxAge = sharedMaxAge(response.headers.get('Cache-Control'))
  if (maxAge === undefined) return response
  if (!isCacheableRequest(req)) {
    if (req.hasCookie) response.headers.set('Cache-Control', 'private, no-cache')
    return response
  }
  // A page any visitor may share, rendered because no fresh copy was stored: a miss.
  pageCacheMisses.inc()
  if (response.status !== 200 || response.headers.has('Set-Cookie') || req.method !== 'GET') return response
  const generation = liveEventsGeneration()
  const body = Buffer.from(await response.arrayBuffer())
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get('Content-Security-Policy') ?? '')?.[1]
  if (body.length <= MAX_PAGE_BYTES && maxAge > 0) {
    pages.delete(req.url)
    pages.set(req.url, {
      status: response.status,
      headers: [...response.headers],
      parts: nonce ? splitAt(body, Buffer.from(nonce)) : [body],
      nonce,
      storedAt: now,
      freshUntil: now + maxAge * 1000,
      generation,
      listedEvents,
      slotEvents,
    })
    while (pages.size > MAX_PAGES) {
      const oldest = pages.keys().next().value
      if (oldest === undefined) break
      pages.delete(oldest)
    }
  }
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  })
}
