import { beforeAll, expect, test } from 'vitest'
import { loader } from '#app/routes/admin_.subscriptions.tsx'
import { runSubscriberJob } from '#app/services/subscriptions/subscriber-jobs.server.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { subscriptions } from '#db/schema.ts'
import { EMPTY_CALENDAR_FILTERS } from '#app/models/calendar/calendar-filters.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { insertBusiness } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'

let adminCookie: string
let clinicianCookie: string
let businessCookie: string

beforeAll(async () => {
  adminCookie = await sessionCookieFor({ user: await insertUser(db, { roles: ['admin'] }) })
  clinicianCookie = await sessionCookieFor({ user: await insertUser(db, { roles: ['clinician'] }) })
  businessCookie = await sessionCookieFor({ business: await insertBusiness(db) })
  const row = (email: string, frequency: string, confirmed: boolean) => ({
    email,
    kind: 'search',
    frequency,
    filters: EMPTY_CALENDAR_FILTERS,
    filterKey: `search:${email}`,
    confirmedAt: confirmed ? new Date() : null,
    coveredUntil: new Date(),
  })
  await db
    .insert(subscriptions)
    .values([
      row('a@private.example', 'weekly', true),
      row('b@private.example', 'weekly', true),
      row('c@private.example', 'daily', true),
      row('d@private.example', 'daily', false),
    ])
})

test('administrators see counts by frequency and the last digest run, never an address', async () => {
  const before = await callRoute(loader, '/admin/subscriptions', { headers: { Cookie: adminCookie } })
  expect(before.status).toBe(200)
  expect(await before.json()).toMatchObject({ counts: { weekly: 2, daily: 1, once: 0 }, lastDigestRun: null })
  await runSubscriberJob('digests', { force: true })
  const after = await callRoute(loader, '/admin/subscriptions', { headers: { Cookie: adminCookie } })
  const body = (await after.json()) as {
    lastDigestRun: { queued: number; checked: number; durationMs: number }
  }
  expect(body.lastDigestRun).toMatchObject({ queued: 0, checked: 3 })
  expect(body.lastDigestRun.durationMs).toBeGreaterThanOrEqual(0)
  expect(JSON.stringify(body)).not.toContain('private.example')
})

test('signed out → sign-in; an advertiser or a clinician → 403', async () => {
  const signedOut = await callRoute(loader, '/admin/subscriptions')
  expect(signedOut.status).toBe(302)
  expect(signedOut.headers.get('Location')).toMatch(/^\/api\/login\?redirectTo=%2Fadmin%2Fsubscriptions/)
  for (const cookie of [businessCookie, clinicianCookie]) {
    const refused = await callRoute(loader, '/admin/subscriptions', { headers: { Cookie: cookie } })
    expect(refused.status).toBe(403)
  }
})
