import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { loader as auditPageLoader } from '#app/routes/admin_.audit.tsx'
import { loader as auditCsvLoader } from '#app/routes/admin_.audit[.]csv.ts'
import { action as adminEventAction, loader as adminEventLoader } from '#app/routes/admin_.events.$id.tsx'
import { action as reportsAction, loader as reportsLoader } from '#app/routes/admin_.reports.tsx'
import { action as bulkApproveAction, loader as bulkApproveLoader } from '#app/routes/admin_.bulk-approve.tsx'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { events, type Event } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { insertBusiness } from '#tests/support/events.ts'
import { paidAdAwaitingReview } from '#tests/support/moderation.ts'
import { callRoute } from '#tests/support/routes.ts'

type Handler = Parameters<typeof callRoute>[0]

let event: Event
let advertiserCookie: string
let clinicianCookie: string

beforeAll(async () => {
  const owner = await insertBusiness(db)
  event = await paidAdAwaitingReview(owner)
  // The ad's own advertiser: owning the ad gives no way into its moderation.
  advertiserCookie = await sessionCookieFor({ business: owner })
  clinicianCookie = await sessionCookieFor({ user: await insertUser(db, { roles: ['clinician'] }) })
})

/** Every administrators' route and action of moderation: [name, handler, path, method, params]. */
function adminRoutes(): Array<[string, Handler, string, 'GET' | 'POST', Record<string, string>]> {
  const id = String(event.eventID)
  return [
    ['the audit page', auditPageLoader, '/admin/audit', 'GET', {}],
    [
      'the audit page, filtered',
      auditPageLoader,
      '/admin/audit?from=2026-01-01&to=2026-01-31&decision=approve&page=2',
      'GET',
      {},
    ],
    ['the audit page, bad filters', auditPageLoader, '/admin/audit?from=9999-12-31&to=9999-12-31', 'GET', {}],
    ['the audit CSV', auditCsvLoader, '/admin/audit.csv?from=2026-01-01&to=2026-01-31', 'GET', {}],
    ["an ad's admin page", adminEventLoader, `/admin/events/${id}`, 'GET', { id }],
    ['bulk approval (page)', bulkApproveLoader, '/admin/bulk-approve', 'GET', {}],
    ['bulk approval', bulkApproveAction, '/admin/bulk-approve', 'POST', {}],
    ['granting trust', adminEventAction, `/admin/events/${id}`, 'POST', { id }],
    ['the reports page', reportsLoader, '/admin/reports', 'GET', {}],
    ['dismissing reports', reportsAction, '/admin/reports?intent=dismiss', 'POST', {}],
  ]
}

function call(
  handler: Handler,
  path: string,
  method: string,
  params: Record<string, string>,
  cookie?: string,
) {
  return callRoute(handler, path, {
    method,
    params,
    ...(method === 'POST' ? { body: new URLSearchParams({ eventID: String(event.eventID) }) } : {}),
    headers: {
      ...(cookie ? { Cookie: cookie } : {}),
      ...(method === 'POST' ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
    },
  })
}

describe('moderation is for administrators only', () => {
  test('an anonymous visitor is sent to the staff sign-in', async () => {
    for (const [name, handler, path, method, params] of adminRoutes()) {
      const res = await call(handler, path, method, params)
      expect(res.status, name).toBe(302)
      expect(res.headers.get('Location'), name).toMatch(/^\/api\/login/)
    }
  })

  test('an advertiser (even the ad’s own) gets 403', async () => {
    for (const [name, handler, path, method, params] of adminRoutes()) {
      expect((await call(handler, path, method, params, advertiserCookie)).status, name).toBe(403)
    }
    // Nothing a refused caller sent was decided.
    const [after] = await db.select().from(events).where(eq(events.eventID, event.eventID))
    expect(after!.eventStatus).toBe('pending')
  })

  test('a clinician gets 403', async () => {
    for (const [name, handler, path, method, params] of adminRoutes()) {
      expect((await call(handler, path, method, params, clinicianCookie)).status, name).toBe(403)
    }
  })
})
