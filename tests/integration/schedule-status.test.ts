/**
 * A live ad's schedule status (Cancelled, Postponed, Sold out, back on), set by its advertiser or an administrator
 * with the plain forms (no JavaScript): what the pages show, the audit, the emails to the "Remind me" subscribers,
 * the reminders and digests after it, and every refusal leaving everything as it was.
 */
import { eventPagePath } from '#app/models/ads/event-address.ts'
import { and, eq } from 'drizzle-orm'
import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import {
  CANCELLED_IS_FINAL_MESSAGE,
  NOT_LIVE_SCHEDULE_MESSAGE,
  SAME_SCHEDULE_STATUS_MESSAGE,
  SCHEDULE_NOTE_TOO_LONG_MESSAGE,
  UNKNOWN_SCHEDULE_STATUS_MESSAGE,
} from '#app/models/ads/schedule-status.ts'
import { NUL_MESSAGE } from '#app/models/platform/input-rules.ts'
import { NO_REFUND_LINE } from '#app/components/schedule-status-form.tsx'
import * as adminAdRoute from '#app/routes/admin_.events.$id.tsx'
import * as adminStatusRoute from '#app/routes/admin_.events.$id_.status.tsx'
import * as adPageRoute from '#app/routes/dashboard_.events.$id.tsx'
import * as statusRoute from '#app/routes/dashboard_.events.$id_.status.tsx'
import * as termsRoute from '#app/routes/terms.tsx'
import { setScheduleStatus } from '#app/models/ads/schedule-status.server.ts'
import {
  changeScheduleStatus,
  SCHEDULE_CHANGED_MEANWHILE_MESSAGE,
} from '#app/services/ads/schedule.server.ts'
import { auditCsv, auditPage } from '#app/services/moderation/audit-trail.server.ts'
import { queueDigests, queueReminders } from '#app/services/subscriptions/subscriber-jobs.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { events, outbox, subscriptions, type Business, type Event, type User } from '#db/schema.ts'
import { businessSessionCopy, sessionCookieFor } from '#tests/support/auth.ts'
import { browse, shownAfter, textOf, type PageAnswer } from '#tests/support/document-request.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { auditRowsOf } from '#tests/support/moderation.ts'

const today = platformToday()
const DAY_MS = 24 * 60 * 60 * 1000

const OWNER_PAGES = [
  { path: '/dashboard/events/:id/status', ...statusRoute },
  { path: '/dashboard/events/:id', ...adPageRoute },
]
const ADMIN_PAGES = [
  { path: '/admin/events/:id/status', ...adminStatusRoute },
  { path: '/admin/events/:id', ...adminAdRoute },
]

let owner: Business
let stranger: Business
let admin: User
let ownerCookie: string
let strangerCookie: string
let adminCookie: string

beforeAll(async () => {
  owner = await insertBusiness(db, { businessName: 'Fairground Co', businessEmail: 'fair@example.com' })
  stranger = await insertBusiness(db, { businessName: 'Someone Else' })
  admin = await insertUser(db, { roles: ['admin'], email: 'admin@example.com' })
  ownerCookie = await sessionCookieFor({ business: owner })
  strangerCookie = await sessionCookieFor({ business: stranger })
  adminCookie = await sessionCookieFor({ user: admin })
})

let counter = 0

/** A live ad of the owner's on a date three days on (approved an hour ago), with two confirmed reminders and one not. */
async function liveAd(overrides: Partial<Event> = {}) {
  const n = ++counter
  const ad = await insertTestEvent(owner, {
    eventTitle: `County Fair ${n}`,
    showAdOnDates: [addDaysIso(today, 1), addDaysIso(today, 3)],
    reviewedAt: new Date(Date.now() - 60 * 60 * 1000),
    ...overrides,
  })
  const reminder = (email: string, confirmedAt: Date | null) => ({
    email,
    kind: 'reminder',
    frequency: 'once',
    filters: {},
    filterKey: `event:${ad.eventID}`,
    eventID: ad.eventID,
    confirmedAt,
  })
  await db
    .insert(subscriptions)
    .values([
      reminder(`first-${n}@example.net`, new Date()),
      reminder(`second-${n}@example.net`, new Date()),
      reminder(`unconfirmed-${n}@example.net`, null),
    ])
  return ad
}

const rowOf = async (eventID: number) =>
  (await db.select().from(events).where(eq(events.eventID, eventID)))[0]!

const outboxOf = (subject: string) => db.select().from(outbox).where(eq(outbox.subject, subject))

/** The owner's post of the status form without JavaScript, and the pages the browser then shows. */
function ownerPosts(eventID: number, fields: Record<string, string>, cookie = ownerCookie) {
  return browse(OWNER_PAGES, `/dashboard/events/${eventID}/status`, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
  })
}

function adminPosts(eventID: number, fields: Record<string, string>) {
  return browse(ADMIN_PAGES, `/admin/events/${eventID}/status`, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: adminCookie },
  })
}

const last = (answers: PageAnswer[]) => answers.at(-1)!

/** Everything a refusal must leave as it was. */
async function snapshot(eventID: number) {
  const row = await rowOf(eventID)
  return {
    status: row.scheduleStatus,
    note: row.scheduleNote,
    changedAt: row.scheduleChangedAt,
    sequence: row.calendarSequence,
    audit: (await auditRowsOf(eventID)).length,
    outbox: (await db.select().from(outbox)).length,
  }
}

describe('the advertiser marks a live ad from its dashboard page, without JavaScript', () => {
  test('the page offers every status, the note and the no-refund line', async () => {
    const ad = await liveAd()
    const page = await shownAfter(OWNER_PAGES, `/dashboard/events/${ad.eventID}`, {
      headers: { Cookie: ownerCookie },
    })
    const text = textOf(page.html)
    expect(text).toContain('On as advertised')
    for (const label of ['Cancelled', 'Postponed', 'Sold out']) expect(text).toContain(label)
    expect(text).not.toContain('Back on')
    expect(text).toContain('Note for visitors')
    expect(text).toContain(NO_REFUND_LINE)
    expect(page.html).toContain(`action="/dashboard/events/${ad.eventID}/status"`)
  })

  test('cancelled: the page says so with the note, each confirmed reminder gets one email, none after', async () => {
    const ad = await liveAd()
    const before = await rowOf(ad.eventID)
    const answers = await ownerPosts(ad.eventID, {
      status: 'cancelled',
      note: '  Rained out: see you next year  ',
    })
    expect(answers[0]!.status).toBe(302)
    expect(answers[0]!.location).toBe(`/dashboard/events/${ad.eventID}`)
    const shown = last(answers)
    expect(shown.status).toBe(200)
    const text = textOf(shown.html)
    expect(text).toContain('Status for visitors: Cancelled — Rained out: see you next year')
    // Once cancelled there is nothing left to choose.
    expect(text).not.toContain('Change the status')
    expect(text).toContain('Marked cancelled — Rained out: see you next year')

    const after = await rowOf(ad.eventID)
    expect(after.scheduleStatus).toBe('cancelled')
    expect(after.scheduleNote).toBe('Rained out: see you next year')
    expect(after.scheduleChangedAt).not.toBeNull()
    expect(after.calendarSequence).toBe(before.calendarSequence + 1)

    const [audit, ...moreAudit] = await auditRowsOf(ad.eventID)
    expect(moreAudit).toEqual([])
    expect(audit).toMatchObject({
      action: 'status_cancelled',
      actorUserId: null,
      actorEmail: 'fair@example.com',
      businessID: owner.businessID,
      reason: 'Rained out: see you next year',
    })

    const mails = await outboxOf(`Cancelled: ${ad.eventTitle}`)
    expect(mails.map((m) => m.toAddress).sort()).toEqual([
      `first-${counter}@example.net`,
      `second-${counter}@example.net`,
    ])
    for (const mail of mails) {
      expect(mail.textBody).toContain('Rained out: see you next year')
      expect(mail.textBody).toContain(eventPagePath(ad))
      expect(mail.textBody).toContain('Unsubscribe: ')
      expect(mail.headers).toMatchObject({ 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' })
    }

    // The day before the event the reminder job sends nothing for it.
    await queueReminders()
    expect(await outboxOf(`Tomorrow: ${ad.eventTitle}`)).toEqual([])
  })

  test('back on after Cancelled is refused with the message, and nothing changes', async () => {
    const ad = await liveAd()
    await ownerPosts(ad.eventID, { status: 'cancelled', note: 'Moved to the gym' })
    const before = await snapshot(ad.eventID)
    const shown = last(await ownerPosts(ad.eventID, { status: 'on', note: 'Oh wait' }))
    expect(shown.status).toBe(400)
    expect(textOf(shown.html)).toContain(CANCELLED_IS_FINAL_MESSAGE)
    expect(textOf(shown.html)).toContain('Status for visitors: Cancelled — Moved to the gym')
    expect(await snapshot(ad.eventID)).toEqual(before)
  })

  test('postponed, then back on: both allowed, each emailed, the history lists both', async () => {
    const ad = await liveAd()
    const start = (await rowOf(ad.eventID)).calendarSequence
    const postponed = last(await ownerPosts(ad.eventID, { status: 'postponed', note: 'New date to follow' }))
    expect(textOf(postponed.html)).toContain('Status for visitors: Postponed — New date to follow')
    expect(textOf(postponed.html)).toContain('Back on')
    expect(await outboxOf(`Postponed: ${ad.eventTitle}`)).toHaveLength(2)
    // No reminder while it is postponed.
    await queueReminders()
    expect(await outboxOf(`Tomorrow: ${ad.eventTitle}`)).toEqual([])

    const back = last(await ownerPosts(ad.eventID, { status: 'on' }))
    expect(back.status).toBe(200)
    expect(textOf(back.html)).toContain('Status for visitors: On as advertised')
    const row = await rowOf(ad.eventID)
    expect(row.scheduleStatus).toBeNull()
    expect(row.scheduleNote).toBe('')
    expect(row.calendarSequence).toBe(start + 2)
    const backOn = await outboxOf(`Back on: ${ad.eventTitle}`)
    expect(backOn).toHaveLength(2)
    expect(backOn[0]!.textBody).toContain('is back on')
    expect((await auditRowsOf(ad.eventID)).map((r) => r.action)).toEqual([
      'status_postponed',
      'status_back_on',
    ])
    const timeline = textOf(back.html)
    expect(timeline).toContain('Marked postponed — New date to follow')
    expect(timeline).toMatch(/Back on \d{4}-\d{2}-\d{2}/)

    // Back on, the reminder is due again the day before.
    await queueReminders()
    expect(await outboxOf(`Tomorrow: ${ad.eventTitle}`)).toHaveLength(2)
  })

  test('sold out emails nobody, and back on from it neither', async () => {
    const ad = await liveAd()
    const outboxBefore = (await db.select().from(outbox)).length
    expect(last(await ownerPosts(ad.eventID, { status: 'sold_out' })).status).toBe(200)
    expect((await rowOf(ad.eventID)).scheduleStatus).toBe('sold_out')
    expect(last(await ownerPosts(ad.eventID, { status: 'on' })).status).toBe(200)
    expect((await db.select().from(outbox)).length).toBe(outboxBefore)
    expect((await auditRowsOf(ad.eventID)).map((r) => r.action)).toEqual([
      'status_sold_out',
      'status_back_on',
    ])
  })

  test('the same status again is refused', async () => {
    const ad = await liveAd()
    await ownerPosts(ad.eventID, { status: 'postponed' })
    const before = await snapshot(ad.eventID)
    const shown = last(await ownerPosts(ad.eventID, { status: 'postponed' }))
    expect(shown.status).toBe(400)
    expect(textOf(shown.html)).toContain(SAME_SCHEDULE_STATUS_MESSAGE)
    expect(await snapshot(ad.eventID)).toEqual(before)
  })

  test('the status address is a page of its own with the form; an ended ad says it cannot change', async () => {
    const ad = await liveAd()
    const [shown] = await browse([OWNER_PAGES[0]!], `/dashboard/events/${ad.eventID}/status`, {
      headers: { Cookie: ownerCookie },
    })
    expect(shown!.status).toBe(200)
    expect(textOf(shown!.html)).toContain('Is the event still on?')
    expect(shown!.html).toContain('name="status"')
  })
})

describe('refusals: 4xx with a message, and nothing changes', () => {
  test("another business's ad is 403", async () => {
    const ad = await liveAd()
    const before = await snapshot(ad.eventID)
    const shown = last(
      await ownerPosts(ad.eventID, { status: 'cancelled', note: 'Not mine' }, strangerCookie),
    )
    expect(shown.status).toBe(403)
    expect(await snapshot(ad.eventID)).toEqual(before)
  })

  test('an unknown ad is 404', async () => {
    expect(last(await ownerPosts(2_000_000_000, { status: 'cancelled' })).status).toBe(404)
  })

  test.each([
    ['an unpaid draft', { eventStatus: 'pending', paymentStatus: 'pending' }],
    ['an ended ad', { showAdOnDates: [addDaysIso(today, -5), addDaysIso(today, -2)] }],
    ['a rejected ad', { eventStatus: 'rejected', paymentStatus: 'refunded' }],
    ['an ad awaiting review', { eventStatus: 'pending' }],
  ] as const)('%s cannot be marked', async (_, overrides) => {
    const ad = await liveAd(overrides as Partial<Event>)
    const before = await snapshot(ad.eventID)
    const shown = last(await ownerPosts(ad.eventID, { status: 'cancelled', note: 'Off' }))
    expect(shown.status).toBe(400)
    expect(textOf(shown.html)).toContain(NOT_LIVE_SCHEDULE_MESSAGE)
    expect(await snapshot(ad.eventID)).toEqual(before)
  })

  test('a note of 141 characters is refused at the note; 140 is taken', async () => {
    const ad = await liveAd()
    const before = await snapshot(ad.eventID)
    const shown = last(await ownerPosts(ad.eventID, { status: 'postponed', note: 'x'.repeat(141) }))
    expect(shown.status).toBe(400)
    expect(textOf(shown.html)).toContain(SCHEDULE_NOTE_TOO_LONG_MESSAGE)
    expect(shown.html).toContain('aria-invalid="true"')
    expect(await snapshot(ad.eventID)).toEqual(before)
    expect(last(await ownerPosts(ad.eventID, { status: 'postponed', note: 'y'.repeat(140) })).status).toBe(
      200,
    )
    expect((await rowOf(ad.eventID)).scheduleNote).toBe('y'.repeat(140))
  })

  test('a NUL character in the note is refused at the note, and nothing changes', async () => {
    const ad = await liveAd()
    const before = await snapshot(ad.eventID)
    const shown = last(await ownerPosts(ad.eventID, { status: 'postponed', note: 'Rain\u0000out' }))
    expect(shown.status).toBe(400)
    expect(textOf(shown.html)).toContain(NUL_MESSAGE)
    expect(await snapshot(ad.eventID)).toEqual(before)
  })

  test.each([['deleted'], ['CANCELLED'], ['']])('the status %j is refused', async (status) => {
    const ad = await liveAd()
    const before = await snapshot(ad.eventID)
    const shown = last(await ownerPosts(ad.eventID, { status, note: 'Hmm' }))
    expect(shown.status).toBe(400)
    expect(textOf(shown.html)).toContain(UNKNOWN_SCHEDULE_STATUS_MESSAGE)
    expect(await snapshot(ad.eventID)).toEqual(before)
  })
})

describe('an administrator', () => {
  test('sets each status from the ad admin page, recorded as theirs and shown in the audit', async () => {
    const ad = await liveAd()
    const page = await shownAfter(ADMIN_PAGES, `/admin/events/${ad.eventID}`, {
      headers: { Cookie: adminCookie },
    })
    expect(page.html).toContain(`action="/admin/events/${ad.eventID}/status"`)
    for (const [status, label] of [
      ['sold_out', 'Sold out'],
      ['postponed', 'Postponed'],
      ['on', 'On as advertised'],
      ['cancelled', 'Cancelled'],
    ] as const) {
      const answers = await adminPosts(ad.eventID, { status, note: `By the admin: ${status}` })
      expect(answers[0]!.location).toBe(`/admin/events/${ad.eventID}`)
      const shown = last(answers)
      expect(shown.status).toBe(200)
      expect(textOf(shown.html)).toContain(`Status for visitors: ${label}`)
    }
    const trail = await auditRowsOf(ad.eventID)
    expect(trail.map((r) => [r.action, r.actorUserId, r.actorEmail])).toEqual([
      ['status_sold_out', admin.id, 'admin@example.com'],
      ['status_postponed', admin.id, 'admin@example.com'],
      ['status_back_on', admin.id, 'admin@example.com'],
      ['status_cancelled', admin.id, 'admin@example.com'],
    ])
    expect(await outboxOf(`Back on: ${ad.eventTitle}`)).toHaveLength(2)
    expect(await outboxOf(`Cancelled: ${ad.eventTitle}`)).toHaveLength(2)

    const audit = await auditPage(new URLSearchParams({ decision: 'status_cancelled' }))
    const row = audit.rows.find((r) => r.eventID === ad.eventID)
    expect(row).toMatchObject({
      who: 'admin@example.com',
      what: 'Marked cancelled',
      reason: 'By the admin: cancelled',
    })
    expect(audit.rows.every((r) => r.what === 'Marked cancelled')).toBe(true)
    const csv = await auditCsv({
      from: addDaysIso(today, -1),
      to: addDaysIso(today, 1),
      decision: null,
      admin: null,
    })
    expect(csv).toContain('status_back_on')
    expect(csv).toContain('By the admin: sold_out')
  })

  test("the advertiser's own change is labelled as the advertiser's in the audit", async () => {
    const ad = await liveAd()
    await ownerPosts(ad.eventID, { status: 'postponed', note: 'Storm warning' })
    const audit = await auditPage(new URLSearchParams({ decision: 'status_postponed' }))
    expect(audit.rows.find((r) => r.eventID === ad.eventID)).toMatchObject({
      who: 'fair@example.com (advertiser)',
      what: 'Marked postponed',
      reason: 'Storm warning',
    })
  })

  test('an unknown status is refused on the admin form too', async () => {
    const ad = await liveAd()
    const shown = last(await adminPosts(ad.eventID, { status: 'gone' }))
    expect(shown.status).toBe(400)
    expect(textOf(shown.html)).toContain(UNKNOWN_SCHEDULE_STATUS_MESSAGE)
  })
})

describe('two changes at once', () => {
  test('one wins, the other is a 409 (or they serialise), and the audit matches the final state', async () => {
    for (let round = 0; round < 3; round++) {
      const ad = await liveAd()
      const pages = await Promise.all([
        ownerPosts(ad.eventID, { status: 'postponed', note: 'First' }),
        ownerPosts(ad.eventID, { status: 'sold_out', note: 'Second' }),
      ])
      const statuses = pages.map((answers) => last(answers).status)
      for (const status of statuses) expect([200, 409]).toContain(status)
      const won = statuses.filter((status) => status === 200).length
      expect(won).toBeGreaterThanOrEqual(1)
      for (const [index, status] of statuses.entries())
        if (status === 409)
          expect(textOf(last(pages[index]!).html)).toContain(SCHEDULE_CHANGED_MEANWHILE_MESSAGE)
      const trail = await auditRowsOf(ad.eventID)
      expect(trail).toHaveLength(won)
      const row = await rowOf(ad.eventID)
      expect(`status_${row.scheduleStatus}`).toBe(trail.at(-1)!.action)
      expect(row.scheduleNote).toBe(trail.at(-1)!.reason)
    }
  })
})

test('a change made on a status read before another change sets nothing', async () => {
  const ad = await liveAd()
  await ownerPosts(ad.eventID, { status: 'postponed', note: 'Storm' })
  const before = await snapshot(ad.eventID)
  // What a second request read before the first committed: no status yet.
  const stale = await db.transaction((tx) =>
    setScheduleStatus(tx, { eventID: ad.eventID, from: null, to: 'sold_out', note: 'Late', today }),
  )
  expect(stale).toBeNull()
  expect(await snapshot(ad.eventID)).toEqual(before)
})

describe('reminders and digests', () => {
  beforeEach(async () => {
    await db.delete(subscriptions)
    await db.delete(outbox)
  })

  test('a reminder says the time: "tomorrow at 7:30 PM", or "tomorrow, all day"', async () => {
    const timed = await liveAd({ startTime: '19:30', endTime: '22:00' })
    const allDay = await liveAd()
    expect((await queueReminders()).queued).toBe(4)
    const mails = await db.select().from(outbox).where(eq(outbox.kind, 'subscription-reminder'))
    const of = (title: string) => mails.filter((m) => m.subject === `Tomorrow: ${title}`)
    expect(of(timed.eventTitle)).toHaveLength(2)
    expect(of(timed.eventTitle)[0]!.textBody).toContain(`${timed.eventTitle} is tomorrow at 7:30 PM.`)
    expect(of(timed.eventTitle)[0]!.textBody).toContain('7:30 PM – 10 PM')
    expect(of(allDay.eventTitle)[0]!.textBody).toContain(`${allDay.eventTitle} is tomorrow, all day.`)
  })

  test('"Changes" lists a changed ad for a subscriber who was sent it, not for one who was not', async () => {
    // Only this ad on the site, so the digests tell of it alone.
    await db.delete(events)
    const approved = new Date(Date.now() - 3 * DAY_MS)
    const ad = await liveAd({ reviewedAt: approved, eventDate: addDaysIso(today, 3), startTime: '18:00' })
    const search = (email: string, confirmedAt: Date, coveredUntil: Date) => ({
      email,
      kind: 'search',
      frequency: 'daily',
      filters: {},
      filterKey: `search:${email}`,
      confirmedAt,
      coveredUntil,
    })
    await db.insert(subscriptions).values([
      // Confirmed before the ad was approved, emailed since: the ad was in a digest.
      search('was-sent@example.net', new Date(approved.getTime() - DAY_MS), new Date(Date.now() - DAY_MS)),
      // Confirmed after its approval: never sent it.
      search('never-sent@example.net', new Date(approved.getTime() + 60_000), new Date(Date.now() - DAY_MS)),
    ])
    await db.delete(outbox)
    await changeScheduleStatus({
      actor: { kind: 'business', business: businessSessionCopy(owner) },
      eventID: ad.eventID,
      choice: 'cancelled',
      note: 'Flooded field',
    })
    const run = await queueDigests(['daily'], new Date(Date.now() + 1000))
    expect(run.queued).toBe(1)
    const [digest, ...more] = await db.select().from(outbox).where(eq(outbox.kind, 'subscription-digest'))
    expect(more).toEqual([])
    expect(digest!.toAddress).toBe('was-sent@example.net')
    expect(digest!.subject).toBe('Changes to events of your EventShout search')
    const text = digest!.textBody
    expect(text).toContain('Changes')
    expect(text).toContain(`Event: ${ad.eventTitle}\nStatus: Cancelled\nNote: Flooded field`)
    expect(text).toMatch(/When: \w{3}, \w{3} \d{1,2} · 6 PM/)
    expect(text).not.toContain('New since our last email')

    // Told once: the next run has no change to tell.
    expect((await queueDigests(['daily'], new Date(Date.now() + 2 * DAY_MS))).queued).toBe(0)
  })

  test('a digest lists each new ad with its date and time', async () => {
    await db.insert(subscriptions).values({
      email: 'fresh@example.net',
      kind: 'search',
      frequency: 'daily',
      filters: {},
      filterKey: 'search:fresh',
      confirmedAt: new Date(Date.now() - DAY_MS),
      coveredUntil: new Date(Date.now() - DAY_MS),
    })
    const ad = await liveAd({ eventDate: addDaysIso(today, 3), startTime: '19:30', endTime: '22:00' })
    await db.delete(subscriptions).where(and(eq(subscriptions.kind, 'reminder')))
    await queueDigests(['daily'], new Date(Date.now() + 1000))
    const [digest] = await db.select().from(outbox).where(eq(outbox.toAddress, 'fresh@example.net'))
    expect(digest!.textBody).toContain(`Event: ${ad.eventTitle}`)
    expect(digest!.textBody).toMatch(/When: \w{3}, \w{3} \d{1,2} · 7:30 PM – 10 PM/)
  })
})

test('the terms say a status change is not refunded', async () => {
  const page = await shownAfter([{ path: '/terms', ...termsRoute }], '/terms')
  expect(textOf(page.html)).toContain('Marking an ad cancelled, postponed or sold out does not refund it.')
})
