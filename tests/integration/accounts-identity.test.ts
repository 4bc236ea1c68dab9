import { eq } from 'drizzle-orm'
import { OAuth2Server } from 'oauth2-mock-server'
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  test,
  vi,
  type MockInstance,
} from 'vitest'
import { setUserRole } from '#app/models/accounts/user.server.ts'
import { loader as callbackLoader } from '#app/routes/api.login_.callback.ts'
import { action as devSignInAction, loader as apiLoginLoader } from '#app/routes/api.login.tsx'
import { action as linkAction, loader as linkLoader } from '#app/routes/api.login_.link.tsx'
import { action as logoutAction } from '#app/routes/api.logout.tsx'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import { sessionCookie, sessionStorage } from '#app/services/http/session.server.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { sessions, users } from '#db/schema.ts'
import { CookieJar, setCookieFor, toastOf } from '#tests/support/cookie-jar.ts'
import { callRoute } from '#tests/support/routes.ts'

const CLIENT_ID = 'eventshout-test'
const OIDC_VARS = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const

function setEnv(values: Record<string, string | undefined>) {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
  resetEnvCache()
}

let unique = 0
const newEmail = (label: string) => `${label}-${Date.now()}-${++unique}@example.com`

async function sidOf(jar: CookieJar) {
  const value = jar.get('__session')
  return value ? ((await sessionCookie.parse(`__session=${value}`)) as string | null) : null
}

async function sessionData(jar: CookieJar) {
  const sid = await sidOf(jar)
  if (!sid) return null
  const [row] = await db.select().from(sessions).where(eq(sessions.sid, sid))
  return (row?.sess ?? null) as Record<string, unknown> | null
}

async function userByEmail(email: string) {
  const [row] = await db.select().from(users).where(eq(users.email, email))
  return row
}

describe('OpenID Connect provider (oauth2-mock-server on loopback)', () => {
  let server: OAuth2Server
  let issuer: string
  /** What the provider's userinfo endpoint says about the person signing in. */
  let profile: Record<string, unknown>

  beforeAll(async () => {
    server = new OAuth2Server()
    await server.issuer.keys.generate('RS256')
    await server.start(0, '127.0.0.1')
    issuer = server.issuer.url!
    server.service.on('beforeUserinfo', (response) => {
      response.body = { sub: 'johndoe', ...profile }
    })
    setEnv({ OIDC_ISSUER: issuer, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: 'test-client-secret' })
  })

  afterAll(async () => {
    setEnv(Object.fromEntries(OIDC_VARS.map((k) => [k, undefined])))
    await server.stop()
  })

  // A rejected callback is logged as a warning; each test below that expects one checks it.
  let warn: MockInstance<typeof console.warn>
  beforeEach(() => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  })
  afterEach(() => warn.mockRestore())
  const expectWarning = (pattern: RegExp) =>
    expect(warn.mock.calls.map((c) => c.map(String).join(' ')).join('\n')).toMatch(pattern)

  /** /api/login → the provider's authorize endpoint (real HTTP) → back to the callback with its cookies. */
  async function roundTrip({
    path = '/api/login',
    jar = new CookieJar(),
    changeCallback,
  }: { path?: string; jar?: CookieJar; changeCallback?: (url: URL) => void } = {}) {
    const start = jar.store(await callRoute(apiLoginLoader, path, { headers: jar.headers() }))
    expect(start.status).toBe(302)
    const authorize = new URL(start.headers.get('Location')!)
    const atProvider = await fetch(authorize, { redirect: 'manual' })
    expect(atProvider.status).toBe(302)
    const callback = new URL(atProvider.headers.get('Location')!)
    changeCallback?.(callback)
    const res = jar.store(
      await callRoute(callbackLoader, `${callback.pathname}${callback.search}`, { headers: jar.headers() }),
    )
    return { start, authorize, callback, res, jar }
  }

  test('/api/login redirects to the provider with state and a PKCE challenge', async () => {
    const res = await callRoute(apiLoginLoader, '/api/login')
    expect(res.status).toBe(302)
    const location = new URL(res.headers.get('Location')!)
    expect(`${location.origin}${location.pathname}`).toBe(`${issuer}/authorize`)
    const params = location.searchParams
    expect(params.get('response_type')).toBe('code')
    expect(params.get('client_id')).toBe(CLIENT_ID)
    expect(params.get('redirect_uri')).toBe('http://localhost/api/login/callback')
    expect(params.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['openid', 'email', 'profile']))
    expect(params.get('state')).toMatch(/.{16,}/)
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/)
    expect(params.get('code_challenge_method')).toBe('S256')
    const stateCookie = res.headers.getSetCookie().find((c) => c.startsWith('es_oidc'))
    expect(stateCookie).toMatch(/HttpOnly/)
    expect(stateCookie).toMatch(/SameSite=Lax/)
    expect(stateCookie).not.toContain(params.get('code_challenge')!)
  })

  test('a new user gets an account automatically and goes on to registration', async () => {
    const email = newEmail('newcomer')
    profile = {
      email: email.toUpperCase(),
      email_verified: true,
      given_name: 'Nia',
      family_name: 'Newcomer',
      name: 'Nia Newcomer',
      picture: 'https://example.com/nia.png',
    }
    const { res, jar } = await roundTrip()
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/create-account')
    expect(await toastOf(res)).toMatchObject({ title: 'Signed In' })

    const user = await userByEmail(email)
    expect(user).toMatchObject({
      firstName: 'Nia',
      lastName: 'Newcomer',
      fullName: 'Nia Newcomer',
      profileImageUrl: 'https://example.com/nia.png',
      roles: [],
      businessID: null,
    })
    expect(user!.lastLogin!.getTime()).toBeGreaterThan(Date.now() - 60_000)

    const data = await sessionData(jar)
    expect(data).toMatchObject({
      user: { id: user!.id, email, name: 'Nia Newcomer', roles: [] },
      identity: { provider: 'oidc' },
    })
    expect(data).not.toHaveProperty('business')
    expect((data!.identity as { idToken?: string }).idToken).toMatch(/^ey/)
    // The one-time state cookie is gone after the round trip.
    expect(jar.names().filter((n) => n.startsWith('es_oidc'))).toEqual([])
  })

  test('a returning user whose email is a business is signed in as that business too, and linked', async () => {
    const shop = await insertBusiness(db, { businessName: 'Corner Books', businessEmail: newEmail('books') })
    profile = { email: shop.businessEmail, email_verified: true, name: 'Old Name' }
    await roundTrip()
    profile = { email: shop.businessEmail, email_verified: true, name: 'Cora Books' }
    const { res, jar } = await roundTrip()
    expect(res.headers.get('Location')).toBe('/dashboard')
    expect(await toastOf(res)).toMatchObject({ description: 'Welcome, Corner Books!' })

    const user = await userByEmail(shop.businessEmail)
    expect(user).toMatchObject({ businessID: shop.businessID, fullName: 'Cora Books' })
    expect(await sessionData(jar)).toMatchObject({
      user: { id: user!.id, name: 'Cora Books' },
      business: { businessID: shop.businessID, businessName: 'Corner Books' },
    })
  })

  test.each([
    ['admin', '/admin'],
    ['clinician', '/patient-diseases'],
  ] as const)('staff (%s) come back to ?redirectTo=%s', async (role, target) => {
    const email = newEmail(role)
    await setUserRole(email, role)
    profile = { email, email_verified: true }
    const { res, jar } = await roundTrip({ path: `/api/login?redirectTo=${encodeURIComponent(target)}` })
    expect(res.headers.get('Location')).toBe(target)
    expect(await sessionData(jar)).toMatchObject({ user: { email, roles: [role] } })
  })

  test('staff without redirectTo land on their own page; an off-site redirectTo is ignored', async () => {
    const email = newEmail('admin-home')
    await setUserRole(email, 'admin')
    profile = { email, email_verified: true }
    const plain = await roundTrip()
    expect(plain.res.headers.get('Location')).toBe('/admin')
    const offsite = await roundTrip({ path: '/api/login?redirectTo=//evil.example/' })
    expect(offsite.res.headers.get('Location')).toBe('/admin')
  })

  test('sign-in replaces any earlier session with a new id', async () => {
    const jar = new CookieJar()
    const before = await sessionStorage.getSession()
    before.set('note', 'anonymous')
    jar.set((await sessionStorage.commitSession(before)).split(';')[0]!)
    const oldSid = await sidOf(jar)
    profile = { email: newEmail('fixation'), email_verified: true }
    await roundTrip({ jar })
    const newSid = await sidOf(jar)
    expect(newSid).not.toBe(oldSid)
    expect(await db.select().from(sessions).where(eq(sessions.sid, oldSid!))).toEqual([])
  })

  test('a bad state is rejected: no session, no user', async () => {
    const email = newEmail('bad-state')
    profile = { email, email_verified: true }
    const { res } = await roundTrip({
      changeCallback: (url) => url.searchParams.set('state', 'forged-state'),
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/login')
    expect(await toastOf(res)).toMatchObject({ title: 'Sign-in Failed', variant: 'destructive' })
    expect(setCookieFor(res, '__session')).toBeUndefined()
    expect(await userByEmail(email)).toBeUndefined()
    expectWarning(/State in URL doesn't match/)
  })

  test('a callback without the state cookie (another browser) is rejected', async () => {
    const email = newEmail('no-cookie')
    profile = { email, email_verified: true }
    const start = await callRoute(apiLoginLoader, '/api/login')
    const atProvider = await fetch(start.headers.get('Location')!, { redirect: 'manual' })
    const callback = new URL(atProvider.headers.get('Location')!)
    const res = await callRoute(callbackLoader, `${callback.pathname}${callback.search}`)
    expect(res.headers.get('Location')).toBe('/login')
    expect(setCookieFor(res, '__session')).toBeUndefined()
    expect(await userByEmail(email)).toBeUndefined()
    expectWarning(/Missing state/)
  })

  test('denied consent (error=access_denied) goes back to /login with a clear message and no session', async () => {
    const email = newEmail('denied')
    profile = { email, email_verified: true }
    server.service.once('beforeAuthorizeRedirect', ({ url }) => {
      url.searchParams.delete('code')
      url.searchParams.set('error', 'access_denied')
      url.searchParams.set('error_description', 'Anything the link author wants to say')
    })
    const { res, jar } = await roundTrip()
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/login')
    const toast = await toastOf(res)
    expect(toast).toMatchObject({
      title: 'Sign-in Cancelled',
      description: 'You cancelled signing in with the identity provider, so you are not signed in.',
      variant: 'destructive',
    })
    expect(toast?.description).not.toContain('link author')
    expect(jar.has('__session')).toBe(false)
    expect(await userByEmail(email)).toBeUndefined()
  })

  test('a token endpoint error is a failed sign-in, not a crash', async () => {
    const email = newEmail('token-error')
    profile = { email, email_verified: true }
    server.service.once('beforeResponse', (response) => {
      response.statusCode = 400
      response.body = { error: 'invalid_grant' }
    })
    const { res } = await roundTrip()
    expect(res.headers.get('Location')).toBe('/login')
    expect(setCookieFor(res, '__session')).toBeUndefined()
    expect(await userByEmail(email)).toBeUndefined()
    expectWarning(/invalid_grant/)
  })

  describe('an email the provider has not verified', () => {
    const PASSWORD = 'shop-password-1'
    const postPassword = (jar: CookieJar, password: string) =>
      callRoute(linkAction, '/api/login/link', {
        method: 'POST',
        body: new URLSearchParams({ password }),
        headers: jar.headers({ 'Content-Type': 'application/x-www-form-urlencoded' }),
      })

    test.each([
      ['email_verified: false', { email_verified: false }],
      ['email_verified: "false"', { email_verified: 'false' }],
      ['no email_verified at all', {}],
    ])(
      '(%s) does not sign in as the business with that email: its password is asked for',
      async (_label, claim) => {
        const shop = await insertBusiness(db, {
          businessEmail: newEmail('unverified-shop'),
          password: PASSWORD,
        })
        profile = { email: shop.businessEmail, ...claim }
        const { res, jar } = await roundTrip()
        expect(res.status).toBe(302)
        expect(res.headers.get('Location')).toBe('/api/login/link')
        expect(setCookieFor(res, '__session')).toBeUndefined()
        expect(await userByEmail(shop.businessEmail)).toBeUndefined()

        const page = await callRoute(linkLoader, '/api/login/link', { headers: jar.headers() })
        expect(page.status).toBe(200)
        expect(await page.json()).toEqual({ businessName: shop.businessName, email: shop.businessEmail })
      },
    )

    test('the right business password links the sign-in and signs in; a wrong one does neither', async () => {
      const shop = await insertBusiness(db, {
        businessName: 'Unverified Books',
        businessEmail: newEmail('link-shop'),
        password: PASSWORD,
      })
      profile = { email: shop.businessEmail, name: 'Una Verified' }
      const { jar } = await roundTrip({ path: '/api/login?redirectTo=%2Fcheckout' })

      const wrong = jar.store(await postPassword(jar, 'not-the-password'))
      expect(wrong.status).toBe(401)
      expect((await wrong.json()).result.error).toEqual({ password: ['Invalid email or password'] })
      expect(jar.has('__session')).toBe(false)
      expect(await userByEmail(shop.businessEmail)).toBeUndefined()
      const empty = await postPassword(jar, '')
      expect(empty.status).toBe(400)

      const right = jar.store(await postPassword(jar, PASSWORD))
      expect(right.status).toBe(302)
      expect(right.headers.get('Location')).toBe('/checkout')
      expect(await toastOf(right)).toMatchObject({
        title: 'Signed In',
        description: 'Your sign-in is now linked to Unverified Books. Welcome, Unverified Books!',
      })
      const user = await userByEmail(shop.businessEmail)
      expect(user).toMatchObject({ businessID: shop.businessID, fullName: 'Una Verified' })
      expect(await sessionData(jar)).toMatchObject({
        user: { id: user!.id },
        business: { businessID: shop.businessID, businessName: 'Unverified Books' },
        identity: { provider: 'oidc' },
      })
      // The pending link is used up.
      expect(jar.has('es_link')).toBe(false)
      const again = await callRoute(linkLoader, '/api/login/link', { headers: jar.headers() })
      expect(again.headers.get('Location')).toBe('/login')
    })

    test('a user linked earlier is still asked for the password when the email is not verified', async () => {
      const shop = await insertBusiness(db, { businessEmail: newEmail('linked-shop'), password: PASSWORD })
      profile = { email: shop.businessEmail, email_verified: true }
      await roundTrip()
      expect((await userByEmail(shop.businessEmail))?.businessID).toBe(shop.businessID)

      profile = { email: shop.businessEmail }
      const { res } = await roundTrip()
      expect(res.headers.get('Location')).toBe('/api/login/link')
      expect(setCookieFor(res, '__session')).toBeUndefined()
    })

    test('the link page without a pending sign-in (expired, forged) goes back to /login', async () => {
      const res = await callRoute(linkLoader, '/api/login/link', { headers: { Cookie: 'es_link=forged' } })
      expect(res.headers.get('Location')).toBe('/login')
      expect((await toastOf(res))?.description).toMatch(/sign in again/)
      const posted = await postPassword(new CookieJar(), PASSWORD)
      expect(posted.headers.get('Location')).toBe('/login')
      expect(setCookieFor(posted, '__session')).toBeUndefined()
    })

    test('a staff account with that email is refused with a clear message', async () => {
      const email = newEmail('unverified-admin')
      await setUserRole(email, 'admin')
      profile = { email }
      const { res } = await roundTrip({ path: '/api/login?redirectTo=%2Fadmin' })
      expect(res.headers.get('Location')).toBe('/login')
      expect((await toastOf(res))?.description).toMatch(/not verified your email/)
      expect(setCookieFor(res, '__session')).toBeUndefined()
    })

    test('someone new goes on to registration, linked to nothing', async () => {
      const email = newEmail('unverified-newcomer')
      profile = { email, email_verified: false }
      const { res, jar } = await roundTrip()
      expect(res.headers.get('Location')).toBe('/create-account')
      expect(await userByEmail(email)).toMatchObject({ businessID: null, roles: [] })
      expect(await sessionData(jar)).not.toHaveProperty('business')
    })
  })

  test('a profile without an email is refused', async () => {
    profile = { name: 'No Email' }
    const { res } = await roundTrip()
    expect(res.headers.get('Location')).toBe('/login')
    expect(setCookieFor(res, '__session')).toBeUndefined()
    expectWarning(/did not share an email/)
  })

  test('logout ends the session here and at the provider', async () => {
    profile = { email: newEmail('leaver'), email_verified: true }
    const { jar } = await roundTrip()
    const sid = await sidOf(jar)
    const idToken = ((await sessionData(jar))!.identity as { idToken: string }).idToken

    const res = await callRoute(logoutAction, '/api/logout', { method: 'POST', headers: jar.headers() })
    expect(res.status).toBe(302)
    const endSession = new URL(res.headers.get('Location')!)
    expect(`${endSession.origin}${endSession.pathname}`).toBe(`${issuer}/endsession`)
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe('http://localhost/')
    expect(endSession.searchParams.get('id_token_hint')).toBe(idToken)
    expect(endSession.searchParams.get('client_id')).toBe(CLIENT_ID)
    expect(await db.select().from(sessions).where(eq(sessions.sid, sid!))).toEqual([])

    const back = await fetch(endSession, { redirect: 'manual' })
    expect(back.headers.get('Location')).toBe('http://localhost/')
  })

  test('a business signed in with a password logs out to / (the provider is not involved)', async () => {
    const shop = await insertBusiness(db)
    const session = await sessionStorage.getSession()
    session.set('business', { businessID: shop.businessID, businessName: shop.businessName })
    const cookie = (await sessionStorage.commitSession(session)).split(';')[0]!
    const res = await callRoute(logoutAction, '/api/logout', { method: 'POST', headers: { Cookie: cookie } })
    expect(res.headers.get('Location')).toBe('/')
  })
})

describe('development sign-in (no provider, not production)', () => {
  function postEmail(email: string, extra: Record<string, string> = {}) {
    return callRoute(devSignInAction, '/api/login', {
      method: 'POST',
      body: new URLSearchParams({ email, ...extra }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
  }

  test('/api/login shows the development sign-in page', async () => {
    const res = await callRoute(apiLoginLoader, '/api/login?redirectTo=/admin')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ mode: 'development', redirectTo: '/admin' })
  })

  test('an email is all it takes: the user is created and signed in', async () => {
    const email = newEmail('dev')
    const jar = new CookieJar()
    const res = jar.store(await postEmail(` ${email.toUpperCase()} `))
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/create-account')
    const user = await userByEmail(email)
    expect(user).toBeDefined()
    expect(user!.lastLogin).not.toBeNull()
    expect(await sessionData(jar)).toMatchObject({
      user: { id: user!.id, email },
      identity: { provider: 'development' },
    })
  })

  test('the same rules as the provider: business email → that business; staff → redirectTo', async () => {
    const shop = await insertBusiness(db, { businessEmail: newEmail('dev-shop') })
    const asShop = await postEmail(shop.businessEmail)
    expect(asShop.headers.get('Location')).toBe('/dashboard')

    const email = newEmail('dev-admin')
    await setUserRole(email, 'admin')
    const asAdmin = await postEmail(email, { redirectTo: '/admin' })
    expect(asAdmin.headers.get('Location')).toBe('/admin')
  })

  test('a redirectTo that a browser would turn into another site is ignored', async () => {
    const email = newEmail('dev-admin-tab')
    await setUserRole(email, 'admin')
    for (const redirectTo of ['/\t/evil.example/', '/\\evil.example/', '/%2F%2Fevil.example/']) {
      const res = await postEmail(email, { redirectTo })
      expect(res.headers.get('Location')).toBe('/admin')
    }
  })

  test('a bad email is a 400 with a field message', async () => {
    const res = await postEmail('not-an-email')
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({
      result: { error: { email: ['Please enter a valid email address'] } },
    })
  })
})

describe('production without a provider (ALLOW_NO_IDENTITY_PROVIDER=true)', () => {
  const saved = { ...process.env }
  beforeAll(() =>
    setEnv({
      APP_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(40),
      ALLOW_NO_IDENTITY_PROVIDER: 'true',
      PUBLIC_URL: 'https://events.example',
    }),
  )
  afterAll(() =>
    setEnv({
      APP_ENV: saved.APP_ENV,
      SESSION_SECRET: saved.SESSION_SECRET,
      ALLOW_NO_IDENTITY_PROVIDER: saved.ALLOW_NO_IDENTITY_PROVIDER,
      PUBLIC_URL: saved.PUBLIC_URL,
    }),
  )

  test('/api/login says sign-in with a provider is not available', async () => {
    const res = await callRoute(apiLoginLoader, '/api/login')
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ mode: 'unavailable' })
  })

  test('the development sign-in does not exist there', async () => {
    const res = await callRoute(devSignInAction, '/api/login', {
      method: 'POST',
      body: new URLSearchParams({ email: newEmail('intruder') }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(res.status).toBe(404)
    expect(setCookieFor(res, '__session')).toBeUndefined()
  })
})
