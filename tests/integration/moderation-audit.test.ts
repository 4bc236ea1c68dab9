import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { action as adminAction } from '#app/routes/admin.tsx'
import { loader as auditCsvLoader } from '#app/routes/admin_.audit[.]csv.ts'
import { loader as adminEventLoader } from '#app/routes/admin_.events.$id.tsx'
import { recordModerationDecision } from '#app/models/moderation/moderation-audit.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import type { Business, User } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { insertBusiness } from '#tests/support/events.ts'
import { auditRowsOf, paidAdAwaitingReview, postForm } from '#tests/support/moderation.ts'
import { callRoute } from '#tests/support/routes.ts'

const today = platformToday()
let owner: Business
let admin: User
let adminCookie: string

beforeAll(async () => {
  owner = await insertBusiness(db, { businessName: 'Audited Ads Ltd' })
  admin = await insertUser(db, { roles: ['admin'] })
  adminCookie = await sessionCookieFor({ user: admin })
})

const decide = (eventID: number, intent: string, reason = '') =>
  postForm(adminAction, '/admin', { intent, eventID: String(eventID), reason }, { cookie: adminCookie })

describe('every review decision enters the trail with who, when, what and why', () => {
  test('approve, request changes and reject (with its refund)', async () => {
    const approved = await paidAdAwaitingReview(owner)
    const sentBack = await paidAdAwaitingReview(owner)
    const rejected = await paidAdAwaitingReview(owner)
    expect((await decide(approved.eventID, 'approve')).status).toBe(302)
    expect((await decide(sentBack.eventID, 'request_changes', 'Add the start time')).status).toBe(302)
    expect((await decide(rejected.eventID, 'reject', 'Misleading =cmd|"/c calc"')).status).toBe(302)

    const who = {
      actorUserId: admin.id,
      actorEmail: admin.email,
      businessID: owner.businessID,
      revision: false,
    }
    expect(await auditRowsOf(approved.eventID)).toEqual([
      expect.objectContaining({ ...who, action: 'approve', reason: '', occurredAt: expect.any(Date) }),
    ])
    expect(await auditRowsOf(sentBack.eventID)).toEqual([
      expect.objectContaining({ ...who, action: 'request_changes', reason: 'Add the start time' }),
    ])
    expect(await auditRowsOf(rejected.eventID)).toEqual([
      expect.objectContaining({ ...who, action: 'reject', reason: 'Misleading =cmd|"/c calc"' }),
    ])
  })

  test('a decision that cannot apply (already decided) adds nothing', async () => {
    const event = await paidAdAwaitingReview(owner)
    await decide(event.eventID, 'approve')
    await decide(event.eventID, 'approve')
    await decide(event.eventID, 'reject', 'Too late')
    expect((await auditRowsOf(event.eventID)).map((r) => r.action)).toEqual(['approve'])
  })
})

test('the trail is append-only: UPDATE and DELETE fail, on every row', async () => {
  const event = await paidAdAwaitingReview(owner)
  await decide(event.eventID, 'approve')
  await expect(db.execute(sql`UPDATE moderation_audit SET reason = 'rewritten'`)).rejects.toThrow()
  await expect(db.execute(sql`DELETE FROM moderation_audit`)).rejects.toThrow()
  await expect(
    db.execute(sql`UPDATE moderation_audit SET "actorEmail" = '' WHERE "eventID" = ${event.eventID}`),
  ).rejects.toThrow()
  expect(await auditRowsOf(event.eventID)).toHaveLength(1)
})

describe("the ad's admin page", () => {
  test('shows the ad and its decisions, newest first', async () => {
    const event = await paidAdAwaitingReview(owner, { eventTitle: 'Trail Ad' })
    await decide(event.eventID, 'request_changes', 'Blurry photo')
    const res = await callRoute(adminEventLoader, `/admin/events/${event.eventID}`, {
      params: { id: String(event.eventID) },
      headers: { Cookie: adminCookie },
    })
    expect(res.status).toBe(200)
    const page = (await res.json()) as {
      event: { eventTitle: string }
      trail: Array<Record<string, unknown>>
    }
    expect(page.event.eventTitle).toBe('Trail Ad')
    expect(page.trail).toEqual([
      expect.objectContaining({ who: admin.email, what: 'Changes requested', reason: 'Blurry photo' }),
    ])
  })

  test('404 for an unknown, negative, huge or non-numeric id', async () => {
    for (const id of ['999999999', '-1', '99999999999999999999', 'abc', '1;drop']) {
      const res = await callRoute(adminEventLoader, `/admin/events/${id}`, {
        params: { id },
        headers: { Cookie: adminCookie },
      })
      expect(res.status).toBe(404)
    }
  })
})

describe('GET /admin/audit.csv', () => {
  const csv = (query: string) =>
    callRoute(auditCsvLoader, `/admin/audit.csv${query}`, { headers: { Cookie: adminCookie } })

  test('the decisions of the range as CSV, free text kept as text (no spreadsheet formulas)', async () => {
    const event = await paidAdAwaitingReview(owner)
    await decide(event.eventID, 'reject', '=HYPERLINK("http://x"), "quoted"')
    const res = await csv(`?from=${today}&to=${today}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
    expect(res.headers.get('Content-Disposition')).toBe(
      `attachment; filename="moderation-${today}-${today}.csv"`,
    )
    const text = await res.text()
    const [header, ...lines] = text.trimEnd().split('\r\n')
    expect(header).toBe('occurred_at,actor,action,event_id,business_id,revision,reason')
    const line = lines.find((l) => l.includes(`,reject,${event.eventID},`))
    expect(line).toContain(`${admin.email},reject,${event.eventID},${owner.businessID},no,`)
    expect(line).toContain(`"'=HYPERLINK(""http://x""), ""quoted"""`)
  })

  test('a range without the decision leaves it out', async () => {
    const event = await paidAdAwaitingReview(owner)
    await decide(event.eventID, 'approve')
    const yesterday = addDaysIso(today, -1)
    const text = await (await csv(`?from=${addDaysIso(today, -5)}&to=${yesterday}`)).text()
    expect(text).not.toContain(`,approve,${event.eventID},`)
  })

  test('400 naming the problem for a missing, bad, reversed or too long range', async () => {
    for (const [query, message] of [
      ['', /from: a date/],
      [`?from=${today}`, /to: a date/],
      ['?from=2026-13-45&to=2026-01-01', /from: "2026-13-45" is not a valid date/],
      ['?from=2026-02-01&to=2026-01-01', /ends before it starts/],
      ['?from=2020-01-01&to=2026-01-01', /longer than 366 days/],
      [`?from=${'9'.repeat(5000)}&to=2026-01-01`, /not a valid date/],
    ] as const) {
      const res = await csv(query)
      expect(res.status).toBe(400)
      expect(((await res.json()) as { message: string }).message).toMatch(message)
    }
  })
})

test('the model records the platform’s own decisions without an actor', async () => {
  const event = await paidAdAwaitingReview(owner)
  await db.transaction((tx) =>
    recordModerationDecision(tx, {
      action: 'auto_approve',
      eventID: event.eventID,
      businessID: owner.businessID,
    }),
  )
  expect(await auditRowsOf(event.eventID)).toEqual([
    expect.objectContaining({ action: 'auto_approve', actorUserId: null, actorEmail: '' }),
  ])
})
