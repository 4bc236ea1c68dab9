import type { IncomingMessage } from 'node:http'
import { describe, expect, test } from 'vitest'
import { isCrossSiteWrite, type GuardedRequest } from '#app/services/http/request-guard.server.ts'

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
})
