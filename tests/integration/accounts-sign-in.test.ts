import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, test } from 'vitest'
import { action as indexAction, loader as indexLoader } from '#app/routes/_index.tsx'
import { action as apiLoginAction } from '#app/routes/api.business.login.ts'
import { loader as authUserLoader } from '#app/routes/api.auth.user.ts'
import { loader as logoutLoader, action as logoutAction } from '#app/routes/api.logout.tsx'
import { loader as createAccountLoader } from '#app/routes/create-account.tsx'
import { loader as dashboardLoader } from '#app/routes/dashboard.tsx'
import { action as loginAction, loader as loginLoader } from '#app/routes/login.tsx'
import {
  SIGN_IN_MAX_FAILURES,
  SIGN_IN_WINDOW_MS,
  signInAttemptKey,
} from '#app/services/platform/rate-limit.server.ts'
import { sessionCookie } from '#app/services/http/session.server.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { authAttempts, sessions, type Business } from '#db/schema.ts'
import { CookieJar, setCookieFor, toastOf } from '#tests/support/cookie-jar.ts'
import { callRoute } from '#tests/support/routes.ts'

const PASSWORD = 'correct-horse'

let owner: Business
let ipCounter = 0
/** Each test signs in from its own address, so rate-limit counts do not leak between tests. */
let ip: string

beforeEach(async () => {
  owner = await insertBusiness(db, { businessName: 'Blue Door Cafe', password: PASSWORD })
  ip = `203.0.113.${++ipCounter}`
})

function form(fields: Record<string, string>) {
  return new URLSearchParams(fields)
}

function postLogin(fields: Record<string, string>, jar = new CookieJar(), path = '/login') {
  return callRoute(path === '/login' ? loginAction : indexAction, path, {
    method: 'POST',
    body: form(fields),
    headers: jar.headers({
      'Content-Type': 'application/x-www-form-urlencoded',
      'X-Forwarded-For': `${ip}, 10.0.0.1`,
    }),
  })
}

function postApiLogin(body: unknown, { raw, jar = new CookieJar() }: { raw?: string; jar?: CookieJar } = {}) {
  return callRoute(apiLoginAction, '/api/business/login', {
    method: 'POST',
    body: raw ?? JSON.stringify(body),
    headers: jar.headers({ 'Content-Type': 'application/json', 'X-Forwarded-For': ip }),
  })
}

async function sidOf(jar: CookieJar) {
  const value = jar.get('__session')
  return value ? ((await sessionCookie.parse(`__session=${value}`)) as string | null) : null
}

async function sessionRow(sid: string | null) {
  if (!sid) return null
  const [row] = await db.select().from(sessions).where(eq(sessions.sid, sid))
  return row ?? null
}

const sessionCopy = () => ({
  businessID: owner.businessID,
  businessName: 'Blue Door Cafe',
  businessPhone: owner.businessPhone,
  businessEmail: owner.businessEmail,
  businessAddress: owner.businessAddress,
  businessCity: owner.businessCity,
  businessState: owner.businessState,
  businessZip: owner.businessZip,
  businessContact: owner.businessContact,
})

describe('sign-in page action (/login and /)', () => {
  test.each([
    [{ email: '', password: '' }, 'Email Required', 'Please enter your email address', 'email'],
    [{ email: '  ', password: 'x' }, 'Email Required', 'Please enter your email address', 'email'],
    [
      { email: 'owner@example.com', password: '   ' },
      'Password Required',
      'Please enter your password',
      'password',
    ],
    [
      { email: 'not an email', password: 'x' },
      'Invalid Email',
      'Please enter a valid email address',
      'email',
    ],
  ])('the server repeats the checks: %j → 400 %s', async (fields, title, message, field) => {
    const res = await postLogin(fields)
    expect(res.status).toBe(400)
    const body = (await res.json()) as {
      error: { title: string; message: string }
      result: { error: Record<string, string[]>; initialValue: Record<string, unknown> }
    }
    expect(body.error).toMatchObject({ title, message })
    // conform's reply: the message beside its field, the password never sent back.
    expect(body.result.error).toEqual({ [field]: [message] })
    expect(body.result.initialValue).not.toHaveProperty('password')
    expect(setCookieFor(res, '__session')).toBeUndefined()
  })

  test('wrong password → 401 "Login Failed" / "Invalid email or password", no session', async () => {
    const res = await postLogin({ email: owner.businessEmail, password: 'wrong-password' })
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({
      error: { title: 'Login Failed', message: 'Invalid email or password' },
      email: owner.businessEmail,
    })
    expect(setCookieFor(res, '__session')).toBeUndefined()
  })

  test('unknown email → the same 401 answer', async () => {
    const res = await postLogin({ email: 'nobody@example.com', password: PASSWORD })
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({
      error: { title: 'Login Failed', message: 'Invalid email or password' },
    })
  })

  test('success → /dashboard with "Login Successful" / "Welcome back, {businessName}!" and the session copy', async () => {
    const jar = new CookieJar()
    const res = jar.store(
      await postLogin({ email: `  ${owner.businessEmail.toUpperCase()} `, password: ` ${PASSWORD} ` }),
    )
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/dashboard')
    expect(await toastOf(res)).toMatchObject({
      title: 'Login Successful',
      description: 'Welcome back, Blue Door Cafe!',
      variant: 'default',
    })
    const cookie = setCookieFor(res, '__session')!
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Lax/)
    expect(cookie).not.toMatch(/Secure/) // Secure only in production
    const row = await sessionRow(await sidOf(jar))
    expect(row?.sess).toEqual({ business: sessionCopy() })
  })

  test('the index route (/) is the same screen and action', async () => {
    const res = await postLogin(
      { email: owner.businessEmail, password: PASSWORD },
      new CookieJar(),
      '/?index',
    )
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/dashboard')
  })

  test('redirectTo is honoured when it is a local path, ignored otherwise', async () => {
    const local = await postLogin({ email: owner.businessEmail, password: PASSWORD, redirectTo: '/checkout' })
    expect(local.headers.get('Location')).toBe('/checkout')
    const elsewhere = await postLogin({
      email: owner.businessEmail,
      password: PASSWORD,
      redirectTo: 'https://evil.example/',
    })
    expect(elsewhere.headers.get('Location')).toBe('/dashboard')
  })

  test('a redirectTo that a browser would turn into another site (tab, encoded slashes) goes to the dashboard', async () => {
    const res = await callRoute(loginAction, '/login', {
      method: 'POST',
      body: `email=${encodeURIComponent(owner.businessEmail)}&password=${PASSWORD}&redirectTo=%2F%09%2Fevil.example%2F`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': ip },
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/dashboard')
  })

  test('a new session id at sign-in: the old session row is deleted (no session fixation)', async () => {
    const jar = new CookieJar()
    // A session that exists before sign-in (as a planted or anonymous one would).
    const planted = await callRoute(async () => {
      const { sessionStorage } = await import('#app/services/http/session.server.ts')
      const session = await sessionStorage.getSession()
      session.set('note', 'before sign-in')
      return new Response(null, { headers: { 'Set-Cookie': await sessionStorage.commitSession(session) } })
    }, '/')
    jar.store(planted)
    const before = await sidOf(jar)
    expect(await sessionRow(before)).not.toBeNull()

    jar.store(await postLogin({ email: owner.businessEmail, password: PASSWORD }, jar))
    const after = await sidOf(jar)
    expect(after).not.toBeNull()
    expect(after).not.toBe(before)
    expect(await sessionRow(before)).toBeNull()
    expect((await sessionRow(after))?.sess).toEqual({ business: sessionCopy() })
  })
})

describe('POST /api/business/login (JSON)', () => {
  test('success → {business, message} and the session cookie', async () => {
    const jar = new CookieJar()
    const res = jar.store(await postApiLogin({ email: owner.businessEmail, password: PASSWORD }))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ business: sessionCopy(), message: 'Login successful' })
    expect(setCookieFor(res, '__session')).toMatch(/HttpOnly; SameSite=Lax/)
    expect((await sessionRow(await sidOf(jar)))?.sess).toEqual({ business: sessionCopy() })
  })

  test('wrong credentials → 401 with a message', async () => {
    const res = await postApiLogin({ email: owner.businessEmail, password: 'nope-nope' })
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({ message: 'Invalid email or password' })
  })

  test.each([
    [{ email: '', password: 'x' }, 'Please enter your email address'],
    [{ email: 'owner@example.com' }, 'Please enter your password'],
    [{ email: 'nope', password: 'x' }, 'Please enter a valid email address'],
  ])('%j → 400 %s', async (body, message) => {
    const res = await postApiLogin(body)
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ message })
  })

  test('a body that is not JSON → 400, a form post → 415, each with a message', async () => {
    const res = await postApiLogin(undefined, { raw: 'email=a@b.co&password=x' })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { message: string }).message).toMatch(/JSON/)

    const formPost = await callRoute(apiLoginAction, '/api/business/login', {
      method: 'POST',
      body: form({ email: owner.businessEmail, password: PASSWORD }),
    })
    expect(formPost.status).toBe(415)
    expect(((await formPost.json()) as { message: string }).message).toMatch(/JSON/)

    expect((await postApiLogin(undefined, { raw: '[1,2]' })).status).toBe(400)
  })
})

describe('rate limit: 10 failures per email and address within 15 minutes', () => {
  async function fail(times: number) {
    for (let i = 0; i < times; i++) {
      expect((await postApiLogin({ email: owner.businessEmail, password: `wrong-${i}` })).status).toBe(401)
    }
  }

  test('after 10 failures the next attempt is a 429, even with the right password', async () => {
    await fail(SIGN_IN_MAX_FAILURES)
    const res = await postApiLogin({ email: owner.businessEmail, password: PASSWORD })
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(((await res.json()) as { message: string }).message).toMatch(/Too many failed sign-in attempts/)
    expect(setCookieFor(res, '__session')).toBeUndefined()

    const page = await postLogin({ email: owner.businessEmail, password: PASSWORD })
    expect(page.status).toBe(429)
    expect(await page.json()).toMatchObject({ error: { title: 'Login Failed' } })
  })

  test('the count is per address: another address may still sign in', async () => {
    await fail(SIGN_IN_MAX_FAILURES)
    ip = '198.51.100.200'
    expect((await postApiLogin({ email: owner.businessEmail, password: PASSWORD })).status).toBe(200)
  })

  test('a successful sign-in resets the count', async () => {
    await fail(SIGN_IN_MAX_FAILURES - 1)
    expect((await postApiLogin({ email: owner.businessEmail, password: PASSWORD })).status).toBe(200)
    await fail(SIGN_IN_MAX_FAILURES)
    expect((await postApiLogin({ email: owner.businessEmail, password: PASSWORD })).status).toBe(429)
  })

  test('once the window has passed, sign-in works again', async () => {
    await fail(SIGN_IN_MAX_FAILURES)
    expect((await postApiLogin({ email: owner.businessEmail, password: PASSWORD })).status).toBe(429)
    await db
      .update(authAttempts)
      .set({ windowStartedAt: new Date(Date.now() - SIGN_IN_WINDOW_MS - 1000) })
      .where(eq(authAttempts.key, signInAttemptKey(owner.businessEmail, ip)))
    expect((await postApiLogin({ email: owner.businessEmail, password: PASSWORD })).status).toBe(200)
  })

  test('the table keeps no email addresses', async () => {
    await fail(1)
    const rows = await db.select().from(authAttempts)
    expect(rows.some((r) => r.key.includes('@'))).toBe(false)
  })
})

describe('who goes where', () => {
  async function signedInJar() {
    const jar = new CookieJar()
    jar.store(await postApiLogin({ email: owner.businessEmail, password: PASSWORD }))
    return jar
  }

  test('a signed-in advertiser opening /, /login or /create-account goes to /dashboard', async () => {
    const jar = await signedInJar()
    for (const [loader, path] of [
      [indexLoader, '/'],
      [loginLoader, '/login'],
      [createAccountLoader, '/create-account'],
    ] as const) {
      const res = await callRoute(loader, path, { headers: jar.headers() })
      expect(res.status, path).toBe(302)
      expect(res.headers.get('Location'), path).toBe('/dashboard')
    }
  })

  test('signed out, the sign-in screens render', async () => {
    expect((await callRoute(loginLoader, '/login')).status).toBe(200)
    expect((await callRoute(indexLoader, '/')).status).toBe(200)
  })

  test('/dashboard without a session goes to /login (and comes back)', async () => {
    const res = await callRoute(dashboardLoader, '/dashboard')
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/login?redirectTo=%2Fdashboard')
  })

  test('/dashboard with a session shows the business name', async () => {
    const res = await callRoute(dashboardLoader, '/dashboard', { headers: (await signedInJar()).headers() })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ businessName: 'Blue Door Cafe' })
  })
})

describe('GET /api/auth/user', () => {
  test('401 with a message ending in Unauthorized when signed out', async () => {
    const res = await callRoute(authUserLoader, '/api/auth/user')
    expect(res.status).toBe(401)
    expect(`${res.status}: ${await res.text()}`).toMatch(/^401: .*Unauthorized/)
  })

  test('200 with the business when signed in', async () => {
    const jar = new CookieJar()
    jar.store(await postApiLogin({ email: owner.businessEmail, password: PASSWORD }))
    const res = await callRoute(authUserLoader, '/api/auth/user', { headers: jar.headers() })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ user: null, business: sessionCopy() })
  })
})

describe('/api/logout', () => {
  test('POST ends the session on the server: the old cookie no longer works', async () => {
    const jar = new CookieJar()
    jar.store(await postApiLogin({ email: owner.businessEmail, password: PASSWORD }))
    const oldCookie = jar.header()
    const sid = await sidOf(jar)
    expect(await sessionRow(sid)).not.toBeNull()

    const res = await callRoute(logoutAction, '/api/logout', {
      method: 'POST',
      headers: { Cookie: oldCookie },
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/')
    expect(setCookieFor(res, '__session')).toMatch(/Expires=Thu, 01 Jan 1970/)
    expect(await sessionRow(sid)).toBeNull()

    // Replaying the cookie from before logout is not signed in any more.
    const me = await callRoute(authUserLoader, '/api/auth/user', { headers: { Cookie: oldCookie } })
    expect(me.status).toBe(401)
    const dashboard = await callRoute(dashboardLoader, '/dashboard', { headers: { Cookie: oldCookie } })
    expect(dashboard.headers.get('Location')).toMatch(/^\/login/)
  })

  test('GET (a link or an image on any site) does not end the session: it offers the sign-out button', async () => {
    const jar = new CookieJar()
    jar.store(await postApiLogin({ email: owner.businessEmail, password: PASSWORD }))
    const sid = await sidOf(jar)

    const res = await callRoute(logoutLoader, '/api/logout', { headers: jar.headers() })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ name: 'Blue Door Cafe' })
    expect(setCookieFor(res, '__session')).toBeUndefined()
    expect(await sessionRow(sid)).not.toBeNull()
    const me = await callRoute(authUserLoader, '/api/auth/user', { headers: jar.headers() })
    expect(me.status).toBe(200)
  })

  test('without a session GET and POST just go home', async () => {
    for (const res of [
      await callRoute(logoutLoader, '/api/logout'),
      await callRoute(logoutAction, '/api/logout', { method: 'POST' }),
    ]) {
      expect(res.status).toBe(302)
      expect(res.headers.get('Location')).toBe('/')
    }
  })
})
