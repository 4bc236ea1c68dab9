import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { BODY_MAX_BYTES } from '#app/constants.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { ptdisease } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { BUILD_TIMEOUT_MS } from '#tests/support/built-app.ts'
import { startRunningServer } from '#tests/support/running-server.ts'

/**
 * Against the running server (every middleware, real sockets): the answers given before any route runs carry the
 * security headers of every other answer, and a signed-in state change that names no origin is refused.
 */

let base: string
let clinician: string

beforeAll(async () => {
  base = await startRunningServer()
  clinician = await sessionCookieFor({ user: await insertUser(db, { roles: ['clinician'] }) })
}, BUILD_TIMEOUT_MS)

function call(path: string, init: RequestInit = {}) {
  return fetch(new URL(path, base), { redirect: 'manual', ...init })
}

function expectSecurityHeaders(res: Response, what: string) {
  expect(res.headers.get('Content-Security-Policy'), what).toMatch(/frame-ancestors 'none'/)
  expect(res.headers.get('Content-Security-Policy'), what).toMatch(/object-src 'none'/)
  expect(res.headers.get('X-Content-Type-Options'), what).toBe('nosniff')
  expect(res.headers.get('X-Frame-Options'), what).toBe('DENY')
  expect(res.headers.get('Referrer-Policy'), what).toBe('strict-origin-when-cross-origin')
  expect(res.headers.get('Cross-Origin-Opener-Policy'), what).toBe('same-origin')
  expect(res.headers.get('Permissions-Policy'), what).toMatch(/camera=\(\)/)
}

describe('every answer carries the security headers, early refusals included', () => {
  test.each([
    ['a NUL in the query string', '/calendar?keyword=a%00b', {}, 400],
    ['a NUL in a patient search', '/api/ptdisease?search=%00', {}, 400],
    ['a NUL in the path of a patient page', '/patient-diseases/1%00/edit', {}, 400],
    ['broken percent-encoding', '/patient-diseases/%c0', {}, 400],
    [
      'a body over the limit',
      '/api/ptdisease',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': String(BODY_MAX_BYTES + 1) },
        body: 'x'.repeat(BODY_MAX_BYTES + 1),
      },
      413,
    ],
    [
      'a cross-site post',
      '/patient-diseases',
      { method: 'POST', headers: { Origin: 'https://evil.example' }, body: 'intent=delete&id=1' },
      403,
    ],
  ] as const)('%s: %s, not stored', async (what, path, init, status) => {
    const res = await call(path, init as RequestInit)
    expect(res.status, what).toBe(status)
    expectSecurityHeaders(res, what)
    expect(res.headers.get('Cache-Control'), what).toBe('no-store')
    await res.body?.cancel()
  })

  test('a JSON answer and a page keep theirs (the page with its own nonce)', async () => {
    const json = await call('/api/events')
    expect(json.status).toBe(200)
    expectSecurityHeaders(json, 'GET /api/events')
    await json.body?.cancel()
    const page = await call('/landing')
    expectSecurityHeaders(page, 'GET /landing')
    expect(page.headers.get('Content-Security-Policy')).toMatch(/'nonce-[^']+'/)
    await page.body?.cancel()
  })

  test('the embed stays frameable by any site', async () => {
    const res = await call('/embed/calendar')
    expect(res.headers.get('Content-Security-Policy')).toMatch(/frame-ancestors \*/)
    expect(res.headers.get('X-Frame-Options')).toBeNull()
    await res.body?.cancel()
  })
})

describe('a signed-in state change with neither Origin nor Sec-Fetch-Site', () => {
  async function record() {
    const [row] = await db
      .insert(ptdisease)
      .values({
        mrn: `GUARD-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
        disease: 'Flu',
      })
      .returning()
    return row!
  }
  const exists = async (id: number) =>
    (await db.select().from(ptdisease).where(eq(ptdisease.ptdiseaseID, id))).length === 1

  function deleteWith(id: number, headers: Record<string, string>) {
    return call(`/patient-diseases/${id}/delete`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: clinician, ...headers },
      body: new URLSearchParams({ intent: 'delete', id: String(id) }),
    })
  }

  test('is refused without a Referer or with another site’s, and deletes nothing', async () => {
    const { ptdiseaseID: id } = await record()
    for (const headers of [{}, { Referer: 'https://evil.example/prize' }] as Record<string, string>[]) {
      const res = await deleteWith(id, headers)
      expect(res.status, JSON.stringify(headers)).toBe(403)
      expect(await res.text()).toBe('Requests from other sites cannot change anything here.')
      expect(await exists(id)).toBe(true)
    }
  })

  test('passes with this site’s Referer', async () => {
    const { ptdiseaseID: id } = await record()
    const res = await deleteWith(id, { Referer: `${base}/patient-diseases/${id}/delete` })
    expect(res.status).toBeLessThan(400)
    await res.body?.cancel()
    expect(await exists(id)).toBe(false)
  })

  test('without the session cookie (the Stripe webhook, curl) it is not refused', async () => {
    const res = await call('/api/stripe/webhook', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': 't=1,v1=00' },
      body: '{}',
    })
    expect(res.status).not.toBe(403)
    expect(res.status).toBeLessThan(500)
    await res.body?.cancel()
  })
})
