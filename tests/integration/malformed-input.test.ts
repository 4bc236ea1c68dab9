import { pathToFileURL } from 'node:url'
import { count } from 'drizzle-orm'
import fc from 'fast-check'
import { beforeAll, describe, expect, test } from 'vitest'
import { addDaysIso } from '#app/utils/time.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { business, clickCount, events, payments, ptdisease, users, type Business } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { BUILD_SERVER, BUILD_TIMEOUT_MS } from '#tests/support/built-app.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { startRunningServer } from '#tests/support/running-server.ts'

/**
 * Malformed input against the running server (every middleware, real sockets, this file's database). A 5xx, or an
 * error the server logs (console.error fails a test), fails.
 */

let base: string
let owner: Business
let eventID: number
const cookies: Record<'anonymous' | 'business' | 'admin' | 'clinician', string> = {
  anonymous: '',
  business: '',
  admin: '',
  clinician: '',
}

beforeAll(async () => {
  base = await startRunningServer()
  owner = await insertBusiness(db, { businessName: 'Hostile Input Cafe' })
  eventID = (await insertTestEvent(owner, { showAdOnDates: [addDaysIso(platformToday(), 1)] })).eventID
  await signInEveryone()
}, BUILD_TIMEOUT_MS)

/** Fresh sessions for each role (a generated post to POST /api/logout ends the one it was sent with). */
async function signInEveryone() {
  cookies.business = await sessionCookieFor({ business: owner })
  cookies.admin = await sessionCookieFor({ user: await insertUser(db, { roles: ['admin'] }) })
  cookies.clinician = await sessionCookieFor({ user: await insertUser(db, { roles: ['clinician'] }) })
}

/** Signed in, a request comes as the site's own pages send it (with Origin), so the cross-site guard lets it in. */
function call(path: string, init: RequestInit & { as?: keyof typeof cookies } = {}) {
  const { as = 'anonymous', ...rest } = init
  const headers = new Headers(rest.headers)
  if (cookies[as]) headers.set('Cookie', cookies[as])
  if (cookies[as] && rest.method && rest.method !== 'GET') headers.set('Origin', base)
  return fetch(new URL(path, base), { redirect: 'manual', ...rest, headers })
}

const postJson = (path: string, body: unknown, as: keyof typeof cookies = 'anonymous') =>
  call(path, {
    method: 'POST',
    as,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })

async function expectClientError(res: Response, message?: RegExp) {
  const text = await res.text()
  expect(res.status, text.slice(0, 300)).toBeGreaterThanOrEqual(400)
  expect(res.status, text.slice(0, 300)).toBeLessThan(500)
  expect(text).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/)
  if (message) expect(text).toMatch(message)
}

describe('a NUL character is a 400 with a clear message wherever text enters', () => {
  test.each([
    ['/calendar?keyword=a%00b', 'anonymous'],
    ['/calendar?zip=%00', 'anonymous'],
    ['/calendar?category=Music%00', 'anonymous'],
    ['/api/events?keyword=%00', 'anonymous'],
    ['/api/events/active?zip=1%002', 'anonymous'],
    ['/api/public-events?category=%00', 'anonymous'],
    ['/calendar.ics?keyword=%00', 'anonymous'],
    ['/calendar.rss?keyword=%00', 'anonymous'],
    ['/patient-diseases?search=%00', 'clinician'],
    ['/api/ptdisease?search=a%00', 'clinician'],
  ] as const)('GET %s', async (path, as) => {
    await expectClientError(await call(path, { as }), /NUL/)
  })

  test('in a JSON body: sign-in, registration, a patient record', async () => {
    await expectClientError(
      await postJson('/api/business/login', { email: 'a\0b@example.com', password: 'x' }),
      /NUL/,
    )
    await expectClientError(
      await postJson('/api/business', { businessName: 'Nul\0 Cafe', businessEmail: 'nul@example.com' }),
      /NUL/,
    )
    await expectClientError(await postJson('/api/ptdisease', { disease: 'flu\0' }, 'clinician'), /NUL/)
  })

  test.each(['eventTitle', 'eventDescription', 'contactPerson'])(
    'in a multipart JSON field: %s of an ad is a 400 naming it, and nothing is saved',
    async (field) => {
      const before = await rowCounts()
      const res = await postAd({ ...validAd(), [field]: 'Open\u0000 Mic' })
      expect(res.status).toBe(400)
      expect(((await res.json()) as { message: string }).message).toBe(
        `${field}: Text must not contain a NUL character (\\u0000).`,
      )
      expect(await rowCounts()).toEqual(before)
    },
  )

  test('in a form: the sign-in page and the registration page', async () => {
    const form = (fields: Record<string, string>) => new URLSearchParams(fields)
    await expectClientError(
      await call('/login', { method: 'POST', body: form({ email: 'a\0@example.com', password: 'x' }) }),
      /NUL/,
    )
    await expectClientError(
      await call('/create-account', { method: 'POST', body: form({ businessName: 'x\0' }) }),
      /NUL/,
    )
  })
})

/** An ad the approve call would save. */
function validAd(): Record<string, unknown> {
  return {
    eventTitle: 'Open Mic',
    eventDescription: 'Bring a song.',
    eventCategory: ['Concert'],
    contactPerson: 'Ann',
  }
}

/** The ad's fields as the browser sends them: JSON in the multipart fields eventData and selectedDates. */
function postAd(eventData: unknown, selectedDates: unknown = [addDaysIso(platformToday(), 2)]) {
  const body = new FormData()
  body.set('eventData', JSON.stringify(eventData))
  body.set('selectedDates', JSON.stringify(selectedDates))
  body.set('totalAmount', '19.00')
  return call('/api/approve-event', { method: 'POST', as: 'business', body })
}

describe('ids beyond int4 and dates beyond the calendar are 4xx', () => {
  test('eventID 4242424242424242 on approve-event, 2147483648 on create-event-payment', async () => {
    await expectClientError(await postJson('/api/approve-event', { eventID: 4242424242424242 }, 'business'))
    await expectClientError(
      await postJson(
        '/api/create-event-payment',
        { businessID: owner.businessID, eventID: 2147483648 },
        'business',
      ),
    )
    await expectClientError(
      await postJson('/api/admin/review-event', { eventID: 4242424242424242, action: 'approve' }, 'admin'),
    )
  })

  test('?date=9999-12-31 on /admin and /api/admin/pending-events', async () => {
    await expectClientError(await call('/admin?date=9999-12-31', { as: 'admin' }))
    await expectClientError(await call('/api/admin/pending-events?date=9999-12-31', { as: 'admin' }))
  })
})

test.each(['/%c0', '/%', '/api/media/%c0%ae', '/event/%E0%A4%A'])(
  'broken percent-encoding in the path (%s) is a 400 without a stack trace',
  async (path) => {
    await expectClientError(await call(path))
  },
)

test('every page action posted as text/plain, application/json or multipart without a boundary is refused, never a 5xx', async () => {
  const pages = (await routeTargets()).filter((path) => !path.startsWith('/api/'))
  expect(pages).toEqual(
    expect.arrayContaining(['/login', '/create-account', '/admin', '/checkout', '/patient-diseases']),
  )
  for (const path of pages) {
    for (const as of ['anonymous', 'business', 'admin', 'clinician'] as const) {
      for (const type of ['text/plain', 'application/json', 'multipart/form-data']) {
        const res = await call(path, {
          method: 'POST',
          as,
          headers: { 'Content-Type': type },
          body: 'intent=approve',
        })
        const text = await res.text()
        expect(res.status, `${as} ${type} ${path}: ${text.slice(0, 200)}`).toBeGreaterThanOrEqual(300)
        expect(res.status, `${as} ${type} ${path}`).toBeLessThan(500)
      }
    }
  }
}, 60_000)

test('every page action posted a field with an empty name and a long value answers 4xx or a redirect, never a 5xx', async () => {
  const pages = (await routeTargets()).filter((path) => !path.startsWith('/api/'))
  const failures: string[] = []
  for (const path of pages) {
    for (const as of ['anonymous', 'business', 'admin', 'clinician'] as const) {
      for (const intent of ['', 'approve', 'apply', 'create', 'save']) {
        const body = new URLSearchParams({ intent, '': 'x'.repeat(300) })
        const res = await call(path, { method: 'POST', as, body })
        const text = await res.text()
        if (res.status >= 500 || /\n\s+at .*\(.*:\d+:\d+\)/.test(text))
          failures.push(`${as} ${path} intent=${intent}: ${res.status} ${text.slice(0, 120)}`)
        // Nor is the long value sent back into the page.
        if (text.includes('x'.repeat(300))) failures.push(`${as} ${path} intent=${intent}: echoed`)
      }
    }
  }
  expect(failures).toEqual([])
}, 120_000)

/** Every /api/* route and every page with an action, as the built app declares them, with ids filled in. */
async function routeTargets() {
  const build = (await import(/* @vite-ignore */ pathToFileURL(BUILD_SERVER).href)) as {
    routes: Record<
      string,
      { path?: string; parentId?: string; module: { action?: unknown; loader?: unknown } }
    >
  }
  const fullPath = (id: string): string => {
    const route = build.routes[id]!
    const parent = route.parentId && route.parentId !== 'root' ? fullPath(route.parentId) : ''
    return [parent, route.path ?? ''].filter(Boolean).join('/')
  }
  const targets = new Set<string>()
  for (const [id, route] of Object.entries(build.routes)) {
    if (id === 'root') continue
    const path = `/${fullPath(id)}`
    const isApi = path.startsWith('/api/')
    if (!route.module.action && !(isApi && route.module.loader)) continue
    targets.add(path.replace(/:[^/]+/g, String(eventID)).replace(/\/\*$/, '/anything'))
  }
  return [...targets].sort()
}

const domainTables = { business, users, events, payments, ptdisease, clickCount }

async function rowCounts() {
  const counts: Record<string, number> = {}
  for (const [name, table] of Object.entries(domainTables)) {
    const [row] = await db.select({ n: count() }).from(table)
    counts[name] = row!.n
  }
  return counts
}

const FIELD_NAMES = [
  'email',
  'password',
  'eventID',
  'businessID',
  'paymentIntentId',
  'totalAmount',
  'action',
  'reason',
  'intent',
  'id',
  'date',
  'redirectTo',
  'businessName',
  'businessEmail',
  'businessPassword',
  'verifyPassword',
  'eventTitle',
  'eventDescription',
  'showAdDates',
  'selectedDates',
  'eventData',
  'category',
  'patientnumber',
  'disease',
]

const hostileValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ maxLength: 20 }).map((s) => `${s}\0${s}`),
  fc.constantFrom(
    4242424242424242,
    2147483648,
    -1,
    0,
    1.5,
    Number.MAX_SAFE_INTEGER,
    '9999-12-31',
    '',
    '%',
    '\0',
  ),
  fc.integer(),
  fc.constantFrom(null, true, [], {}, ['9999-12-31'], [null], { nested: '\0' }),
)

const hostileBody = fc.dictionary(fc.constantFrom(...FIELD_NAMES), hostileValue, { maxKeys: 8 })

function encode(fields: Record<string, unknown>, contentType: string | undefined, raw: string | null) {
  if (raw !== null) return raw
  if (contentType?.startsWith('application/x-www-form-urlencoded')) {
    return new URLSearchParams(
      Object.entries(fields).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    ).toString()
  }
  if (contentType?.includes('boundary=XyZ')) {
    const parts = Object.entries(fields).map(
      ([k, v]) =>
        `--XyZ\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${typeof v === 'string' ? v : JSON.stringify(v)}\r\n`,
    )
    return `${parts.join('')}--XyZ--\r\n`
  }
  return JSON.stringify(fields)
}

test('property: generated malformed input to every /api/* endpoint and page action gets no 5xx and writes nothing when refused', async () => {
  const targets = await routeTargets()
  expect(targets).toEqual(
    expect.arrayContaining(['/api/business/login', '/api/ptdisease', '/login', '/admin']),
  )
  let runs = 0
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        path: fc.constantFrom(...targets),
        as: fc.constantFrom('anonymous', 'business', 'admin', 'clinician' as const),
        method: fc.constantFrom('POST', 'POST', 'PUT', 'PATCH', 'DELETE'),
        contentType: fc.constantFrom(
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data',
          'multipart/form-data; boundary=XyZ',
          undefined,
        ),
        fields: hostileBody,
        raw: fc.option(
          fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('{', '[]', 'null', '{"a":"\\u0000"}')),
          {
            freq: 4,
          },
        ),
        query: fc.option(fc.string({ maxLength: 20 }), { freq: 3 }),
      }),
      async ({ path, as, method, contentType, fields, raw, query }) => {
        runs++
        const before = await rowCounts()
        const headers: Record<string, string> = {}
        if (contentType) headers['Content-Type'] = contentType
        const url =
          query === null ? path : `${path}?q=${encodeURIComponent(query)}&date=${encodeURIComponent(query)}`
        const res = await call(url, { method, as, headers, body: encode(fields, contentType, raw) })
        const text = await res.text()
        expect(res.status, `${method} ${url} ${contentType} → ${text.slice(0, 200)}`).toBeLessThan(500)
        if (res.status >= 400) expect(await rowCounts(), `${method} ${url} wrote rows`).toEqual(before)
      },
    ),
    { seed: 20261123, numRuns: 400, interruptAfterTimeLimit: 30_000, markInterruptAsFailure: false },
  )
  expect(runs).toBeGreaterThan(50)
}, 60_000)

/** The field an answer names for a path into the JSON: list items are their list ('' = the value itself). */
const fieldOf = (path: string[]) => path.filter((key) => !/^\d+$/.test(key)).join('.')

/** A JSON value with a NUL put into one of its texts, and where (the field path the answer names). */
function withNul(value: unknown, path: string[] = []): fc.Arbitrary<{ value: unknown; field: string }> {
  if (typeof value === 'string') {
    return fc
      .nat({ max: value.length })
      .map((at) => ({ value: `${value.slice(0, at)}\0${value.slice(at)}`, field: fieldOf(path) }))
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(
    ([, item]) => typeof item === 'string' || (typeof item === 'object' && item !== null),
  )
  return fc.constantFrom(...entries).chain(([key, item]) =>
    withNul(item, [...path, key]).map(({ value: changed, field }) => ({
      value: Array.isArray(value)
        ? value.map((v, i) => (String(i) === key ? changed : v))
        : { ...(value as object), [key]: changed },
      field,
    })),
  )
}

test('property: a NUL in any text of the multipart JSON fields of an ad is a 400 naming the field, never a 5xx', async () => {
  await signInEveryone()
  const dates = [addDaysIso(platformToday(), 2), addDaysIso(platformToday(), 3)]
  const ad = { ...validAd(), showAdDates: dates, contactEmail: 'ann@example.com', contactPhone: '2175550100' }
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        withNul(ad).map(({ value, field }) => ({ eventData: value, selectedDates: dates, field })),
        withNul(dates).map(({ value }) => ({ eventData: ad, selectedDates: value, field: 'selectedDates' })),
      ),
      async ({ eventData, selectedDates, field }) => {
        const before = await rowCounts()
        const res = await postAd(eventData, selectedDates)
        const text = await res.text()
        expect(res.status, text).toBe(400)
        expect(JSON.parse(text)).toEqual({ message: expect.stringMatching(new RegExp(`^${field}: .*NUL`)) })
        expect(await rowCounts()).toEqual(before)
      },
    ),
    { seed: 20261125, numRuns: 60 },
  )
}, 60_000)
