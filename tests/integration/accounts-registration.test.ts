import net from 'node:net'
import { eq, sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { registrationSchema, type RegistrationInput } from '#app/models/accounts/business-schema.ts'
import { action as apiBusinessAction } from '#app/routes/api.business.ts'
import { action as createAccountAction, loader as createAccountLoader } from '#app/routes/create-account.tsx'
import {
  action as createBusinessAccountAction,
  loader as createBusinessAccountLoader,
} from '#app/routes/create-business-account.tsx'
import { verifyPassword } from '#app/utils/password.server.ts'
import type { AppError } from '#app/utils/app-error.ts'
import { registerBusiness } from '#app/services/accounts/registration.server.ts'
import { formStamp } from '#app/services/moderation/robot-guard.server.ts'
import { JSON_OR_FORM_CONTENT_TYPE_MESSAGE } from '#app/services/http/request-body.server.ts'
import { sessionCookie } from '#app/services/http/session.server.ts'
import {
  closeDatabase,
  db,
  openServerDatabase,
  useDatabase as setCurrentDatabase,
  type Database,
  type DatabaseHandle,
} from '#db/client.server.ts'
import { insertBusiness, insertUser } from '#db/factories.ts'
import * as schema from '#db/schema.ts'
import { business, sessions, users } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { CookieJar, toastOf } from '#tests/support/cookie-jar.ts'
import { expectConsoleError } from '#tests/support/fail-on-console-error.ts'
import { callRoute } from '#tests/support/routes.ts'
import { createTestDatabase } from '#tests/support/test-database.ts'
import { registrationFields } from '#tests/support/registration-fields.ts'

let testDatabase: DatabaseHandle

// This file swaps in unreachable databases, so it keeps its own handle to put back afterwards.
beforeAll(async () => {
  await closeDatabase()
  testDatabase = await createTestDatabase(inject('databaseTemplate'))
  setCurrentDatabase(testDatabase)
})

afterAll(() => {
  setCurrentDatabase(testDatabase)
})

async function withDatabase<T>(handle: DatabaseHandle, run: () => Promise<T>) {
  setCurrentDatabase(handle)
  try {
    return await run()
  } finally {
    setCurrentDatabase(testDatabase)
    await handle.close()
  }
}

let counter = 0
function payload(overrides: Partial<Record<keyof RegistrationInput, string>> = {}) {
  counter++
  return registrationFields(`Owner${counter}.${Date.now()}@BlueDoor.example`, {
    facebookURL: 'https://facebook.com/bluedoor',
    instagramURL: '',
    linkedin: '',
    youtubeURL: '',
    xURL: '',
    tiktokURL: 'tiktok.com/@bluedoor',
    ...overrides,
  })
}

function postPage(
  fields: Record<string, string>,
  {
    js = false,
    cookie,
    path = '/create-account',
    // A person's pace: the form was drawn a minute ago (its stamp is the cookie the page set).
    stamp = formStamp(Date.now() - 60_000),
  }: { js?: boolean; cookie?: string; path?: string; stamp?: string | null } = {},
) {
  const body = new URLSearchParams(fields)
  if (js) body.set('js', '1')
  const handler = path === '/create-account' ? createAccountAction : createBusinessAccountAction
  const cookies = [cookie, stamp === null ? null : `signup_started=${stamp}`].filter(Boolean).join('; ')
  return callRoute(handler, path, {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(cookies ? { Cookie: cookies } : {}) },
  })
}

function postApi(body: unknown, contentType = 'application/json') {
  return callRoute(apiBusinessAction, '/api/business', {
    method: 'POST',
    body: contentType === 'application/json' ? JSON.stringify(body) : (body as BodyInit),
    headers: { 'Content-Type': contentType },
  })
}

async function stored(email: string) {
  const [row] = await db.select().from(business).where(eq(business.businessEmail, email.toLowerCase()))
  return row
}

type PageResult = {
  result: { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> }
  success: { title: string; description: string } | null
}

describe('registration page (/create-account and /create-business-account)', () => {
  test('without JavaScript: the account is created and the browser goes to /login with a success toast', async () => {
    const fields = payload()
    const res = await postPage(fields)
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/login')
    expect(await toastOf(res)).toMatchObject({
      title: 'Account Created',
      description: 'Your business account has been created. Please sign in.',
    })

    const row = await stored(fields.businessEmail)
    expect(row).toMatchObject({
      businessName: 'Blue Door Cafe',
      businessEmail: fields.businessEmail.toLowerCase(),
      businessWebsite: 'https://bluedoor.example',
      facebookURL: 'https://facebook.com/bluedoor',
      tiktokURL: 'https://tiktok.com/@bluedoor',
      instagramURL: '',
      businessFax: '',
      businessNameEmail: `Blue Door Cafe ${fields.businessEmail.toLowerCase()}`,
    })
    expect(row!.businessPassword).not.toContain('secret123')
    expect(await verifyPassword('secret123', row!.businessPassword)).toBe(true)
  })

  test('with JavaScript: the action answers success and the page shows the toast, then moves on', async () => {
    const fields = payload()
    const res = await postPage(fields, { js: true })
    expect(res.status).toBe(201)
    const body = (await res.json()) as PageResult
    expect(body.success).toEqual({
      title: 'Account Created',
      description: 'Your business account has been created. Please sign in.',
    })
    expect(await stored(fields.businessEmail)).toBeDefined()
  })

  test('/create-business-account is the same screen', async () => {
    expect((await callRoute(createBusinessAccountLoader, '/create-business-account')).status).toBe(200)
    const fields = payload()
    const res = await postPage(fields, { path: '/create-business-account' })
    expect(res.headers.get('Location')).toBe('/login')
    expect(await stored(fields.businessEmail)).toBeDefined()
  })

  test('field errors come back with the spec messages; the passwords are not sent back', async () => {
    const res = await postPage(
      payload({
        businessName: 'B',
        businessZip: '123',
        businessPassword: 'abcdef',
        verifyPassword: 'abcdeg',
      }),
    )
    expect(res.status).toBe(400)
    const body = (await res.json()) as PageResult
    expect(body.result.error).toMatchObject({
      businessName: ['Business name must be at least 2 characters'],
      businessZip: ['ZIP code must be at least 5 characters'],
      verifyPassword: ['Passwords do not match'],
    })
    expect(body.result.initialValue).toMatchObject({ businessCity: 'Springfield' })
    expect(body.result.initialValue).not.toHaveProperty('businessPassword')
    expect(body.result.initialValue).not.toHaveProperty('verifyPassword')
  })

  test('a duplicate email gets a clear field message (409), whatever its case', async () => {
    const existing = await insertBusiness(db)
    const res = await postPage(payload({ businessEmail: existing.businessEmail.toUpperCase() }))
    expect(res.status).toBe(409)
    const body = (await res.json()) as PageResult
    expect(body.result.error).toEqual({ businessEmail: ['An account with this email already exists'] })
  })

  test('the duplicate is reported together with other field errors', async () => {
    const existing = await insertBusiness(db)
    const res = await postPage(payload({ businessEmail: existing.businessEmail, businessCity: 'X' }))
    expect(res.status).toBe(400)
    const body = (await res.json()) as PageResult
    expect(body.result.error).toMatchObject({
      businessEmail: ['An account with this email already exists'],
      businessCity: ['City must be at least 2 characters'],
    })
  })

  test('signed in through the identity provider: the email is filled in, and the new business is linked', async () => {
    const user = await insertUser(db, { email: `linked-${Date.now()}@example.com` })
    const cookie = await sessionCookieFor({ user })
    const page = await callRoute(createAccountLoader, '/create-account', { headers: { Cookie: cookie } })
    expect(await page.json()).toMatchObject({ signedInEmail: user.email })

    const res = await postPage(payload({ businessEmail: user.email }), { cookie })
    expect(res.status).toBe(302)
    const row = await stored(user.email)
    const [linked] = await db.select().from(users).where(eq(users.id, user.id))
    expect(linked!.businessID).toBe(row!.businessID)

    // The session now holds the business too, under a new id; the old row is gone.
    const jar = new CookieJar(cookie)
    const oldSid = await sessionCookie.parse(cookie)
    jar.store(res)
    const newSid = await sessionCookie.parse(`__session=${jar.get('__session')}`)
    expect(newSid).not.toBe(oldSid)
    expect(await db.select().from(sessions).where(eq(sessions.sid, oldSid))).toEqual([])
    const [session] = await db.select().from(sessions).where(eq(sessions.sid, newSid))
    expect(session!.sess).toMatchObject({
      user: { id: user.id, email: user.email },
      business: { businessID: row!.businessID, businessName: 'Blue Door Cafe' },
    })
  })
})

describe('POST /api/business', () => {
  test('JSON: 201 with the created business, never the password', async () => {
    const fields = payload()
    const res = await postApi(fields)
    expect(res.status).toBe(201)
    const body = (await res.json()) as { message: string; business: Record<string, unknown> }
    expect(body.message).toBe('Business account created')
    expect(body.business).toMatchObject({
      businessName: 'Blue Door Cafe',
      businessEmail: fields.businessEmail.toLowerCase(),
      businessWebsite: 'https://bluedoor.example',
    })
    expect(Number.isInteger(body.business.businessID)).toBe(true)
    expect(body.business).not.toHaveProperty('businessPassword')
    expect(JSON.stringify(body)).not.toContain('secret123')
    expect(res.headers.get('Location')).toBe(`/api/business/${body.business.businessID}`)
  })

  test('form-encoded: the same', async () => {
    const fields = payload()
    const res = await postApi(new URLSearchParams(fields), 'application/x-www-form-urlencoded')
    expect(res.status).toBe(201)
    expect(await stored(fields.businessEmail)).toBeDefined()
  })

  test('JSON: 400 with {message, errors: {field: [messages]}}', async () => {
    const res = await postApi({
      ...payload(),
      businessPhone: '',
      verifyPassword: 'different1',
      xURL: 'x'.repeat(300),
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      message: 'Please correct the highlighted fields',
      errors: {
        businessPhone: ['Business phone is required'],
        verifyPassword: ['Passwords do not match'],
        xURL: ['X (Twitter) URL too long'],
      },
    })
  })

  test('form-encoded: 400 with the same field errors', async () => {
    const res = await postApi(
      new URLSearchParams({ ...payload(), businessEmail: 'not-an-email' }),
      'application/x-www-form-urlencoded',
    )
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({
      errors: { businessEmail: ['Please enter a valid email address'] },
    })
  })

  test('a duplicate email → 409', async () => {
    const existing = await insertBusiness(db)
    const res = await postApi(payload({ businessEmail: existing.businessEmail }))
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({
      message: 'An account with this email already exists',
      errors: { businessEmail: ['An account with this email already exists'] },
    })
  })

  test('a body that is neither JSON nor a form is refused with a message', async () => {
    const broken = await postApi('{not json', 'application/json')
    expect(broken.status).toBe(400)
    expect(await broken.json()).toMatchObject({ message: expect.stringMatching(/JSON/) })
    const text = await postApi('hello', 'text/plain')
    expect(text.status).toBe(415)
    expect(await text.json()).toEqual({ message: JSON_OR_FORM_CONTENT_TYPE_MESSAGE })
    const multipartWithoutBoundary = await postApi('a=1', 'multipart/form-data')
    expect(multipartWithoutBoundary.status).toBe(415)
    const array = await postApi([payload()])
    expect(array.status).toBe(400)
  })
})

test('two registrations racing for one email: the loser gets the duplicate answer, not a 500', async () => {
  const data = registrationSchema.parse(payload())
  const [first, second] = await Promise.allSettled([
    registerBusiness(data, { origin: 'http://localhost' }),
    registerBusiness(data, { origin: 'http://localhost' }),
  ])
  const outcomes = [first!, second!]
    .map((r) => (r.status === 'fulfilled' ? 'created' : (r.reason as AppError).kind))
    .sort()
  expect(outcomes).toEqual(['conflict', 'created'])
})

describe('when the database fails (spec §8 texts)', () => {
  test('unreachable → 503 "Database service temporarily unavailable. Please try again in a moment."', async () => {
    const unreachable = await openServerDatabase('postgres://nobody@127.0.0.1:1/none', {
      runMigrations: false,
    })
    const message = 'Database service temporarily unavailable. Please try again in a moment.'
    await withDatabase(unreachable, async () => {
      const page = await postPage(payload())
      expect(page.status).toBe(503)
      expect(((await page.json()) as PageResult).result.error).toMatchObject({ '': [message] })
      const api = await postApi(payload())
      expect(api.status).toBe(503)
      expect(await api.json()).toEqual({ message })
    })
  })

  test('too slow → "Request timed out. Please check your connection and try again."', async () => {
    // A server that accepts connections and never answers.
    const sockets = new Set<net.Socket>()
    const silent = net.createServer((socket) => sockets.add(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as net.AddressInfo
    const client = postgres(`postgres://nobody@127.0.0.1:${port}/none`, {
      connect_timeout: 1,
      onnotice: () => {},
    })
    const handle: DatabaseHandle = {
      db: drizzle(client, { schema }) as unknown as Database,
      kind: 'postgres',
      close: () => client.end({ timeout: 0 }),
    }
    const message = 'Request timed out. Please check your connection and try again.'
    try {
      await withDatabase(handle, async () => {
        const page = await postPage(payload())
        expect(page.status).toBe(504)
        expect(((await page.json()) as PageResult).result.error).toMatchObject({ '': [message] })
        const api = await postApi(payload())
        expect(api.status).toBe(504)
        expect(await api.json()).toEqual({ message })
      })
    } finally {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => silent.close(resolve))
    }
  })

  test('anything else → "Failed to create business account. Please try again."', async () => {
    // A real database error that is neither an outage nor a timeout: the table is missing.
    await db.execute(sql`alter table "business" rename to "business_away"`)
    const message = 'Failed to create business account. Please try again.'
    try {
      expectConsoleError(2)
      const page = await postPage(payload())
      expect(page.status).toBe(500)
      expect(((await page.json()) as PageResult).result.error).toMatchObject({ '': [message] })
      const api = await postApi(payload())
      expect(api.status).toBe(500)
      expect(await api.json()).toEqual({ message })
    } finally {
      await db.execute(sql`alter table "business_away" rename to "business"`)
    }
  })
})
