import http, { type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, test } from 'vitest'
import {
  createRequestGuard,
  isCrossSiteWrite,
  type GuardedRequest,
} from '#app/services/http/request-guard.server.ts'
import { securityHeaders } from '#app/services/http/security.server.ts'

function request(method: string, headers: Record<string, string>, protocol = 'http'): GuardedRequest {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))
  return { method, headers: lower, protocol, url: '/api/logout' } as unknown as GuardedRequest &
    IncomingMessage
}

describe('isCrossSiteWrite', () => {
  test.each(['GET', 'HEAD'])('%s is never refused, whatever its origin', (method) => {
    expect(
      isCrossSiteWrite(request(method, { Host: 'a.test', Origin: 'https://evil.example' }), undefined),
    ).toBe(false)
  })

  test.each([
    [{ Host: 'a.test:3000', Origin: 'http://a.test:3000' }, false],
    [{ Host: 'a.test:3000', 'Sec-Fetch-Site': 'same-origin' }, false],
    [{ Host: 'a.test:3000', 'Sec-Fetch-Site': 'none' }, false],
    [{ Host: 'a.test:3000' }, false],
    [{ Host: 'a.test:3000', Origin: 'http://a.test:4000' }, true],
    [{ Host: 'a.test:3000', Origin: 'https://a.test:3000' }, true],
    [{ Host: 'a.test:3000', Origin: 'http://evil.example' }, true],
    [{ Host: 'a.test:3000', Origin: 'null' }, true],
    [{ Host: 'a.test:3000', Origin: 'not a url' }, true],
    [{ Origin: 'http://a.test:3000' }, true],
    [{ Host: 'a.test:3000', 'Sec-Fetch-Site': 'same-site' }, true],
    [{ Host: 'a.test:3000', 'Sec-Fetch-Site': 'cross-site' }, true],
    [{ Host: 'a.test:3000', 'Sec-Fetch-Site': 'something-new' }, true],
    // What Remix itself compares Origin with (it would answer 500): refused here first.
    [{ Host: 'a.test:3000', Origin: 'http://a.test:3000', 'X-Forwarded-Host': 'b.test' }, true],
  ] as const)('POST %j from the request’s own address → refused: %s', (headers, refused) => {
    expect(isCrossSiteWrite(request('POST', headers), undefined)).toBe(refused)
  })

  test('behind a TLS proxy the scheme Express trusted (X-Forwarded-Proto with TRUST_PROXY) counts', () => {
    const headers = { Host: 'shop.example', Origin: 'https://shop.example' }
    expect(isCrossSiteWrite(request('POST', headers, 'https'), undefined)).toBe(false)
    expect(isCrossSiteWrite(request('POST', headers, 'http'), undefined)).toBe(true)
  })

  test("with PUBLIC_URL only its origin may post, whatever Host says (the framework's check included)", () => {
    const publicUrl = 'https://events.example/'
    const allowed = { Host: 'events.example', Origin: 'https://events.example' }
    expect(isCrossSiteWrite(request('POST', allowed), publicUrl)).toBe(false)
    const viaProxy = {
      Host: '127.0.0.1:3000',
      'X-Forwarded-Host': 'events.example',
      Origin: 'https://events.example',
    }
    expect(isCrossSiteWrite(request('POST', viaProxy), publicUrl)).toBe(false)
    expect(
      isCrossSiteWrite(request('POST', { Host: 'evil.example', Origin: 'https://evil.example' }), publicUrl),
    ).toBe(true)
    expect(
      isCrossSiteWrite(
        request('DELETE', { Host: 'events.example', Origin: 'http://events.example' }),
        publicUrl,
      ),
    ).toBe(true)
  })

  describe('a signed-in state change with neither Origin nor Sec-Fetch-Site', () => {
    const session = { sessionCookie: '__session' }
    const post = (headers: Record<string, string>) =>
      isCrossSiteWrite(request('POST', headers), undefined, session)

    test('is refused unless its Referer is this site', () => {
      const signedIn = { Host: 'a.test:3000', Cookie: 'es_toast=1; __session=abc' }
      expect(post(signedIn)).toBe(true)
      expect(post({ ...signedIn, Referer: 'http://evil.example/prize' })).toBe(true)
      expect(post({ ...signedIn, Referer: 'http://a.test:4000/' })).toBe(true)
      expect(post({ ...signedIn, Referer: 'not a url' })).toBe(true)
      expect(post({ ...signedIn, Referer: 'http://a.test:3000/patient-diseases?search=x' })).toBe(false)
    })

    test('without the session cookie (curl, the Stripe webhook) it passes as before', () => {
      expect(post({ Host: 'a.test:3000' })).toBe(false)
      expect(post({ Host: 'a.test:3000', Cookie: 'es_toast=1; not__session=abc' })).toBe(false)
      expect(post({ Host: 'a.test:3000', 'Stripe-Signature': 't=1,v1=00' })).toBe(false)
    })

    test('one of the headers decides as before, whatever the Referer', () => {
      const signedIn = { Host: 'a.test:3000', Cookie: '__session=abc', Referer: 'http://evil.example/' }
      expect(post({ ...signedIn, Origin: 'http://a.test:3000' })).toBe(false)
      expect(post({ ...signedIn, 'Sec-Fetch-Site': 'same-origin' })).toBe(false)
      expect(post({ ...signedIn, 'Sec-Fetch-Site': 'cross-site' })).toBe(true)
    })
  })

  test('a form of a no-referrer page of this site (Origin: null, Sec-Fetch-Site: same-origin) passes; a null origin from anywhere else does not', () => {
    // A browser posts a form of a page whose Referrer-Policy is no-referrer with `Origin: null`.
    const own = { Host: 'a.test:3000', Origin: 'null', 'Sec-Fetch-Site': 'same-origin' }
    expect(isCrossSiteWrite(request('POST', own), undefined)).toBe(false)
    expect(
      isCrossSiteWrite(request('POST', { ...own, Host: 'events.example' }), 'https://events.example'),
    ).toBe(false)
    for (const fetchSite of ['cross-site', 'same-site', 'none']) {
      expect(
        isCrossSiteWrite(request('POST', { ...own, 'Sec-Fetch-Site': fetchSite }), undefined),
        fetchSite,
      ).toBe(true)
    }
    // A sandboxed frame or a redirect also sends null, and no Sec-Fetch-Site of this site.
    expect(isCrossSiteWrite(request('POST', { Host: 'a.test:3000', Origin: 'null' }), undefined)).toBe(true)
  })
})

describe('createRequestGuard', () => {
  /** The guard in front of a handler that answers what reached it; `answer` sets the handler's own headers. */
  async function throughGuard(headers: Record<string, string>, answer: Record<string, string> = {}) {
    const guard = createRequestGuard({
      publicUrl: undefined,
      answerHeaders: securityHeaders(null, { isProduction: false }),
      sessionCookie: '__session',
    })
    const server = http.createServer((req, res) =>
      guard(req, res, () => {
        for (const [name, value] of Object.entries(answer)) res.setHeader(name, value)
        const raw = req.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase())
        res.end(JSON.stringify({ origin: req.headers.origin ?? null, rawNames: raw }))
      }),
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    try {
      return await new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
        (resolve, reject) => {
          const req = http.request(
            { host: '127.0.0.1', port, method: 'POST', path: '/subscriptions/confirm', headers },
            (res) => {
              let body = ''
              res.on('data', (chunk: Buffer) => (body += chunk.toString()))
              res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
            },
          )
          req.on('error', reject)
          req.end()
        },
      )
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  }

  test('keeps the Referrer-Policy an answer chose (the token pages: no-referrer), and sets it on the others', async () => {
    const chosen = await throughGuard({}, { 'Referrer-Policy': 'no-referrer' })
    expect(chosen.headers['referrer-policy']).toBe('no-referrer')
    expect(chosen.headers['x-frame-options']).toBe('DENY')
    const other = await throughGuard({})
    expect(other.headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
  })

  test('lets a withheld origin of this site through without it, so the framework does not take null for another host', async () => {
    const answer = await throughGuard({ Origin: 'null', 'Sec-Fetch-Site': 'same-origin' })
    expect(answer.status).toBe(200)
    const reached = JSON.parse(answer.body) as { origin: string | null; rawNames: string[] }
    expect(reached.origin).toBeNull()
    expect(reached.rawNames).not.toContain('origin')
    expect((await throughGuard({ Origin: 'null', 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403)
  })
})
