/**
 * Edits of a trusted business's live ads follow the trust rule: applied at once as an approval of the edit would be
 * (sampled like new ads, for a check after the fact); an untrusted business's edit still waits for review.
 */
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { loader as adminLoader } from '#app/routes/admin.tsx'
import { action as approveEvent } from '#app/routes/api.approve-event.ts'
import { loader as editLoader } from '#app/routes/dashboard.events.$id.edit.tsx'
import { loader as eventPageLoader } from '#app/routes/event.$id.tsx'
import { changeTrust } from '#app/services/moderation/trust.server.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { eventRevisions, events, type Business, type User } from '#db/schema.ts'
import { approveBody, days } from '#tests/support/ad-submission.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { insertBusiness, insertPaidPayment } from '#tests/support/events.ts'
import { auditRowsOf, mailTo } from '#tests/support/moderation.ts'
import { callRoute } from '#tests/support/routes.ts'
import { withSamplePercent } from '#tests/support/trust.ts'

let admin: User
let adminCookie: string

beforeAll(async () => {
  admin = await insertUser(db, { roles: ['admin'] })
  adminCookie = await sessionCookieFor({ user: admin })
})

interface Advertiser {
  owner: Business
  cookie: string
}

async function advertiser(trusted: boolean): Promise<Advertiser> {
  const owner = await insertBusiness(db)
  if (trusted)
    await changeTrust(owner.businessID, { granted: true, reason: 'Known venue', adminId: admin.id })
  return { owner, cookie: await sessionCookieFor({ business: owner }) }
}

const post = (body: FormData, cookie: string) =>
  callRoute(approveEvent, '/api/approve-event', { method: 'POST', body, headers: { Cookie: cookie } })

/** A live ad of the advertiser, saved and paid for as the app does it. */
async function liveAd({ cookie }: Advertiser, title: string) {
  const res = await post(approveBody({ eventData: { eventTitle: title } }), cookie)
  expect(res.status).toBe(200)
  const { eventID } = (await res.json()) as { eventID: number }
  const payment = await insertPaidPayment(eventID)
  await db
    .update(events)
    .set({ paymentStatus: 'paid', eventStatus: 'approved', payment_intent_id: payment.payment_intent_id })
    .where(eq(events.eventID, eventID))
  return eventID
}

async function editTitle({ cookie }: Advertiser, eventID: number, title: string) {
  const res = await post(
    approveBody({ eventID: String(eventID), eventData: { eventTitle: title }, selectedDates: days(3) }),
    cookie,
  )
  expect(res.status).toBe(200)
  return (await res.json()) as { resubmitted: boolean; live: boolean; message: string }
}

async function publicTitle(eventID: number) {
  const res = await callRoute(eventPageLoader, `/event/${eventID}?viewMode=true`, {
    params: { id: String(eventID) },
  })
  return ((await res.json()) as { card: { eventTitle: string } }).card.eventTitle
}

async function editNotice({ cookie }: Advertiser, eventID: number) {
  const res = await callRoute(editLoader, `/dashboard/events/${eventID}/edit`, {
    params: { id: String(eventID) },
    headers: { Cookie: cookie },
  })
  expect(res.status).toBe(200)
  return ((await res.json()) as { editGoesLiveAtOnce: boolean }).editGoesLiveAtOnce
}

const revisionStatuses = async (eventID: number) =>
  (await db.select().from(eventRevisions).where(eq(eventRevisions.eventID, eventID))).map((r) => r.status)

async function checkListIDs() {
  const res = await callRoute(adminLoader, '/admin?date=all', { headers: { Cookie: adminCookie } })
  return ((await res.json()) as { checks: { ads: { eventID: number }[] } }).checks.ads.map((a) => a.eventID)
}

describe('a trusted business edits its live ad', () => {
  test('the edit is applied at once, audited as auto-approved, emailed, and the public page shows it', async () => {
    const trusted = await advertiser(true)
    const eventID = await liveAd(trusted, 'Soup Night')
    expect(await editNotice(trusted, eventID)).toBe(true)
    const answer = await withSamplePercent(0, () => editTitle(trusted, eventID, 'Soup Night, now with bread'))
    expect(answer).toMatchObject({ resubmitted: true, live: true })
    expect(answer.message).toContain('your changes are on the public pages now')
    expect(await publicTitle(eventID)).toBe('Soup Night, now with bread')
    expect(await revisionStatuses(eventID)).toEqual(['approved'])
    const trail = await auditRowsOf(eventID)
    expect(trail.map((r) => [r.action, r.revision, r.actorUserId])).toEqual([['auto_approve', true, null]])
    expect((await mailTo(trusted.owner.businessEmail)).map((m) => m.kind)).toContain('revision-approved')
    expect(await checkListIDs()).not.toContain(eventID)
  })

  test('a sampled edit is applied and listed for a check', async () => {
    const trusted = await advertiser(true)
    const eventID = await liveAd(trusted, 'Jazz Brunch')
    const answer = await withSamplePercent(100, () => editTitle(trusted, eventID, 'Jazz Brunch, later start'))
    expect(answer.live).toBe(true)
    expect(await publicTitle(eventID)).toBe('Jazz Brunch, later start')
    expect(await checkListIDs()).toContain(eventID)
  })
})

test('an untrusted business’s edit still waits for review, and its edit page says so', async () => {
  const untrusted = await advertiser(false)
  const eventID = await liveAd(untrusted, 'Pie Contest')
  expect(await editNotice(untrusted, eventID)).toBe(false)
  const answer = await editTitle(untrusted, eventID, 'Pie Contest, bigger prizes')
  expect(answer).toMatchObject({ resubmitted: true, live: false })
  expect(await publicTitle(eventID)).toBe('Pie Contest')
  expect(await revisionStatuses(eventID)).toEqual(['pending'])
  expect(await auditRowsOf(eventID)).toEqual([])
})
