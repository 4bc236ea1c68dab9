import AxeBuilder from '@axe-core/playwright'
import type { APIRequestContext, APIResponse, Page } from '@playwright/test'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import {
  demoBusiness,
  expect,
  fromSite,
  openFirstListedEvent,
  signInAsBusiness,
  signInAsNewBusiness,
  test,
} from './fixtures.ts'

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`

/** The same host on another port: same-site for the browser (SameSite=Lax cookies go along), another origin. */
function otherOrigin(baseURL: string | undefined) {
  const url = new URL(baseURL!)
  return `${url.protocol}//${url.hostname}:${Number(url.port) + 1000}`
}

async function signedIn(request: APIRequestContext) {
  return (await request.get('/api/auth/user')).status() === 200
}

const CROSS_SITE_MESSAGE = 'Requests from other sites cannot change anything here.'

test.describe('state changes from other sites', () => {
  test('a cross-site POST to /api/* is refused with 403 and a JSON message, and changes nothing', async ({
    request,
    baseURL,
  }) => {
    const login = await request.post('/api/business/login', {
      data: { email: demoBusiness.businessEmail, password: demoBusiness.password },
    })
    expect(login.status()).toBe(200)

    const hostile: Array<Record<string, string>> = [
      { Origin: 'https://evil.example' },
      { Origin: otherOrigin(baseURL) },
      { Origin: 'null' },
      { Origin: baseURL!.replace('http://', 'https://') },
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
      { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'same-origin' },
    ]
    for (const headers of hostile) {
      const res = await request.post('/api/logout', { headers })
      expect(res.status(), JSON.stringify(headers)).toBe(403)
      expect(res.headers()['content-type']).toMatch(/^application\/json/)
      expect(await res.json()).toEqual({ message: CROSS_SITE_MESSAGE })
      expect(await signedIn(request)).toBe(true)
    }

    // An ad created in the victim's account, as a no-cors fetch from another page did.
    const title = `Planted ${unique()}`
    const planted = await request.post('/api/approve-event', {
      headers: { Origin: otherOrigin(baseURL) },
      multipart: {
        eventData: JSON.stringify({ eventTitle: title, eventDescription: 'x', eventCategory: ['Concert'] }),
        selectedDates: JSON.stringify([addDaysIso(todayInZone('America/New_York'), 2)]),
        totalAmount: '29.00',
      },
    })
    expect(planted.status()).toBe(403)
    const me = (await (await request.get('/api/auth/user')).json()) as { business: { businessID: number } }
    const events = await (await request.get(`/api/business/${me.business.businessID}/events`)).text()
    expect(events).not.toContain(title)

    // A registration posted from elsewhere creates no account.
    const email = `csrf-${unique()}@example.com`
    const registration = await request.post('/api/business', {
      headers: { Origin: 'https://evil.example' },
      data: {
        businessName: 'Planted Account',
        businessAddress: '1 Test Street',
        businessCity: 'Springfield',
        businessState: 'IL',
        businessZip: '62701',
        businessPhone: '2175550100',
        businessEmail: email,
        businessPassword: 'secret123',
        verifyPassword: 'secret123',
        businessContact: 'Eve',
      },
    })
    expect(registration.status()).toBe(403)
    const asPlanted = await request.post('/api/business/login', {
      headers: fromSite(),
      data: { email, password: 'secret123' },
    })
    expect(asPlanted.status()).toBe(401)
  })

  test('a cross-site POST to a page is refused with 403 in plain text, HEAD and OPTIONS alike', async ({
    request,
  }) => {
    const res = await request.post('/login', {
      headers: { Origin: 'https://evil.example' },
      form: { email: demoBusiness.businessEmail, password: demoBusiness.password },
    })
    expect(res.status()).toBe(403)
    expect(res.headers()['content-type']).toMatch(/^text\/plain/)
    expect(await res.text()).toBe(CROSS_SITE_MESSAGE)
    expect(res.headers()['set-cookie']).toBeUndefined()
    for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const other = await request.fetch('/api/logout', {
        method,
        headers: { Origin: 'https://evil.example' },
      })
      expect(other.status(), method).toBe(403)
    }
  })

  test("the framework's own host/origin check answers 403, not 500", async ({ request, baseURL }) => {
    for (const headers of [
      { Origin: baseURL!, 'X-Forwarded-Host': 'other.example' },
      { Origin: 'http://other.example', 'X-Forwarded-Host': 'other.example' },
    ]) {
      const res = await request.post('/login', {
        headers,
        form: { email: demoBusiness.businessEmail, password: demoBusiness.password },
      })
      expect(res.status(), JSON.stringify(headers)).toBe(403)
    }
  })

  test('same-origin posts work, and so do posts without Origin or Sec-Fetch-Site (curl, the Stripe webhook)', async ({
    request,
    baseURL,
    playwright,
  }) => {
    const sameOrigin = await request.post('/login', {
      headers: { Origin: baseURL!, 'Sec-Fetch-Site': 'same-origin' },
      form: { email: demoBusiness.businessEmail, password: demoBusiness.password },
      maxRedirects: 0,
    })
    expect(sameOrigin.status()).toBe(302)
    expect(sameOrigin.headers()['location']).toBe('/dashboard')
    expect(await signedIn(request)).toBe(true)

    const typedAddress = await request.post('/api/logout', {
      headers: { 'Sec-Fetch-Site': 'none' },
      maxRedirects: 0,
    })
    expect(typedAddress.status()).toBe(302)
    expect(await signedIn(request)).toBe(false)

    const curl = await request.post('/api/business/login', {
      data: { email: demoBusiness.businessEmail, password: demoBusiness.password },
    })
    expect(curl.status()).toBe(200)

    // Signed in, a call naming no origin is refused unless its Referer is this site.
    const signedInCurl = await request.post('/api/logout', { maxRedirects: 0 })
    expect(signedInCurl.status()).toBe(403)
    const fromOwnPage = await request.post('/api/logout', {
      headers: { Referer: `${baseURL}/dashboard` },
      maxRedirects: 0,
    })
    expect(fromOwnPage.status()).toBe(302)
    expect(await signedIn(request)).toBe(false)

    // The webhook is signed, server-to-server and carries no cookie; without Stripe keys it is not found, but it is
    // not refused.
    const stripe = await playwright.request.newContext({ baseURL })
    const webhook = await stripe.post('/api/stripe/webhook', {
      headers: { 'Stripe-Signature': 't=1,v1=00', 'Content-Type': 'application/json' },
      data: '{}',
    })
    expect(webhook.status()).not.toBe(403)
    expect(webhook.status()).toBeLessThan(500)
    await stripe.dispose()
  })

  test('a form on another page of the same site cannot sign the visitor out', async ({ page, baseURL }) => {
    await signInAsBusiness(page)
    const attacker = `${otherOrigin(baseURL)}/prize`
    await page.route(`${otherOrigin(baseURL)}/**`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!DOCTYPE html><form method="post" action="${baseURL}/api/logout"></form>
          <script>document.forms[0].submit()</script>`,
      }),
    )
    await page.goto(attacker)
    await page.waitForURL(`${baseURL}/api/logout`)
    await expect(page.locator('body')).toContainText(CROSS_SITE_MESSAGE)
    expect(await signedIn(page.request)).toBe(true)
  })

  test('GET /api/logout (a link from anywhere) does not sign out: it offers the sign-out button', async ({
    page,
  }) => {
    await signInAsBusiness(page)
    await page.goto('/api/logout', { referer: 'https://evil.example/' })
    await expect(page.getByRole('heading', { name: 'Sign out' })).toBeVisible()
    expect(await signedIn(page.request)).toBe(true)
    await page.locator('main').getByRole('button', { name: 'Logout' }).click()
    await page.waitForURL((url) => url.pathname === '/')
    await expect(page.getByTestId('toast')).toContainText('Signed Out')
    expect(await signedIn(page.request)).toBe(false)
    // The notification is announced, and its list stays a list (the role is on the card, not on the item).
    await expect(page.getByTestId('toast').getByRole('status')).toContainText('Signed Out')
    const { violations } = await new AxeBuilder({ page })
      .include('section[aria-label^="Notifications"]')
      .setLegacyMode(true)
      .analyze()
    expect(violations.map((v) => v.id)).toEqual([])
  })
})

async function signOutWithTheButton(page: Page) {
  await signInAsBusiness(page)
  await page.goto('/dashboard')
  const cookies = await page.context().cookies()
  await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click()
  await page.waitForURL((url) => url.pathname === '/')
  await expect(page.getByTestId('toast')).toContainText('Signed Out')
  expect(await signedIn(page.request)).toBe(false)
  // The old cookie, replayed, no longer opens the dashboard.
  await page.context().addCookies(cookies)
  await page.goto('/dashboard')
  await expect(page).toHaveURL(/\/login/)
}

test('the Logout button in the site header signs out (JavaScript on)', async ({ page }) => {
  await signOutWithTheButton(page)
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })
  test('the Logout button in the site header signs out', async ({ page }) => {
    await signOutWithTheButton(page)
  })
})

function nosniffValues(res: APIResponse) {
  return res
    .headersArray()
    .filter((h) => h.name.toLowerCase() === 'x-content-type-options')
    .map((h) => h.value)
}

/**
 * A page the shared page cache answers: asked twice in a row. Another test approving an ad meanwhile clears that cache
 * on purpose, so a new page is asked again then (a few times at most).
 */
async function cachedPage(request: APIRequestContext) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const landing = `/landing?v=${unique()}`
    await request.get(landing)
    const again = await request.get(landing)
    if (again.headers()['age'] !== undefined) return again
  }
  throw new Error('The shared page cache never answered /landing twice in a row')
}

test('every kind of response carries X-Content-Type-Options: nosniff, once', async ({ request }) => {
  const publicPage = await (await request.get('/public')).text()
  const media = /\/api\/media\/[^"?]+/.exec(publicPage)?.[0]
  expect(media, 'a demo photo on /public').toBeDefined()

  const responses: Array<[string, APIResponse]> = [
    ['JSON', await request.get('/api/categories')],
    ['JSON error', await request.get('/api/events/999999999')],
    ['redirect', await request.get('/dashboard', { maxRedirects: 0 })],
    ['iCal feed', await request.get('/calendar.ics')],
    ['RSS feed', await request.get('/calendar.rss')],
    ['media', await request.get(media!)],
    ['media range', await request.get(media!, { headers: { Range: 'bytes=0-9' } })],
    ['404 page', await request.get(`/no-such-page-${unique()}`)],
    ['404 file', await request.get(`/api/media/nothing-${unique()}.jpg`)],
    ['cached page', await cachedPage(request)],
    ['static file', await request.get('/favicon.svg')],
    ['health', await request.get('/healthz')],
    ['refused', await request.post('/api/logout', { headers: { Origin: 'https://evil.example' } })],
    ['HEAD', await request.head('/public')],
  ]
  expect(responses.find(([label]) => label === 'cached page')![1].headers()['age']).toMatch(/^\d+$/)
  for (const [label, res] of responses) expect(nosniffValues(res), label).toEqual(['nosniff'])
})

test('the shared page cache gives every visitor a nonce of their own', async ({ request }) => {
  const path = `/calendar?keyword=${unique()}`
  const nonceOf = (res: APIResponse) =>
    /'nonce-([^']+)'/.exec(res.headers()['content-security-policy'] ?? '')?.[1]
  const first = await request.get(path)
  const hits = [await request.get(path), await request.get(path)]
  const nonces = [first, ...hits].map(nonceOf)
  for (const hit of hits) expect(hit.headers()['age']).toMatch(/^\d+$/)
  expect(nonces.every(Boolean)).toBe(true)
  expect(new Set(nonces).size).toBe(3)
  for (const res of [first, ...hits]) {
    // Any nonce in the HTML is the one its own header allows.
    const inBody = [...(await res.text()).matchAll(/nonce="([^"]+)"/g)].map((m) => m[1])
    for (const nonce of inBody) expect(nonce).toBe(nonceOf(res))
  }
})

test('pages allow no inline styles, and show no CSP violations in Chromium', async ({ page }) => {
  const violations: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
  })
  // Reported through a binding: reading them with page.evaluate would itself count as an eval under this CSP.
  await page.exposeFunction('reportCspViolation', (violation: string) => violations.push(violation))
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (v: string) => void }).reportCspViolation
      report(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`)
    })
  })
  const visit = async (path: string) => {
    const res = await page.goto(path)
    const csp = res!.headers()['content-security-policy']!
    expect(csp).toMatch(/style-src 'self'(;|$)/)
    expect(csp).not.toContain('unsafe-inline')
    await page.waitForLoadState('networkidle')
    expect(violations, path).toEqual([])
  }

  for (const path of ['/', '/public', '/landing', '/calendar?keyword=Maple+Street']) await visit(path)
  await visit(await openFirstListedEvent(page))

  await signInAsNewBusiness(page, 'Style Hall')
  const approved = await page.request.post('/api/approve-event', {
    headers: fromSite(),
    multipart: {
      eventData: JSON.stringify({
        eventTitle: 'Inline Style Night',
        eventDescription: 'A night of live music.',
        eventCategory: ['Concert'],
      }),
      selectedDates: JSON.stringify([addDaysIso(todayInZone('America/New_York'), 2)]),
      totalAmount: '29.00',
    },
  })
  expect(approved.status(), await approved.text()).toBe(200)
  await visit('/dashboard')
  await visit('/checkout')
  await expect(page.getByRole('heading', { name: 'Complete Your Payment' })).toBeVisible()
})
