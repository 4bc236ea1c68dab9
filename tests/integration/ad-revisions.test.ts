/**
 * Edits of a live ad: a pending revision while the live version stays up, its media private until approved, a
 * field-by-field diff for the administrator, and approve / reject / request changes on the revision.
 */
import { eq } from 'drizzle-orm'
import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { DATES_LOCKED_MESSAGE } from '#app/models/ads/event-schema.ts'
import { EDIT_NOTES } from '#app/models/ads/event-revision.server.ts'
import { liveEventsGeneration } from '#app/models/calendar/live-events-cache.server.ts'
import { action as adminAction, loader as adminLoader } from '#app/routes/admin.tsx'
import { action as reviewApi } from '#app/routes/api.admin.review-event.ts'
import { action as approveEvent } from '#app/routes/api.approve-event.ts'
import { loader as mediaLoader } from '#app/routes/api.media.$filename.ts'
import { loader as dashboardLoader } from '#app/routes/dashboard.tsx'
import { loader as editLoader } from '#app/routes/dashboard.events.$id.edit.tsx'
import { loader as eventPageLoader } from '#app/routes/event.$id.tsx'
import { changeTrust } from '#app/services/moderation/trust.server.ts'
import { getEventPaymentData } from '#app/services/payments/payment-data.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { sessionStorage } from '#app/services/http/session.server.ts'
import { mediaFileName } from '#app/utils/media-types.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { eventRevisions, events, outbox, payments, type Business } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { toastOf } from '#tests/support/cookie-jar.ts'
import { approveBody, days, solidPng, useUploadFolder } from '#tests/support/ad-submission.ts'
import { insertBusiness, insertPaidPayment, insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'

useUploadFolder('ad-revisions-it')

let owner: Business
let ownerCookie: string
let strangerCookie: string
let adminCookie: string
let livePng: Buffer
let newPng: Buffer

beforeAll(async () => {
  owner = await insertBusiness(db, { businessName: 'Revising Bistro' })
  ownerCookie = await sessionCookieFor({ business: owner })
  strangerCookie = await sessionCookieFor({
    business: await insertBusiness(db, { businessName: 'Other Bistro' }),
  })
  const admin = await insertUser(db, { roles: ['admin'] })
  adminCookie = await sessionCookieFor({ user: admin })
  await changeTrust(owner.businessID, { granted: false, reason: 'Edits reviewed', adminId: admin.id })
  livePng = await solidPng(64, 48, '#e11')
  newPng = await solidPng(80, 60, '#1e1')
})

function post(handler: Parameters<typeof callRoute>[0], url: string, body: FormData, cookie = ownerCookie) {
  return callRoute(handler, url, { method: 'POST', body, headers: { Cookie: cookie } })
}

/** A live ad with a stored photo, saved and paid for as the app does it. */
async function liveAd(title = 'Soup Night') {
  const res = await post(
    approveEvent,
    '/api/approve-event',
    approveBody({ eventData: { eventTitle: title }, image: livePng }),
  )
  expect(res.status).toBe(200)
  const { eventID } = (await res.json()) as { eventID: number }
  const payment = await insertPaidPayment(eventID)
  await db
    .update(events)
    .set({ paymentStatus: 'paid', eventStatus: 'approved', payment_intent_id: payment.payment_intent_id })
    .where(eq(events.eventID, eventID))
  return row(eventID)
}

async function row(eventID: number) {
  const [found] = await db.select().from(events).where(eq(events.eventID, eventID))
  return found!
}

/** The emails about this ad's changes queued for its advertiser, oldest first. */
async function revisionMails() {
  const rows = await db
    .select()
    .from(outbox)
    .where(eq(outbox.toAddress, owner.businessEmail))
    .orderBy(outbox.id)
  return rows.filter((row) => row.kind.startsWith('revision-'))
}

async function revisionsOf(eventID: number) {
  return db
    .select()
    .from(eventRevisions)
    .where(eq(eventRevisions.eventID, eventID))
    .orderBy(eventRevisions.id)
}

/** The owner's edit of the live ad: a new title and (by default) a new photo, the dates as paid for. */
function editLive(
  eventID: number,
  {
    title = 'Soup Night, now with bread',
    image = newPng as Buffer | undefined,
    cookie = ownerCookie,
    selectedDates = days(3),
  } = {},
) {
  return post(
    approveEvent,
    '/api/approve-event',
    approveBody({ eventID: String(eventID), eventData: { eventTitle: title }, selectedDates, image }),
    cookie,
  )
}

function media(url: string, cookie?: string) {
  const name = mediaFileName(url)
  return callRoute(mediaLoader, `/api/media/${name}`, {
    params: { filename: name },
    headers: cookie ? { Cookie: cookie } : {},
  })
}

function publicPage(eventID: number) {
  return callRoute(eventPageLoader, `/event/${eventID}?viewMode=true`, { params: { id: String(eventID) } })
}

async function publicTitle(eventID: number) {
  return ((await (await publicPage(eventID)).json()) as { card: { eventTitle: string } }).card.eventTitle
}

function review(body: Record<string, unknown>, cookie = adminCookie) {
  return callRoute(reviewApi, '/api/admin/review-event', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: cookie },
    body: JSON.stringify(body),
  })
}

async function dashboardCard(eventID: number) {
  const body = (await (
    await callRoute(dashboardLoader, '/dashboard', { headers: { Cookie: ownerCookie } })
  ).json()) as {
    events: Array<{
      eventID: number
      statusLabel: string
      reviewReason: string | null
      editNote: string | null
      resubmitHref: string | null
    }>
  }
  return body.events.find((e) => e.eventID === eventID)
}

describe('an edit of a live ad waits as a revision', () => {
  test('the live version stays (row, public page, photo); the revision holds the edit and a private photo of its own', async () => {
    const ad = await liveAd()
    const generation = liveEventsGeneration()
    const res = await editLive(ad.eventID)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ eventID: ad.eventID, resubmitted: true })
    expect(getEventPaymentData(await sessionStorage.getSession(res.headers.get('Set-Cookie')))).toBeNull()

    expect(await row(ad.eventID)).toEqual(ad)
    expect(await publicTitle(ad.eventID)).toBe('Soup Night')
    expect(liveEventsGeneration()).toBe(generation)
    const [revision] = await revisionsOf(ad.eventID)
    expect(revision).toMatchObject({
      status: 'pending',
      eventTitle: 'Soup Night, now with bread',
      videoURL: '',
    })
    expect(mediaFileName(revision!.stillPhotoURL)).toMatch(
      new RegExp(`_${ad.eventID}-r${revision!.id}\\.webp$`),
    )

    // The live photo is public; the revision's is not, except to its owner and administrators, never cached.
    expect((await media(ad.stillPhotoURL)).status).toBe(200)
    const hidden = await media(revision!.stillPhotoURL)
    expect(hidden.status).toBe(404)
    expect((await media(revision!.stillPhotoURL.replace('.webp', '-480w.webp'))).status).toBe(404)
    expect((await media(revision!.stillPhotoURL, strangerCookie)).status).toBe(404)
    for (const cookie of [ownerCookie, adminCookie]) {
      const seen = await media(revision!.stillPhotoURL, cookie)
      expect(seen.status).toBe(200)
      expect(seen.headers.get('Cache-Control')).toBe('private, no-store')
    }
    expect(await db.select().from(payments).where(eq(payments.eventID, ad.eventID))).toHaveLength(1)

    const card = await dashboardCard(ad.eventID)
    expect(card).toMatchObject({ statusLabel: 'Live', editNote: EDIT_NOTES.pending, reviewReason: null })
  })

  test('a second edit rewrites the open revision; the edit form starts from it', async () => {
    const ad = await liveAd()
    await editLive(ad.eventID)
    const again = await editLive(ad.eventID, { title: 'Soup Night, second try', image: undefined })
    expect(again.status).toBe(200)
    const revisions = await revisionsOf(ad.eventID)
    expect(revisions).toHaveLength(1)
    expect(revisions[0]).toMatchObject({ eventTitle: 'Soup Night, second try', status: 'pending' })
    expect(revisions[0]!.stillPhotoURL).toMatch(/-r\d+\.webp/)
    const form = await callRoute(editLoader, `/dashboard/events/${ad.eventID}/edit`, {
      params: { id: String(ad.eventID) },
      headers: { Cookie: ownerCookie },
    })
    expect(await form.json()).toMatchObject({
      paid: true,
      live: true,
      initial: { eventTitle: 'Soup Night, second try', showAdDates: days(3) },
      savedMedia: { stillPhotoPath: revisions[0]!.stillPhotoURL },
    })
  })

  test('other dates are refused (400), another business gets 404, an ended ad 409; nothing is saved', async () => {
    const ad = await liveAd()
    const moved = await editLive(ad.eventID, { selectedDates: days(4) })
    expect(moved.status).toBe(400)
    expect(await moved.json()).toMatchObject({ message: DATES_LOCKED_MESSAGE })
    expect((await editLive(ad.eventID, { cookie: strangerCookie })).status).toBe(404)
    const ended = await insertTestEvent(owner, { showAdOnDates: [days(1, -5)[0]!] })
    expect((await editLive(ended.eventID)).status).toBe(409)
    expect(await revisionsOf(ad.eventID)).toEqual([])
    expect(await revisionsOf(ended.eventID)).toEqual([])
  })
})

describe('the administrator decides on the revision', () => {
  beforeEach(async () => {
    await db.delete(outbox)
  })

  test('the queue shows it with a field-by-field diff (old and new text, old and new photo)', async () => {
    const ad = await liveAd()
    await editLive(ad.eventID)
    const [revision] = await revisionsOf(ad.eventID)
    const page = (await (
      await callRoute(adminLoader, '/admin', { headers: { Cookie: adminCookie } })
    ).json()) as {
      events: Array<{
        eventID: number
        eventTitle: string
        changes: unknown
        card: { stillPhotoPath: string }
      }>
    }
    const item = page.events.find((e) => e.eventID === ad.eventID)
    expect(item).toMatchObject({
      eventTitle: 'Soup Night, now with bread',
      card: { stillPhotoPath: revision!.stillPhotoURL },
    })
    expect(item!.changes).toEqual([
      {
        field: 'eventTitle',
        label: 'Title',
        kind: 'text',
        old: 'Soup Night',
        new: 'Soup Night, now with bread',
      },
      { field: 'photo', label: 'Photo', kind: 'photo', old: ad.stillPhotoURL, new: revision!.stillPhotoURL },
    ])
  })

  test('an edit sent on another day is counted there and listed with ?date=all', async () => {
    const ad = await liveAd()
    await editLive(ad.eventID)
    const earlier = new Date(Date.now() - 4 * 24 * 3600 * 1000)
    await db
      .update(eventRevisions)
      .set({ submittedAt: earlier })
      .where(eq(eventRevisions.eventID, ad.eventID))
    const page = async (query: string) =>
      (await (
        await callRoute(adminLoader, `/admin${query}`, { headers: { Cookie: adminCookie } })
      ).json()) as {
        otherDays: Array<{ date: string; count: number }>
        events: Array<{ eventID: number }>
      }
    const today = await page('')
    expect(today.events.map((e) => e.eventID)).not.toContain(ad.eventID)
    expect(today.otherDays).toContainEqual({ date: platformToday(earlier), count: 1 })
    expect((await page('?date=all')).events.map((e) => e.eventID)).toContain(ad.eventID)
    expect((await page(`?date=${platformToday(earlier)}`)).events.map((e) => e.eventID)).toContain(ad.eventID)
  })

  test('approve: the public pages show the new version, the caches are told, the new photo is public and the old one gone', async () => {
    const ad = await liveAd()
    await editLive(ad.eventID)
    const [revision] = await revisionsOf(ad.eventID)
    const generation = liveEventsGeneration()
    const res = await callRoute(adminAction, '/admin', {
      method: 'POST',
      headers: { Cookie: adminCookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent: 'approve', eventID: String(ad.eventID) }).toString(),
    })
    expect(await toastOf(res)).toMatchObject({ title: 'Changes approved' })
    expect(liveEventsGeneration()).toBeGreaterThan(generation)
    expect(await row(ad.eventID)).toMatchObject({
      eventTitle: 'Soup Night, now with bread',
      stillPhotoURL: revision!.stillPhotoURL,
      eventStatus: 'approved',
      paymentStatus: 'paid',
    })
    expect(await publicTitle(ad.eventID)).toBe('Soup Night, now with bread')
    expect((await media(revision!.stillPhotoURL)).status).toBe(200)
    expect((await media(ad.stillPhotoURL, ownerCookie)).status).toBe(404)
    expect((await revisionsOf(ad.eventID))[0]!.status).toBe('approved')
    expect(await revisionMails()).toEqual([
      expect.objectContaining({
        kind: 'revision-approved',
        subject: 'Your changes are live: Soup Night, now with bread',
      }),
    ])
    expect(await dashboardCard(ad.eventID)).toMatchObject({ editNote: null, reviewReason: null })
  })

  test('reject with a reason: the live version stays, nothing is refunded, the reason reaches the advertiser', async () => {
    const ad = await liveAd()
    await editLive(ad.eventID)
    const [revision] = await revisionsOf(ad.eventID)
    const generation = liveEventsGeneration()
    const res = await review({
      eventID: ad.eventID,
      action: 'reject',
      reason: 'The new photo is not of the event',
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ eventStatus: 'rejected', revision: true })
    expect(liveEventsGeneration()).toBe(generation)
    expect(await row(ad.eventID)).toEqual(ad)
    expect(await publicTitle(ad.eventID)).toBe('Soup Night')
    expect((await db.select().from(payments).where(eq(payments.eventID, ad.eventID)))[0]).toMatchObject({
      payment_status: 'paid',
      amount_refunded_cents: 0,
    })
    expect(await revisionMails()).toEqual([
      expect.objectContaining({
        kind: 'revision-rejected',
        subject: 'Your changes were not approved: Soup Night',
        textBody: expect.stringContaining('The new photo is not of the event'),
      }),
    ])
    expect((await media(revision!.stillPhotoURL, ownerCookie)).status).toBe(404)
    expect(await dashboardCard(ad.eventID)).toMatchObject({
      statusLabel: 'Live',
      editNote: EDIT_NOTES.rejected,
      reviewReason: 'The new photo is not of the event',
      resubmitHref: null,
    })
    const ownPage = await callRoute(eventPageLoader, `/event/${ad.eventID}`, {
      params: { id: String(ad.eventID) },
      headers: { Cookie: ownerCookie },
    })
    expect(await ownPage.json()).toMatchObject({
      reviewReason: 'The new photo is not of the event',
      editable: true,
    })
  })

  test('request changes: the live version stays; the advertiser reads why, edits again and it is back in the queue', async () => {
    const ad = await liveAd()
    await editLive(ad.eventID)
    const missing = await review({ eventID: ad.eventID, action: 'request_changes' })
    expect(missing.status).toBe(400)
    expect(
      (
        await review(
          { eventID: ad.eventID, action: 'request_changes', reason: 'Say which soups' },
          ownerCookie,
        )
      ).status,
    ).toBe(403)
    const res = await review({ eventID: ad.eventID, action: 'request_changes', reason: 'Say which soups' })
    expect(await res.json()).toMatchObject({ eventStatus: 'changes_requested', revision: true })
    expect(await revisionMails()).toEqual([
      expect.objectContaining({
        kind: 'revision-changes-requested',
        textBody: expect.stringContaining('Say which soups'),
      }),
    ])
    expect(await publicTitle(ad.eventID)).toBe('Soup Night')
    expect(await dashboardCard(ad.eventID)).toMatchObject({
      editNote: EDIT_NOTES.changes_requested,
      reviewReason: 'Say which soups',
      resubmitHref: `/dashboard/events/${ad.eventID}/edit`,
    })
    const again = await editLive(ad.eventID, { title: 'Soup Night: tomato and leek', image: undefined })
    expect(again.status).toBe(200)
    const revisions = await revisionsOf(ad.eventID)
    expect(revisions).toHaveLength(1)
    expect(revisions[0]).toMatchObject({ status: 'pending', eventTitle: 'Soup Night: tomato and leek' })
    const page = (await (
      await callRoute(adminLoader, '/admin', { headers: { Cookie: adminCookie } })
    ).json()) as {
      events: Array<{ eventID: number; earlierRequest: string }>
    }
    expect(page.events.find((e) => e.eventID === ad.eventID)).toMatchObject({
      earlierRequest: 'Say which soups',
    })
  })
})
