import { gunzipSync } from 'node:zlib'
import { beforeEach, describe, expect, test } from 'vitest'
import { invalidateLiveEvents } from '#app/models/calendar/live-events-cache.server.ts'
import {
  gzippedBody,
  keepPage,
  lookupPage,
  SHARED_PAGE_MAX_AGE_S,
  sharedPageHeaders,
  type PageRequest,
} from '#app/services/http/page-cache.server.ts'

const NOW = 1_000_000
const anonymous = (url = 'example.test/calendar?category=Concert'): PageRequest => ({
  method: 'GET',
  url,
  hasCookie: false,
})
const HTML = '<!DOCTYPE html><html><body>We found 3 event(s) for you!</body></html>'

function page(init: { status?: number; headers?: Record<string, string>; body?: string } = {}) {
  return new Response(init.body ?? HTML, {
    status: init.status ?? 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': `public, max-age=0, s-maxage=${SHARED_PAGE_MAX_AGE_S}`,
      'Content-Security-Policy': "script-src 'nonce-abc123'",
      ...init.headers,
    },
  })
}

beforeEach(() => invalidateLiveEvents())

describe('the shared page cache', () => {
  test('stores a shareable page for an anonymous GET and serves it, with a gzip copy, until s-maxage passes', async () => {
    const passed = await keepPage(anonymous(), page(), NOW)
    expect(await passed.text()).toBe(HTML)

    const hit = lookupPage(anonymous(), NOW + 1000)
    expect(hit?.status).toBe(200)
    expect(hit?.body.toString()).toBe(HTML)
    expect(gunzipSync(gzippedBody(hit!)).toString()).toBe(HTML)
    expect(gzippedBody(hit!)).toBe(gzippedBody(hit!))
    expect(new Headers(hit?.headers).get('Content-Type')).toBe('text/html; charset=utf-8')

    expect(lookupPage(anonymous(), NOW + SHARED_PAGE_MAX_AGE_S * 1000 - 1)).toBeDefined()
    expect(lookupPage(anonymous(), NOW + SHARED_PAGE_MAX_AGE_S * 1000)).toBeUndefined()
  })

  test('the query string and host are part of the key', async () => {
    await keepPage(anonymous('example.test/calendar?category=Concert'), page(), NOW)
    expect(lookupPage(anonymous('example.test/calendar?category=Sports'), NOW)).toBeUndefined()
    expect(lookupPage(anonymous('other.test/calendar?category=Concert'), NOW)).toBeUndefined()
    expect(lookupPage({ ...anonymous(), method: 'HEAD' }, NOW)).toBeDefined()
  })

  test('a moderation decision (the listings invalidated) makes every stored page stale', async () => {
    await keepPage(anonymous(), page(), NOW)
    invalidateLiveEvents()
    expect(lookupPage(anonymous(), NOW + 1)).toBeUndefined()
  })

  test('a request with cookies is never served from the cache, and its copy is marked private', async () => {
    await keepPage(anonymous(), page(), NOW)
    const signedIn = { ...anonymous(), hasCookie: true }
    expect(lookupPage(signedIn, NOW)).toBeUndefined()

    const passed = await keepPage(signedIn, page({ body: 'Signed in as Blue Door Cafe' }), NOW)
    expect(passed.headers.get('Cache-Control')).toBe('private, no-cache')
    expect(lookupPage(anonymous(), NOW)?.body.toString()).toBe(HTML)
  })

  test.each([
    ['an error status', page({ status: 503 })],
    ['a Set-Cookie header', page({ headers: { 'Set-Cookie': 'toast=; Max-Age=0' } })],
    ['no s-maxage', page({ headers: { 'Cache-Control': 'no-store' } })],
    ['an s-maxage of 0', page({ headers: { 'Cache-Control': 'public, s-maxage=0' } })],
  ])('a response with %s is passed on unchanged and not stored', async (_label, response) => {
    const body = await response.clone().text()
    const passed = await keepPage(anonymous(), response, NOW)
    expect(await passed.text()).toBe(body)
    expect(passed.status).toBe(response.status)
    expect(lookupPage(anonymous(), NOW)).toBeUndefined()
  })

  test('every hit gets a CSP nonce of its own, in the header and wherever the HTML carries it', async () => {
    const html = (nonce: string) =>
      `<!DOCTYPE html><html><body><script nonce="${nonce}">beacon()</script><p>3 events</p>` +
      `<script nonce="${nonce}" src="/assets/a.js"></script></body></html>`
    const csp = (nonce: string) => `default-src 'self'; script-src 'self' 'nonce-${nonce}'`
    await keepPage(
      anonymous(),
      page({ body: html('abc123'), headers: { 'Content-Security-Policy': csp('abc123') } }),
      NOW,
    )

    const nonces = new Set<string>()
    for (let i = 0; i < 5; i++) {
      const hit = lookupPage(anonymous(), NOW + i)!
      const header = new Headers(hit.headers).get('Content-Security-Policy')!
      const nonce = /'nonce-([^']+)'/.exec(header)![1]!
      expect(nonce).not.toBe('abc123')
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/)
      expect(header).toBe(csp(nonce))
      expect(hit.body.toString()).toBe(html(nonce))
      expect(gunzipSync(gzippedBody(hit)).toString()).toBe(html(nonce))
      nonces.add(nonce)
    }
    expect(nonces.size).toBe(5)
  })

  test('a page whose HTML carries no nonce still gets a fresh one in its header on each hit', async () => {
    await keepPage(anonymous(), page(), NOW)
    const [first, second] = [lookupPage(anonymous(), NOW)!, lookupPage(anonymous(), NOW)!]
    const csp = (hit: typeof first) => new Headers(hit.headers).get('Content-Security-Policy')
    expect(csp(first)).not.toContain('abc123')
    expect(csp(first)).not.toBe(csp(second))
    expect(first.body.toString()).toBe(HTML)
    expect(gzippedBody(first)).toBe(gzippedBody(second))
  })

  test('other methods neither read nor fill the cache', async () => {
    const post = { ...anonymous(), method: 'POST' }
    await keepPage(post, page(), NOW)
    expect(lookupPage(anonymous(), NOW)).toBeUndefined()
    await keepPage(anonymous(), page(), NOW)
    expect(lookupPage(post, NOW)).toBeUndefined()
  })

  test('at most 200 pages are kept, the least recently stored leaving first', async () => {
    for (let i = 0; i <= 200; i++) await keepPage(anonymous(`example.test/calendar?page=${i}`), page(), NOW)
    expect(lookupPage(anonymous('example.test/calendar?page=0'), NOW)).toBeUndefined()
    expect(lookupPage(anonymous('example.test/calendar?page=1'), NOW)).toBeDefined()
    expect(lookupPage(anonymous('example.test/calendar?page=200'), NOW)).toBeDefined()
  })
})

describe('sharedPageHeaders', () => {
  const args = (init: { loader?: HeadersInit; error?: HeadersInit } = {}) => ({
    loaderHeaders: new Headers(init.loader),
    parentHeaders: new Headers(),
    actionHeaders: new Headers(),
    errorHeaders: init.error ? new Headers(init.error) : undefined,
  })

  test('marks a page shareable for the cache time, varying by cookie', () => {
    const headers = new Headers(sharedPageHeaders(args()))
    expect(headers.get('Cache-Control')).toBe(`public, max-age=0, s-maxage=${SHARED_PAGE_MAX_AGE_S}`)
    expect(headers.get('Vary')).toBe('Cookie')
  })

  test("keeps a loader's own Cache-Control, and never shares an error page", () => {
    expect(
      new Headers(sharedPageHeaders(args({ loader: { 'Cache-Control': 'no-store' } }))).get('Cache-Control'),
    ).toBe('no-store')
    expect(new Headers(sharedPageHeaders(args({ error: {} }))).get('Cache-Control')).toBeNull()
  })
})
