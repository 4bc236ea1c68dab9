import { and, eq, inArray } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { SIGNUP_FORM_MAX_AGE_MS } from '#app/constants.ts'
import { getLiveEventsPage } from '#app/models/calendar/cached-listing.server.ts'
import { EMPTY_CALENDAR_FILTERS } from '#app/models/calendar/calendar-filters.ts'
import * as adminReportsRoute from '#app/routes/admin_.reports.tsx'
import * as reportRoute from '#app/routes/event.$id_.report.tsx'
import { formStamp } from '#app/services/moderation/robot-guard.server.ts'
import { purgeExpiredSignIns } from '#app/services/operations/cleanup.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { usedFormStampKey } from '#app/services/platform/rate-limit.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { adReports, authAttempts, events, outbox, type Business, type Event, type User } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { toastOf } from '#tests/support/cookie-jar.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { auditRowsOf, paidAdAwaitingReview, postForm } from '#tests/support/moderation.ts'
import { browse, shownAfter, textOf, type PageAnswer } from '#tests/support/document-request.ts'
import { callRoute } from '#tests/support/routes.ts'

const today = platformToday()
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36'
let owner: Business
let admin: User
let adminCookie: string
let visitorCounter = 0

beforeAll(async () => {
  owner = await insertBusiness(db, { businessName: 'Reported Venue' })
  admin = await insertUser(db, { roles: ['admin'] })
  adminCookie = await sessionCookieFor({ user: admin })
})

const liveAd = (title = 'Reported Night') =>
  insertTestEvent(owner, { eventTitle: title, showAdOnDates: [addDaysIso(today, 1), addDaysIso(today, 2)] })

/** A visitor's address of their own (the server vouches for it in X-Forwarded-For). */
const newVisitor = () => `198.51.100.${++visitorCounter % 250}`

function report(
  event: Pick<Event, 'eventID'>,
  fields: Record<string, string> = { reason: 'misleading' },
  { ip = newVisitor(), userAgent = BROWSER, stamp = formStamp(Date.now() - 60_000) } = {},
) {
  const id = String(event.eventID)
  return callRoute(reportRoute.action, `/event/${id}/report`, {
    method: 'POST',
    params: { id },
    body: new URLSearchParams({ formStartedAt: stamp, ...fields }),
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      'X-Forwarded-For': ip,
      'User-Agent': userAgent,
    },
  })
}

type ReportAnswer = {
  result: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> } | null
  thanks: string | null
}
const answer = async (res: Response) => (await res.json()) as ReportAnswer

const REPORT_PAGE = [{ path: '/event/:id/report', ...reportRoute }]
const THANKS = 'Thank you. An administrator will look at your report.'
const REPEAT = 'You have already reported this ad; an administrator will look at it.'

/**
 * A visitor's report sent without JavaScript (a plain form post), and every page the browser then shows: the post's
 * answer and the redirects it follows.
 */
function reportWithoutJs(
  event: Pick<Event, 'eventID'>,
  fields: Record<string, string> = { reason: 'misleading' },
  { ip = newVisitor(), stamp = formStamp(Date.now() - 60_000) } = {},
) {
  const id = String(event.eventID)
  return browse(REPORT_PAGE, `/event/${id}/report`, {
    method: 'POST',
    body: new URLSearchParams({ formStartedAt: stamp, ...fields }),
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      'X-Forwarded-For': ip,
      'User-Agent': BROWSER,
    },
  })
}

/** What the browser shows in the end after {@link reportWithoutJs}. */
const shownAfterReport = async (...args: Parameters<typeof reportWithoutJs>) =>
  (await reportWithoutJs(...args)).at(-1)!

/** The thanks a page shows (from the post's own answer, or from the page a redirect led to). */
const thanksOn = (page: PageAnswer) =>
  (page.actionData as ReportAnswer | null)?.thanks ?? (page.loaderData as ReportAnswer | null)?.thanks ?? null

const shownIDs = async () =>
  (await getLiveEventsPage(EMPTY_CALENDAR_FILTERS, { today, limit: 100 })).map((e) => e.eventID)
const statusOf = async (eventID: number) =>
  (await db.select().from(events).where(eq(events.eventID, eventID)))[0]!.eventStatus
const mailsOf = (kind: string) =>
  db
    .select()
    .from(outbox)
    .where(and(eq(outbox.kind, kind), eq(outbox.toAddress, owner.businessEmail)))

describe('visitors report an ad', () => {
  test('the form page is there for a live ad only (404 otherwise)', async () => {
    const ad = await liveAd()
    const page = await callRoute(reportRoute.loader, `/event/${ad.eventID}/report`, {
      params: { id: String(ad.eventID) },
    })
    expect(page.status).toBe(200)
    expect(await page.json()).toMatchObject({ eventID: ad.eventID, eventTitle: 'Reported Night' })
    const pending = await paidAdAwaitingReview(owner)
    for (const id of [String(pending.eventID), '999999999', 'abc', '-3']) {
      const res = await callRoute(reportRoute.loader, `/event/${id}/report`, { params: { id } })
      expect(res.status).toBe(404)
    }
    expect((await report(pending)).status).toBe(404)
  })

  test('K−1 distinct visitors leave the ad shown; the K-th hides it at once and tells the advertiser', async () => {
    const ad = await liveAd('Three Strikes Show')
    expect(await shownIDs()).toContain(ad.eventID)
    const first = newVisitor()
    const filed = await shownAfterReport(
      ad,
      { reason: 'spam', details: 'Same ad posted <b>ten</b> times' },
      { ip: first },
    )
    expect(filed.status).toBe(200)
    expect(thanksOn(filed)).toBe(THANKS)
    // The same visitor again counts once.
    expect(thanksOn(await shownAfterReport(ad, { reason: 'offensive' }, { ip: first }))).toBe(REPEAT)
    expect(thanksOn(await shownAfterReport(ad, { reason: 'misleading' }))).toBe(THANKS)
    expect(await statusOf(ad.eventID)).toBe('approved')
    expect(await shownIDs()).toContain(ad.eventID)

    expect(thanksOn(await shownAfterReport(ad, { reason: 'wrong_date_or_place' }))).toBe(THANKS)
    expect(await statusOf(ad.eventID)).toBe('reported_hidden')
    // The cached public listing forgot the ad at once (the same announcement an approval makes).
    expect(await shownIDs()).not.toContain(ad.eventID)
    const [hiddenMail] = await mailsOf('ad-hidden')
    expect(hiddenMail!.subject).toBe('Your ad is hidden while we review reports: Three Strikes Show')
    // No address is stored, only the keyed hash.
    const rows = await db.select().from(adReports).where(eq(adReports.eventID, ad.eventID))
    expect(rows).toHaveLength(3)
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.reporterKey) && !r.reporterKey.includes(first))).toBe(
      true,
    )
  })

  test('the visitor whose report hides the ad reads the same thanks as the others, without JavaScript', async () => {
    const ad = await liveAd('Hidden By The Third')
    for (const visitor of [1, 2, 3]) {
      const shown = await shownAfterReport(ad, { reason: 'spam', details: `visitor ${visitor}` })
      expect(shown.status, `what visitor ${visitor} is shown`).toBe(200)
      expect(shown.error).toBeNull()
      expect(thanksOn(shown)).toBe(THANKS)
      expect(textOf(shown.html)).toContain(THANKS)
    }
    expect(await statusOf(ad.eventID)).toBe('reported_hidden')
    expect(await db.select().from(adReports).where(eq(adReports.eventID, ad.eventID))).toHaveLength(3)
  })

  test('a report of an ad already hidden by reports is counted quietly; its advertiser is told once', async () => {
    const ad = await liveAd('Already Hidden Show')
    for (let i = 0; i < 3; i++) await reportWithoutJs(ad)
    expect(await statusOf(ad.eventID)).toBe('reported_hidden')
    const fourth = await shownAfterReport(ad, { reason: 'offensive' })
    expect(fourth.status).toBe(200)
    expect(thanksOn(fourth)).toBe(THANKS)
    const ip = newVisitor()
    await reportWithoutJs(ad, undefined, { ip })
    expect(thanksOn(await shownAfterReport(ad, undefined, { ip }))).toBe(REPEAT)
    expect(await db.select().from(adReports).where(eq(adReports.eventID, ad.eventID))).toHaveLength(5)
    expect(await statusOf(ad.eventID)).toBe('reported_hidden')
    expect(
      (await mailsOf('ad-hidden')).filter((m) => m.subject.endsWith('Already Hidden Show')),
    ).toHaveLength(1)
  })

  test('an ad taken down, never shown or unknown cannot be reported (404), and nothing is recorded', async () => {
    const takenDown = await liveAd('Gone For Good')
    await db.update(events).set({ eventStatus: 'taken_down' }).where(eq(events.eventID, takenDown.eventID))
    const pending = await paidAdAwaitingReview(owner)
    for (const ad of [takenDown, pending, { eventID: 999999999 }]) {
      expect((await report(ad)).status).toBe(404)
      expect((await shownAfterReport(ad)).status).toBe(404)
    }
    const recorded = await db
      .select()
      .from(adReports)
      .where(inArray(adReports.eventID, [takenDown.eventID, pending.eventID]))
    expect(recorded).toEqual([])
  })

  test('a form stamp is good for one report: posted again it is refused like a robot, and counts once', async () => {
    const ad = await liveAd()
    const other = await liveAd()
    const stamp = formStamp(Date.now() - 60_000)
    expect(thanksOn(await shownAfterReport(ad, undefined, { stamp }))).toBe(THANKS)
    for (const target of [ad, other]) {
      const again = await report(target, { reason: 'spam' }, { stamp })
      expect(again.status).toBe(400)
      const refused = await answer(again)
      expect(refused.result?.error?.['']).toEqual(['Your submission could not be processed.'])
      // The form drawn again carries a fresh stamp, not the used one.
      expect(refused.result?.initialValue?.formStartedAt).toBeUndefined()
    }
    // Two servers taking the same stamp at once: one report goes through.
    const raced = formStamp(Date.now() - 60_000)
    const statuses = await Promise.all([
      report(other, undefined, { stamp: raced }),
      report(other, undefined, { stamp: raced }),
    ])
    expect(statuses.map((res) => res.status).sort()).toEqual([302, 400])
    expect(await db.select().from(adReports).where(eq(adReports.eventID, ad.eventID))).toHaveLength(1)
    expect(await db.select().from(adReports).where(eq(adReports.eventID, other.eventID))).toHaveLength(1)
  })

  test('a used stamp is remembered while it could be posted, and the hourly purge forgets it after', async () => {
    const ad = await liveAd()
    const stamp = formStamp(Date.now() - 60_000)
    expect(thanksOn(await shownAfterReport(ad, undefined, { stamp }))).toBe(THANKS)
    const key = usedFormStampKey(stamp)
    const usedAgo = async (ms: number) => {
      await db
        .update(authAttempts)
        .set({ windowStartedAt: new Date(Date.now() - ms) })
        .where(eq(authAttempts.key, key))
      await purgeExpiredSignIns()
      return (await db.select().from(authAttempts).where(eq(authAttempts.key, key))).length
    }
    // Past the sign-in window, but the stamp could still be posted: kept.
    expect(await usedAgo(60 * 60 * 1000)).toBe(1)
    expect(await usedAgo(SIGNUP_FORM_MAX_AGE_MS + 60_000)).toBe(0)
  })

  test('robots are refused without being told why: a bot, a filled honeypot, a quick or tampered form', async () => {
    const ad = await liveAd()
    const refusals = [
      await report(ad, undefined, { userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)' }),
      await report(ad, { reason: 'spam', nickname: 'x' }),
      await report(ad, undefined, { stamp: formStamp() }),
      await report(ad, undefined, { stamp: '1.forged' }),
      await report(ad, undefined, { stamp: '' }),
    ]
    for (const res of refusals) {
      expect(res.status).toBe(400)
      expect((await answer(res)).result?.error?.['']).toEqual(['Your submission could not be processed.'])
    }
    expect(await db.select().from(adReports).where(eq(adReports.eventID, ad.eventID))).toEqual([])
  })

  test('a missing or unknown reason and over-long details are 400 with the field’s message', async () => {
    const ad = await liveAd()
    const missing = await answer(await report(ad, {}))
    expect(missing.result?.error?.reason).toEqual(['Choose why you are reporting this ad.'])
    expect((await report(ad, { reason: 'boring' })).status).toBe(400)
    const long = await report(ad, { reason: 'other', details: 'x'.repeat(1001) })
    expect(long.status).toBe(400)
    expect((await answer(long)).result?.error?.details).toEqual(['Keep the details under 1000 characters.'])
  })

  test('an address filing report after report is stopped with 429 after 10', async () => {
    const ip = '192.0.2.77'
    const ads = await Promise.all(Array.from({ length: 11 }, () => liveAd()))
    for (const ad of ads.slice(0, 10)) expect((await report(ad, undefined, { ip })).status).toBe(302)
    const stopped = await report(ads[10]!, undefined, { ip })
    expect(stopped.status).toBe(429)
    expect(stopped.headers.get('Retry-After')).toMatch(/^\d+$/)
  })
})

describe('/admin/reports', () => {
  async function hiddenAd(title: string) {
    const ad = await liveAd(title)
    for (let i = 0; i < 3; i++) await report(ad, { reason: 'offensive', details: `visitor ${i}` })
    expect(await statusOf(ad.eventID)).toBe('reported_hidden')
    return ad
  }

  const decide = (fields: Record<string, string>) =>
    postForm(adminReportsRoute.action, '/admin/reports', fields, { cookie: adminCookie })

  test('lists the reported ads grouped by ad, with each report', async () => {
    const ad = await hiddenAd('Listed Ad')
    const res = await callRoute(adminReportsRoute.loader, '/admin/reports', {
      headers: { Cookie: adminCookie },
    })
    const page = (await res.json()) as {
      ads: Array<{ eventID: number; hidden: boolean; reports: unknown[] }>
    }
    const listed = page.ads.find((a) => a.eventID === ad.eventID)
    expect(listed).toMatchObject({ hidden: true })
    expect(listed!.reports).toHaveLength(3)
    expect(listed!.reports[0]).toMatchObject({
      reason: 'Offensive',
      details: expect.stringMatching(/visitor/),
    })
  })

  test('dismiss: the ad returns to the public pages, the advertiser is told, the trail records it', async () => {
    const ad = await hiddenAd('Comeback Gig')
    const res = await decide({ intent: 'dismiss', eventID: String(ad.eventID) })
    expect(res.status).toBe(302)
    expect(await toastOf(res)).toMatchObject({ title: 'Reports dismissed' })
    expect(await statusOf(ad.eventID)).toBe('approved')
    expect(await shownIDs()).toContain(ad.eventID)
    const mails = await mailsOf('ad-restored')
    expect(mails.map((m) => m.subject)).toContain('Your ad is shown again: Comeback Gig')
    expect((await auditRowsOf(ad.eventID)).map((r) => [r.action, r.actorUserId, r.reason])).toEqual([
      ['reports_dismissed', admin.id, '3 reports dismissed'],
    ])
    // Nothing left to dismiss.
    const again = await decide({ intent: 'dismiss', eventID: String(ad.eventID) })
    expect(again.status).toBe(409)
  })

  test('takedown: a reason is required; the ad leaves the pages, the advertiser is told why, nothing refunded', async () => {
    const ad = await hiddenAd('Fake Festival')
    const noReason = await decide({ intent: 'takedown', eventID: String(ad.eventID) })
    expect(noReason.status).toBe(400)
    expect(((await noReason.json()) as ReportAnswer).result?.error?.reason).toEqual([
      'A reason is required to take an ad down (the advertiser reads it).',
    ])
    const res = await decide({
      intent: 'takedown',
      eventID: String(ad.eventID),
      reason: 'The festival does not exist',
    })
    expect(res.status).toBe(302)
    expect(await toastOf(res)).toMatchObject({ title: 'Ad taken down' })
    const [after] = await db.select().from(events).where(eq(events.eventID, ad.eventID))
    expect(after).toMatchObject({
      eventStatus: 'taken_down',
      paymentStatus: 'paid',
      rejectionReason: 'The festival does not exist',
    })
    expect(await shownIDs()).not.toContain(ad.eventID)
    const upheld = await db.select().from(adReports).where(eq(adReports.eventID, ad.eventID))
    expect(upheld.map((r) => r.status)).toEqual(['upheld', 'upheld', 'upheld'])
    const mail = (await mailsOf('ad-taken-down')).find((m) => m.subject.endsWith('Fake Festival'))
    expect(mail!.textBody).toContain('The festival does not exist')
    expect(mail!.textBody).toContain('a takedown for breaking them is not refunded')
    expect((await auditRowsOf(ad.eventID)).map((r) => [r.action, r.reason])).toEqual([
      ['takedown', 'The festival does not exist'],
    ])
  })

  test('a refused takedown, posted without JavaScript, shows why at that ad’s reason', async () => {
    const ad = await hiddenAd('Refused Takedown')
    const page = await shownAfter([{ path: '/admin/reports', ...adminReportsRoute }], '/admin/reports', {
      method: 'POST',
      body: new URLSearchParams({ intent: 'takedown', eventID: String(ad.eventID), reason: '   ' }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: adminCookie },
    })
    expect(page.status).toBe(400)
    const reason = new RegExp(`<textarea[^>]*id="takedown-${ad.eventID}-reason"[^>]*>`).exec(page.html)?.[0]
    expect(reason).toContain('aria-invalid="true"')
    expect(reason).toContain(`aria-describedby="takedown-${ad.eventID}-reason-error"`)
    expect(page.html).toMatch(
      new RegExp(
        `id="takedown-${ad.eventID}-reason-error"[^>]*>A reason is required to take an ad down \\(the advertiser reads it\\)\\.<`,
      ),
    )
    expect(await statusOf(ad.eventID)).toBe('reported_hidden')
  })

  test('tampered and stale decisions are 4xx, never 500', async () => {
    const pending = await paidAdAwaitingReview(owner)
    expect((await decide({ intent: 'takedown', eventID: String(pending.eventID), reason: 'x' })).status).toBe(
      409,
    )
    expect((await decide({ intent: 'dismiss', eventID: '999999999' })).status).toBe(409)
    expect((await decide({ intent: 'publish', eventID: '1' })).status).toBe(400)
    expect((await decide({ intent: 'dismiss', eventID: 'abc' })).status).toBe(400)
    expect(
      (await decide({ intent: 'takedown', eventID: String(pending.eventID), reason: 'x'.repeat(501) }))
        .status,
    ).toBe(400)
  })
})
