import { expect, openFirstListedEvent, test } from './fixtures.ts'

const uniqueKeyword = () => `jazz-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`

test('an anonymous visitor gets public pages from the shared page cache, gzipped when asked', async ({
  request,
}) => {
  const path = `/calendar?keyword=${uniqueKeyword()}`
  const first = await request.get(path)
  expect(first.status()).toBe(200)
  expect(first.headers()['age']).toBeUndefined()
  expect(first.headers()['cache-control']).toBe('public, max-age=0, s-maxage=15')

  const second = await request.get(path, { headers: { 'Accept-Encoding': 'gzip' } })
  expect(second.headers()['age']).toMatch(/^\d+$/)
  expect(second.headers()['content-encoding']).toBe('gzip')
  expect(second.headers()['vary']).toBe('Cookie, Accept-Encoding')
  expect(second.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
  expect(await second.text()).toBe(await first.text())
})

test('a visitor with cookies always gets a freshly rendered page that no cache may keep', async ({
  request,
}) => {
  const path = `/calendar?keyword=${uniqueKeyword()}`
  await request.get(path)
  const withCookie = await request.get(path, { headers: { Cookie: 'returning=1' } })
  expect(withCookie.status()).toBe(200)
  expect(withCookie.headers()['age']).toBeUndefined()
  expect(withCookie.headers()['cache-control']).toBe('private, no-cache')
})

test('a live event page may be shared, but each answer carries its own nonce for the beacon script', async ({
  page,
  request,
}) => {
  await page.goto('/calendar?keyword=Maple+Street')
  const path = await openFirstListedEvent(page)
  const [first, second] = [await request.get(path), await request.get(path)]
  const nonceOf = (html: string) => /<script[^>]* nonce="([^"]+)"/.exec(html)?.[1]
  expect(nonceOf(await second.text())).toBeTruthy()
  expect(nonceOf(await second.text())).not.toBe(nonceOf(await first.text()))
  expect(second.headers()['content-security-policy']).not.toBe(first.headers()['content-security-policy'])
})

test('the client address comes from the connection: a forged X-Forwarded-For does not escape the sign-in limit', async ({
  request,
}) => {
  const email = `limit-${uniqueKeyword()}@example.com`
  for (let i = 1; i <= 10; i++) {
    const res = await request.post('/api/business/login', {
      data: { email, password: 'wrong-password' },
      headers: { 'X-Forwarded-For': `198.51.100.${i}` },
    })
    expect(res.status()).toBe(401)
  }
  const limited = await request.post('/api/business/login', {
    data: { email, password: 'wrong-password' },
    headers: { 'X-Forwarded-For': '198.51.100.77' },
  })
  expect(limited.status()).toBe(429)
  expect(Number(limited.headers()['retry-after'])).toBeGreaterThan(0)
})
