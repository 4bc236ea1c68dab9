import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { UNSET_DATE } from '#app/constants.ts'
import { loader as dashboardLoader } from '#app/routes/dashboard.tsx'
import { loader as adPageLoader } from '#app/routes/dashboard_.events.$id.tsx'
import {
  action as runAgainAction,
  loader as runAgainLoader,
} from '#app/routes/dashboard_.events.$id_.run-again.tsx'
import { action as approveEvent } from '#app/routes/api.approve-event.ts'
import { loader as mediaLoader } from '#app/routes/api.media.$filename.ts'
import { action as editAction } from '#app/routes/dashboard.events.$id.edit.tsx'
import { action as previewAction, loader as previewLoader } from '#app/routes/dashboard.events.preview.tsx'
import { RUN_AGAIN_DRAFT_MESSAGE } from '#app/services/ads/run-again.server.ts'
import { deleteStoredMedia } from '#app/services/media/media.server.ts'
import { mediaFileName, parseMediaFileName } from '#app/utils/media-types.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { categoryList, eventMedia, events, type Business, type Event } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import {
  approveBody,
  days,
  plainEventForm,
  solidPng,
  today,
  useUploadFolder,
} from '#tests/support/ad-submission.ts'
import { mp4Bytes } from '#tests/support/media.ts'
import { readStored, storedExists } from '#tests/support/media-storage.ts'
import { callRoute } from '#tests/support/routes.ts'
import { addDaysIso } from '#app/utils/time.ts'

useUploadFolder('run-again-it')

let owner: Business
let stranger: Business
let ownerCookie: string
let strangerCookie: string

beforeAll(async () => {
  owner = await insertBusiness(db, { businessName: 'Harbor Jazz Club' })
  stranger = await insertBusiness(db, { businessName: 'Someone Else' })
  ownerCookie = await sessionCookieFor({ business: owner })
  strangerCookie = await sessionCookieFor({ business: stranger })
})

async function row(eventID: number): Promise<Event> {
  const [found] = await db.select().from(events).where(eq(events.eventID, eventID))
  return found!
}

/** An ad of the owner's saved with a photo and a video, then set to the given statuses (by default: ended). */
async function paidAd(title: string, statuses: Partial<Event> = {}) {
  const body = approveBody({
    eventData: { eventTitle: title, eventCategory: ['Concert', 'Nightlife'], contactPhone: '2175550101' },
    image: await solidPng(64, 48, '#37c'),
  })
  body.set('video', new Blob([new Uint8Array(mp4Bytes())]), 'clip.mp4')
  const res = await callRoute(approveEvent, '/api/approve-event', {
    method: 'POST',
    body,
    headers: { Cookie: ownerCookie },
  })
  expect(res.status).toBe(200)
  const { eventID } = (await res.json()) as { eventID: number }
  const past = [addDaysIso(today(), -20), addDaysIso(today(), -13)]
  await db
    .update(events)
    .set({
      paymentStatus: 'paid',
      eventStatus: 'approved',
      showAdOnDates: past,
      firstShowDate: past[0],
      lastShowDate: past[1],
      ...statuses,
    })
    .where(eq(events.eventID, eventID))
  return row(eventID)
}

function runAgain(eventID: number | string, cookie = ownerCookie) {
  return callRoute(runAgainAction, `/dashboard/events/${eventID}/run-again`, {
    method: 'POST',
    params: { id: String(eventID) },
    headers: { Cookie: cookie },
  })
}

function newIdFrom(res: Response) {
  const match = /^\/dashboard\/events\/(\d+)\/edit$/.exec(res.headers.get('Location') ?? '')
  expect(match, res.headers.get('Location') ?? '').not.toBeNull()
  return Number(match![1])
}

async function served(url: string) {
  const filename = mediaFileName(url)
  return callRoute(mediaLoader, `/api/media/${filename}`, {
    params: { filename },
    headers: { Cookie: ownerCookie },
  })
}

describe('run an ad again', () => {
  test('an ended ad becomes a new unpaid ad with its content, copied media and no dates', async () => {
    const original = await paidAd('Friday Jazz Night')
    const res = await runAgain(original.eventID)
    expect(res.status).toBe(302)
    const copyID = newIdFrom(res)
    expect(copyID).not.toBe(original.eventID)
    const copy = await row(copyID)
    expect(copy).toMatchObject({
      businessID: owner.businessID,
      eventTitle: 'Friday Jazz Night',
      eventDescription: original.eventDescription,
      category: ['Concert', 'Nightlife'],
      contactPerson: original.contactPerson,
      contactPhone: '2175550101',
      contactEmail: original.contactEmail,
      showAdOnDates: [],
      eventDate: UNSET_DATE,
      daysOrdered: 0,
      totalCost: 0,
      paymentStatus: 'pending',
      eventStatus: 'pending',
      approvedDateByBusiness: UNSET_DATE,
      rejectionReason: '',
    })
    // Media are copies under the new ad's own keys, with their rows.
    for (const [mine, theirs] of [
      [copy.stillPhotoURL, original.stillPhotoURL],
      [copy.videoURL, original.videoURL],
    ] as const) {
      expect(mine).not.toBe('')
      expect(parseMediaFileName(mediaFileName(mine))?.id).toBe(String(copyID))
      const [a, b] = await Promise.all(
        [mine, theirs].map((url) => readStored(parseMediaFileName(mediaFileName(url))!.key)),
      )
      expect(a).not.toBeNull()
      expect(a!.equals(b!)).toBe(true)
    }
    const media = await db.select().from(eventMedia).where(eq(eventMedia.eventID, copyID))
    expect(media.map((m) => m.mediaType).sort()).toEqual(['photo', 'video'])
    const photoKey = parseMediaFileName(mediaFileName(copy.stillPhotoURL))!.key
    expect(await storedExists(photoKey.replace('.webp', '-480w.webp'))).toBe(true)

    // Deleting the original's files leaves the copy's serving.
    await deleteStoredMedia([original.stillPhotoURL, original.videoURL])
    expect((await served(original.stillPhotoURL)).status).toBe(404)
    expect((await served(copy.stillPhotoURL)).status).toBe(200)
    expect((await served(copy.videoURL)).status).toBe(200)
  })

  test('the practical facts come along: tickets, price, where, accessibility and age', async () => {
    const original = await paidAd('Spring Fundraiser')
    const facts = {
      ticketUrl: 'https://tickets.example.com/spring',
      priceCents: 1500,
      attendanceMode: 'mixed',
      venueAddress: '12 Park Road',
      venueCity: 'Springfield',
      venueState: 'IL',
      venueZip: '62704',
      onlineUrl: 'https://stream.example.com/spring',
      accessibilityFeatures: ['step_free', 'captions'],
      accessibilityNote: 'Ramp at the side door',
      accessibilityContact: 'access@example.com',
      ageRange: '21+',
    }
    await db.update(events).set(facts).where(eq(events.eventID, original.eventID))
    const copy = await row(newIdFrom(await runAgain(original.eventID)))
    expect(copy).toMatchObject(facts)
  })

  test('the copy is independent: changing or deleting either leaves the other as it was', async () => {
    const original = await paidAd('Spring Fundraiser')
    const copyID = newIdFrom(await runAgain(original.eventID))
    await db.update(events).set({ eventTitle: 'Spring Fundraiser 2027' }).where(eq(events.eventID, copyID))
    expect((await row(original.eventID)).eventTitle).toBe('Spring Fundraiser')
    const copy = await row(copyID)
    await db.delete(events).where(eq(events.eventID, original.eventID))
    await deleteStoredMedia([original.stillPhotoURL, original.videoURL])
    expect((await row(copyID)).eventTitle).toBe('Spring Fundraiser 2027')
    expect((await served(copy.stillPhotoURL)).status).toBe(200)
  })

  test('a live ad and an ad refunded after a rejection may be run again', async () => {
    const live = await paidAd('Live Quiz', {
      showAdOnDates: days(2),
      firstShowDate: days(2)[0],
      lastShowDate: days(2)[1],
    })
    expect((await runAgain(live.eventID)).status).toBe(302)
    const refunded = await paidAd('Refused Gig', { eventStatus: 'rejected', paymentStatus: 'refunded' })
    expect((await runAgain(refunded.eventID)).status).toBe(302)
  })

  test('a category hidden since is left out of the copy', async () => {
    await db
      .insert(categoryList)
      .values({ categoryName: 'Retired Series', hidden: true })
      .onConflictDoNothing()
    const original = await paidAd('Old Series', { category: ['Retired Series', 'Concert'] })
    const copy = await row(newIdFrom(await runAgain(original.eventID)))
    expect(copy.category).toEqual(['Concert'])
  })

  test('the copy goes through the form, the preview and checkout like a new ad', async () => {
    const original = await paidAd('Monthly Market')
    const copyID = newIdFrom(await runAgain(original.eventID))
    const form = plainEventForm({
      eventTitle: 'Monthly Market',
      eventDescription: original.eventDescription,
      eventCategory: ['Concert'],
      showAdDates: days(2, 5),
      eventDate: '',
    })
    const staged = await callRoute(editAction, `/dashboard/events/${copyID}/edit`, {
      method: 'POST',
      body: form,
      params: { id: String(copyID) },
      headers: { Cookie: ownerCookie },
    })
    expect(staged.headers.get('Location')).toBe('/dashboard/events/preview')
    const preview = await callRoute(previewLoader, '/dashboard/events/preview', {
      headers: { Cookie: ownerCookie },
    })
    expect(((await preview.json()) as { dates: string[] }).dates).toEqual(days(2, 5))
    const approve = new FormData()
    approve.set('intent', 'approve')
    const done = await callRoute(previewAction, '/dashboard/events/preview', {
      method: 'POST',
      body: approve,
      headers: { Cookie: ownerCookie },
    })
    expect(done.headers.get('Location')).toBe('/checkout')
    expect(await row(copyID)).toMatchObject({ showAdOnDates: days(2, 5), daysOrdered: 2 })
  })

  test('the dashboard and the ad page offer it for paid ads only', async () => {
    const original = await paidAd('Offered Ad')
    const copyID = newIdFrom(await runAgain(original.eventID))
    const dashboard = await callRoute(dashboardLoader, '/dashboard', { headers: { Cookie: ownerCookie } })
    const cards = (
      (await dashboard.json()) as { events: Array<{ eventID: number; runAgainHref: string | null }> }
    ).events
    const path = `/dashboard/events/${original.eventID}/run-again`
    expect(cards.find((c) => c.eventID === original.eventID)?.runAgainHref).toBe(path)
    expect(cards.find((c) => c.eventID === copyID)?.runAgainHref).toBeNull()
    const page = await callRoute(adPageLoader, `/dashboard/events/${original.eventID}`, {
      params: { id: String(original.eventID) },
      headers: { Cookie: ownerCookie },
    })
    expect(((await page.json()) as { runAgainHref: string }).runAgainHref).toBe(path)
  })
})

describe('run again refuses', () => {
  test('a draft: 409 with the reason, and nothing is made', async () => {
    const original = await paidAd('Still a Draft', { paymentStatus: 'pending', eventStatus: 'pending' })
    const before = await db.select().from(events).where(eq(events.businessID, owner.businessID))
    const res = await runAgain(original.eventID)
    expect(res.status).toBe(409)
    expect(((await res.json()) as { message: string }).message).toBe(RUN_AGAIN_DRAFT_MESSAGE)
    const after = await db.select().from(events).where(eq(events.businessID, owner.businessID))
    expect(after).toHaveLength(before.length)
  })

  test("another business's ad, an unknown id and a tampered id are a 404", async () => {
    const original = await paidAd('Not Theirs')
    for (const [id, cookie] of [
      [original.eventID, strangerCookie],
      [999_999_999, ownerCookie],
      ['1; DROP TABLE events', ownerCookie],
      ['9'.repeat(400), ownerCookie],
      ['-1', ownerCookie],
    ] as const) {
      const res = await runAgain(id, cookie)
      expect(res.status, String(id)).toBe(404)
    }
    const theirs = await db.select().from(events).where(eq(events.businessID, stranger.businessID))
    expect(theirs).toHaveLength(0)
  })

  test('signed out: sent to sign in; a GET: 405', async () => {
    const original = await paidAd('Signed Out')
    const res = await callRoute(runAgainAction, `/dashboard/events/${original.eventID}/run-again`, {
      method: 'POST',
      params: { id: String(original.eventID) },
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toMatch(/^\/login/)
    const get = await callRoute(runAgainLoader, `/dashboard/events/${original.eventID}/run-again`, {
      params: { id: String(original.eventID) },
      headers: { Cookie: ownerCookie },
    })
    expect(get.status).toBe(405)
    expect(get.headers.get('Allow')).toBe('POST')
  })
})
