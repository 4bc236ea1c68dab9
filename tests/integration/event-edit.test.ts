import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import type { CustomerCardData } from '#app/models/ads/customer-card.ts'
import { EMPTY_PRACTICAL_FACTS } from '#app/models/ads/practical-facts.ts'
import { action as approveEvent } from '#app/routes/api.approve-event.ts'
import { action as editAction, loader as editLoader } from '#app/routes/dashboard.events.$id.edit.tsx'
import { loader as newEventLoader } from '#app/routes/dashboard.events.new.tsx'
import { action as previewAction, loader as previewLoader } from '#app/routes/dashboard.events.preview.tsx'
import { loader as eventPageLoader } from '#app/routes/event.$id.tsx'
import { getEventPaymentData } from '#app/services/payments/payment-data.server.ts'
import { PAID_MEANWHILE_MESSAGE } from '#app/services/ads/approval.server.ts'
import { AD_NOT_EDITABLE_MESSAGE } from '#app/services/ads/save.server.ts'
import { testProvider } from '#app/services/payments/payment-providers.server.ts'
import { setUpEventPayment } from '#app/services/payments/payment-setup.server.ts'
import { sessionStorage } from '#app/services/http/session.server.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { eventMedia, events, type Business } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { insertTestEvent } from '#tests/support/events.ts'
import { approveBody, days, plainEventForm, solidPng, useUploadFolder } from '#tests/support/ad-submission.ts'
import { callRoute } from '#tests/support/routes.ts'

useUploadFolder('event-edit-it')

const LINKS = {
  businessWebsite: 'https://lakeside.example',
  facebookURL: 'https://facebook.com/lakeside',
  instagramURL: 'https://instagram.com/lakeside',
  linkedin: 'https://linkedin.com/company/lakeside',
  youtubeURL: 'https://youtube.com/@lakeside',
  xURL: 'https://x.com/lakeside',
  tiktokURL: 'https://tiktok.com/@lakeside',
}

let owner: Business
let stranger: Business
let ownerCookie: string
let strangerCookie: string
let png: Buffer
let otherPng: Buffer

beforeAll(async () => {
  owner = await insertBusiness(db, { businessName: 'Lakeside Grill', businessPhone: '2175550148', ...LINKS })
  stranger = await insertBusiness(db, { businessName: 'Somebody Else' })
  ownerCookie = await sessionCookieFor({ business: owner })
  strangerCookie = await sessionCookieFor({ business: stranger })
  png = await solidPng(64, 48, '#e11')
  otherPng = await solidPng(80, 60, '#1e1')
})

function post(
  handler: Parameters<typeof callRoute>[0],
  url: string,
  body: FormData,
  { cookie = ownerCookie, params }: { cookie?: string; params?: Record<string, string> } = {},
) {
  return callRoute(handler, url, { method: 'POST', body, params, headers: { Cookie: cookie } })
}

/** A new unpaid ad of the owner's, saved with a photo through the JSON-less approve call; returns its row. */
async function unpaidAd(title = 'Fish Fry Friday') {
  const res = await post(
    approveEvent,
    '/api/approve-event',
    approveBody({ eventData: { eventTitle: title }, image: png }),
  )
  expect(res.status).toBe(200)
  const { eventID } = (await res.json()) as { eventID: number }
  return (await row(eventID))!
}

async function row(eventID: number) {
  const [found] = await db.select().from(events).where(eq(events.eventID, eventID))
  return found
}

async function countOwnerEvents() {
  return (await db.select({ id: events.eventID }).from(events).where(eq(events.businessID, owner.businessID)))
    .length
}

function getEdit(id: string | number, cookie = ownerCookie) {
  return callRoute(editLoader, `/dashboard/events/${id}/edit`, {
    params: { id: String(id) },
    headers: cookie ? { Cookie: cookie } : {},
  })
}

describe('the edit form (GET /dashboard/events/{id}/edit)', () => {
  test("opens the owner's unpaid ad filled in, with its saved media", async () => {
    const ad = await unpaidAd('Filled In')
    const res = await getEdit(ad.eventID)
    expect(res.status).toBe(200)
    const body = (await res.json()) as {
      eventID: number
      initial: Record<string, unknown>
      savedMedia: { stillPhotoPath: string; videoPath: string }
    }
    expect(body.eventID).toBe(ad.eventID)
    expect(body.initial).toEqual({
      eventTitle: 'Filled In',
      eventDescription: 'All-you-can-eat fish with two sides.',
      eventCategory: ['Food & Drink'],
      showAdDates: days(3),
      eventDate: '1989-01-01',
      contactPerson: 'Pat Fry',
      contactPhone: owner.businessPhone,
      contactEmail: owner.businessEmail,
      ...EMPTY_PRACTICAL_FACTS,
      startTime: null,
      endTime: null,
    })
    expect(body.savedMedia.stillPhotoPath).toBe(ad.stillPhotoURL)
    expect(ad.stillPhotoURL).toMatch(/^\/api\/media\//)
  })

  test('the old "Edit Event" address leads to this form', async () => {
    const ad = await unpaidAd('Old Address')
    const res = await callRoute(newEventLoader, `/dashboard/events/new?from=${ad.eventID}`, {
      headers: { Cookie: ownerCookie },
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe(`/dashboard/events/${ad.eventID}/edit`)
  })

  test("someone else's ad, a missing one and a malformed id read as not found", async () => {
    const ad = await unpaidAd('Not Theirs')
    for (const [id, cookie] of [
      [ad.eventID, strangerCookie],
      [999999, ownerCookie],
      ['abc', ownerCookie],
      ['99999999999', ownerCookie],
    ] as const) {
      const res = await getEdit(id, cookie)
      expect(res.status, `id ${id}`).toBe(404)
    }
  })

  test.each([
    ['ended', { paymentStatus: 'paid', eventStatus: 'approved', showAdOnDates: days(2, -4) }],
    ['rejected and refunded', { paymentStatus: 'refunded', eventStatus: 'rejected', showAdOnDates: days(2) }],
  ])('a paid ad (%s) is refused with 409 and a message', async (_label, statuses) => {
    const paid = await insertTestEvent(owner, statuses)
    const res = await getEdit(paid.eventID)
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({ message: AD_NOT_EDITABLE_MESSAGE })
  })

  test('signed out, it sends the visitor to sign in', async () => {
    const ad = await unpaidAd('Signed Out')
    const res = await getEdit(ad.eventID, '')
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toMatch(/^\/login\?redirectTo=/)
  })

  test('the public page offers "Edit Event" for an ad that may still be edited, not a refunded one', async () => {
    const ad = await unpaidAd('Offer Edit')
    const paid = await insertTestEvent(owner, {
      paymentStatus: 'refunded',
      eventStatus: 'rejected',
      showAdOnDates: days(2),
    })
    const page = (id: number) =>
      callRoute(eventPageLoader, `/event/${id}`, {
        params: { id: String(id) },
        headers: { Cookie: ownerCookie },
      })
    expect(((await (await page(ad.eventID)).json()) as { editable: boolean }).editable).toBe(true)
    expect(((await (await page(paid.eventID)).json()) as { editable: boolean }).editable).toBe(false)
  })
})

describe('saving an edit with JavaScript (POST /api/approve-event with eventID)', () => {
  test('rewrites the same ad, keeps its photo, and leaves no second ad', async () => {
    const ad = await unpaidAd('Before Edit')
    const before = await countOwnerEvents()
    const res = await post(
      approveEvent,
      '/api/approve-event',
      approveBody({
        eventID: String(ad.eventID),
        eventData: {
          eventTitle: 'After Edit',
          eventCategory: ['Concert', 'Nightlife'],
          eventDate: days(1, 6)[0],
        },
        selectedDates: days(8),
      }),
    )
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ eventID: ad.eventID })
    expect(await countOwnerEvents()).toBe(before)
    expect(await row(ad.eventID)).toMatchObject({
      eventTitle: 'After Edit',
      category: ['Concert', 'Nightlife'],
      showAdOnDates: days(8),
      eventDate: days(1, 6)[0],
      daysOrdered: 8,
      totalCost: 49,
      firstShowDate: days(8)[0],
      lastShowDate: days(8)[7],
      stillPhotoURL: ad.stillPhotoURL,
      paymentStatus: 'pending',
      eventStatus: 'pending',
    })
    const session = await sessionStorage.getSession(res.headers.get('Set-Cookie'))
    expect(getEventPaymentData(session)).toMatchObject({ eventID: ad.eventID, totalAmount: 49 })
  })

  test('a new photo replaces the old one: one photo row, and the stored URL changes', async () => {
    const ad = await unpaidAd('New Photo')
    const res = await post(
      approveEvent,
      '/api/approve-event',
      approveBody({ eventID: String(ad.eventID), eventData: { eventTitle: 'New Photo' }, image: otherPng }),
    )
    expect(res.status).toBe(200)
    const after = (await row(ad.eventID))!
    expect(after.stillPhotoURL).toMatch(/^\/api\/media\//)
    expect(after.stillPhotoURL).not.toBe(ad.stillPhotoURL)
    const media = await db.select().from(eventMedia).where(eq(eventMedia.eventID, ad.eventID))
    expect(media.map((m) => [m.mediaType, m.mediaUrl])).toEqual([['photo', after.stillPhotoURL]])
  })

  test("someone else's ad is refused (404) and stays as it was", async () => {
    const ad = await unpaidAd('Guarded')
    const res = await post(
      approveEvent,
      '/api/approve-event',
      approveBody({ eventID: String(ad.eventID), eventData: { eventTitle: 'Hijacked' } }),
      { cookie: strangerCookie },
    )
    expect(res.status).toBe(404)
    expect((await row(ad.eventID))!.eventTitle).toBe('Guarded')
    const theirs = await db.select().from(events).where(eq(events.businessID, stranger.businessID))
    expect(theirs).toEqual([])
  })

  test('an ended ad is refused (409) and stays as it was', async () => {
    const paid = await insertTestEvent(owner, {
      paymentStatus: 'paid',
      eventStatus: 'approved',
      showAdOnDates: days(2, -4),
    })
    const before = await countOwnerEvents()
    const res = await post(
      approveEvent,
      '/api/approve-event',
      approveBody({ eventID: String(paid.eventID), eventData: { eventTitle: 'Changed After Paying' } }),
    )
    expect(res.status).toBe(409)
    expect(((await res.json()) as { message: string }).message).toBe(AD_NOT_EDITABLE_MESSAGE)
    expect((await row(paid.eventID))!.eventTitle).toBe(paid.eventTitle)
    expect(await countOwnerEvents()).toBe(before)
  })

  test.each(['abc', '0', '-4', '1.5', '99999999999'])('eventID %j is a 400', async (eventID) => {
    const before = await countOwnerEvents()
    const res = await post(approveEvent, '/api/approve-event', approveBody({ eventID }))
    expect(res.status).toBe(400)
    expect(await countOwnerEvents()).toBe(before)
  })

  test('a checkout left open for the ad as it was is cancelled, so the old price cannot pay for new dates', async () => {
    const ad = await unpaidAd('Open Checkout')
    const setup = await setUpEventPayment({
      businessID: owner.businessID,
      eventID: ad.eventID,
      claimedTotalDollars: ad.totalCost,
      paying: false,
    })
    const res = await post(
      approveEvent,
      '/api/approve-event',
      approveBody({
        eventID: String(ad.eventID),
        eventData: { eventTitle: 'Open Checkout' },
        selectedDates: days(10),
      }),
    )
    expect(res.status).toBe(200)
    expect((await testProvider().retrieveIntent(setup.paymentIntentId))?.status).toBe('canceled')
    const fresh = await setUpEventPayment({
      businessID: owner.businessID,
      eventID: ad.eventID,
      claimedTotalDollars: 49,
      paying: false,
    })
    expect(fresh.paymentIntentId).not.toBe(setup.paymentIntentId)
    expect(fresh.totalCents).toBe(4900)
  })

  test('an ad whose payment went through unrecorded is recorded as paid and refused', async () => {
    const ad = await unpaidAd('Paid Unrecorded')
    const setup = await setUpEventPayment({
      businessID: owner.businessID,
      eventID: ad.eventID,
      claimedTotalDollars: ad.totalCost,
      paying: false,
    })
    await testProvider().confirmCard(setup.paymentIntentId, {
      number: '4242424242424242',
      expiry: '12/40',
      cvc: '123',
    })
    const res = await post(
      approveEvent,
      '/api/approve-event',
      approveBody({ eventID: String(ad.eventID), eventData: { eventTitle: 'Too Late' } }),
    )
    expect(res.status).toBe(409)
    expect(await res.json()).toMatchObject({ message: PAID_MEANWHILE_MESSAGE })
    expect(await row(ad.eventID)).toMatchObject({ eventTitle: 'Paid Unrecorded', paymentStatus: 'paid' })
  })
})

describe('saving an edit without JavaScript (edit form → preview page → approve)', () => {
  function planForm(title: string) {
    return plainEventForm({
      eventTitle: title,
      eventDescription: 'Edited without scripts.',
      eventCategory: ['Community'],
      showAdDates: days(2, 3),
      eventDate: '',
      contactPerson: 'Pat Fry',
    })
  }

  test('the preview shows the saved photo and the business links; approving rewrites the same ad', async () => {
    const ad = await unpaidAd('Plain Before')
    const before = await countOwnerEvents()
    const staged = await post(editAction, `/dashboard/events/${ad.eventID}/edit`, planForm('Plain After'), {
      params: { id: String(ad.eventID) },
    })
    expect(staged.status).toBe(302)
    expect(staged.headers.get('Location')).toBe('/dashboard/events/preview')

    const back = await getEdit(ad.eventID)
    expect(((await back.json()) as { initial: { eventTitle: string } }).initial.eventTitle).toBe(
      'Plain After',
    )

    const preview = await callRoute(previewLoader, '/dashboard/events/preview', {
      headers: { Cookie: ownerCookie },
    })
    const { card } = (await preview.json()) as { card: CustomerCardData }
    expect(card).toMatchObject({ eventTitle: 'Plain After', stillPhotoPath: ad.stillPhotoURL, ...LINKS })

    const approve = new FormData()
    approve.set('intent', 'approve')
    const done = await post(previewAction, '/dashboard/events/preview', approve)
    expect(done.status).toBe(302)
    expect(done.headers.get('Location')).toBe('/checkout')
    expect(await countOwnerEvents()).toBe(before)
    expect(await row(ad.eventID)).toMatchObject({
      eventTitle: 'Plain After',
      category: ['Community'],
      showAdOnDates: days(2, 3),
      stillPhotoURL: ad.stillPhotoURL,
    })

    // What the advertiser previewed is what the public page shows.
    const publicPage = await callRoute(eventPageLoader, `/event/${ad.eventID}?viewMode=true`, {
      params: { id: String(ad.eventID) },
      headers: { Cookie: ownerCookie },
    })
    expect(((await publicPage.json()) as { card: CustomerCardData }).card).toEqual(card)
  })

  test("posting the edit form of someone else's ad is refused and stages nothing", async () => {
    const ad = await unpaidAd('Plain Guarded')
    const res = await post(editAction, `/dashboard/events/${ad.eventID}/edit`, planForm('Plain Hijack'), {
      cookie: strangerCookie,
      params: { id: String(ad.eventID) },
    })
    expect(res.status).toBe(404)
    const preview = await callRoute(previewLoader, '/dashboard/events/preview', {
      headers: { Cookie: strangerCookie },
    })
    expect(preview.status).toBe(302)
  })

  test('an ended ad cannot be staged for editing', async () => {
    const paid = await insertTestEvent(owner, {
      paymentStatus: 'paid',
      eventStatus: 'approved',
      showAdOnDates: days(2, -4),
    })
    const res = await post(editAction, `/dashboard/events/${paid.eventID}/edit`, planForm('Plain Paid'), {
      params: { id: String(paid.eventID) },
    })
    expect(res.status).toBe(409)
  })
})

describe('the preview of a new ad', () => {
  test('builds the same card as the public page shows for the saved ad, business links included', async () => {
    const body = new FormData()
    body.set('eventTitle', 'Brand New')
    body.set('eventDescription', 'Fresh from the form.')
    body.append('eventCategory', 'Special')
    body.append('showAdDates', days(1)[0]!)
    body.set('contactPerson', 'Pat Fry')
    const { action: newEventAction } = await import('#app/routes/dashboard.events.new.tsx')
    expect((await post(newEventAction, '/dashboard/events/new', body)).status).toBe(302)
    const preview = await callRoute(previewLoader, '/dashboard/events/preview', {
      headers: { Cookie: ownerCookie },
    })
    const { card } = (await preview.json()) as { card: CustomerCardData }
    expect(card).toMatchObject(LINKS)

    const approve = new FormData()
    approve.set('intent', 'approve')
    await post(previewAction, '/dashboard/events/preview', approve)
    const [saved] = await db.select().from(events).where(eq(events.eventTitle, 'Brand New'))
    const publicPage = await callRoute(eventPageLoader, `/event/${saved!.eventID}?viewMode=true`, {
      params: { id: String(saved!.eventID) },
      headers: { Cookie: ownerCookie },
    })
    expect(((await publicPage.json()) as { card: CustomerCardData }).card).toEqual(card)
  })
})
