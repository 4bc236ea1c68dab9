import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { showDateBounds } from '#app/models/ads/event-dates.ts'
import { loader as apiEventLoader } from '#app/routes/api.events.$id.ts'
import { action, loader } from '#app/routes/event.$id.tsx'
import { getEnv } from '#app/services/platform/env.server.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { getToast } from '#app/services/http/toast.server.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness, insertUser } from '#db/factories.ts'
import { events, type Business, type NewEvent } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { callRoute } from '#tests/support/routes.ts'

const today = todayInZone(getEnv().APP_TIME_ZONE)

/** What a visitor must not learn of a live ad: its price, days bought, payment and approvals, provider ids. */
const BUSINESS_INTERNALS = [
  'totalCost',
  'daysOrdered',
  'paymentStatus',
  'eventStatus',
  'approvedDateByBusiness',
  'approvedDateByAdmin',
  'payment_intent_id',
  'reviewedByUserId',
  'createdDate',
]

/** An events row as the seed writes one (live unless overridden). */
async function insertEvent(owner: Business, overrides: Partial<NewEvent> = {}) {
  const showAdOnDates = overrides.showAdOnDates ?? [today, addDaysIso(today, 1)]
  const eventDate = overrides.eventDate ?? '1989-01-01'
  const [row] = await db
    .insert(events)
    .values({
      businessID: owner.businessID,
      businessName: owner.businessName,
      eventTitle: 'Harvest Festival',
      eventDescription: 'Hayrides, pie contest and live bluegrass.',
      category: ['Community'],
      showAdOnDates,
      eventDate,
      ...showDateBounds(eventDate, showAdOnDates),
      daysOrdered: showAdOnDates.length,
      totalCost: 29,
      approvedDateByBusiness: today,
      approvedDateByAdmin: today,
      paymentStatus: 'paid',
      eventStatus: 'approved',
      payment_intent_id: 'pi_secret_123',
      ...overrides,
    })
    .returning()
  return row!
}

async function setUp() {
  const owner = await insertBusiness(db, {
    businessName: 'Harvest Farm',
    facebookURL: 'https://facebook.com/harvest',
  })
  const stranger = await insertBusiness(db, { businessName: 'Somebody Else' })
  const live = await insertEvent(owner)
  const pending = await insertEvent(owner, {
    eventTitle: 'Draft Ad',
    paymentStatus: 'pending',
    eventStatus: 'pending',
    approvedDateByBusiness: '1989-01-01',
    approvedDateByAdmin: '1989-01-01',
    payment_intent_id: null,
  })
  const yesterday = addDaysIso(today, -1)
  const ended = await insertEvent(owner, {
    eventTitle: 'Last Week',
    showAdOnDates: [addDaysIso(today, -3), yesterday],
  })
  const awaitingReview = await insertEvent(owner, { eventTitle: 'Under Review', eventStatus: 'pending' })
  return {
    owner,
    stranger,
    live,
    pending,
    ended,
    awaitingReview,
    ownerCookie: await sessionCookieFor({ business: owner }),
    strangerCookie: await sessionCookieFor({ business: stranger }),
  }
}

function get(id: string | number, { viewMode = true, cookie }: { viewMode?: boolean; cookie?: string } = {}) {
  const path = `/event/${id}${viewMode ? '?viewMode=true' : ''}`
  return callRoute(loader, path, { params: { id: String(id) }, headers: cookie ? { Cookie: cookie } : {} })
}

function getApi(id: string | number, cookie?: string) {
  return callRoute(apiEventLoader, `/api/events/${id}`, {
    params: { id: String(id) },
    headers: cookie ? { Cookie: cookie } : {},
  })
}

async function expectEventNotFound(res: Response) {
  expect(res.status).toBe(404)
  // The specification's text, written out: the answer must not drift from it.
  expect(await res.json()).toEqual({
    message: "The event you're looking for doesn't exist or has been removed.",
  })
}

describe('/event/{id}?viewMode=true', () => {
  test('anyone sees a live event, without provider bookkeeping', async () => {
    const { live, owner } = await setUp()
    const res = await get(live.eventID)
    expect(res.status).toBe(200)
    const body = (await res.json()) as { event: Record<string, unknown>; viewMode: boolean; isOwner: boolean }
    expect(body.viewMode).toBe(true)
    expect(body.isOwner).toBe(false)
    expect(body.event).toMatchObject({
      eventID: live.eventID,
      eventTitle: 'Harvest Festival',
      businessName: owner.businessName,
      businessAddress: owner.businessAddress,
      facebookURL: 'https://facebook.com/harvest',
    })
    expect(body.event).not.toHaveProperty('payment_intent_id')
  })

  test('an event that is not live is not found for visitors and other businesses', async () => {
    const { pending, ended, awaitingReview, strangerCookie } = await setUp()
    for (const event of [pending, ended, awaitingReview]) {
      await expectEventNotFound(await get(event.eventID))
      await expectEventNotFound(await get(event.eventID, { cookie: strangerCookie }))
    }
  })

  test('the owner sees its own event whatever its status', async () => {
    const { pending, ended, awaitingReview, ownerCookie } = await setUp()
    for (const event of [pending, ended, awaitingReview]) {
      const res = await get(event.eventID, { cookie: ownerCookie })
      expect(res.status).toBe(200)
      const body = (await res.json()) as { event: { eventID: number }; isOwner: boolean }
      expect(body).toMatchObject({ event: { eventID: event.eventID }, isOwner: true })
    }
  })

  test.each(['999999', 'abc', '12abc', '0', '99999999999'])('id %j is Event Not Found', async (id) => {
    await expectEventNotFound(await get(id))
  })
})

describe('/event/{id} without viewMode (the owner preview)', () => {
  test('the owner gets the preview with the status of the ad', async () => {
    const { pending, ownerCookie } = await setUp()
    const res = await get(pending.eventID, { viewMode: false, cookie: ownerCookie })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({
      viewMode: false,
      isOwner: true,
      statusLabel: 'Awaiting payment',
      event: { eventID: pending.eventID, paymentStatus: 'pending' },
    })
  })

  test('anyone else gets Event Not Found, even for a live event', async () => {
    const { live, pending, strangerCookie } = await setUp()
    await expectEventNotFound(await get(live.eventID, { viewMode: false }))
    await expectEventNotFound(await get(live.eventID, { viewMode: false, cookie: strangerCookie }))
    await expectEventNotFound(await get(pending.eventID, { viewMode: false, cookie: strangerCookie }))
  })
})

describe('GET /api/events/{id}', () => {
  test('a live event as JSON', async () => {
    const { live } = await setUp()
    const res = await getApi(live.eventID)
    expect(res.status).toBe(200)
    const body = (await res.json()) as Record<string, unknown>
    expect(body).toMatchObject({
      eventID: live.eventID,
      eventTitle: 'Harvest Festival',
      stillPhotoPath: '',
      videoPath: '',
    })
    expect(body).not.toHaveProperty('payment_intent_id')
  })

  test('not live, unknown or malformed: 404 {"message":"Event not found"}', async () => {
    const { pending, ended, strangerCookie } = await setUp()
    for (const [id, cookie] of [
      [pending.eventID, undefined],
      [ended.eventID, strangerCookie],
      ['999999', undefined],
      ['abc', undefined],
    ] as const) {
      const res = await getApi(id, cookie)
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({ message: 'Event not found' })
    }
  })

  test("a visitor or another business gets the public fields only, none of the business's dealings", async () => {
    const { live, strangerCookie } = await setUp()
    for (const cookie of [undefined, strangerCookie]) {
      const body = (await (await getApi(live.eventID, cookie)).json()) as Record<string, unknown>
      expect(body).toMatchObject({ eventID: live.eventID, eventTitle: 'Harvest Festival' })
      for (const internal of BUSINESS_INTERNALS) expect(body).not.toHaveProperty(internal)
    }
  })

  test('its owner and administrators get the whole event', async () => {
    const { live, ownerCookie } = await setUp()
    const adminCookie = await sessionCookieFor({ user: await insertUser(db, { roles: ['admin'] }) })
    for (const cookie of [ownerCookie, adminCookie]) {
      const res = await getApi(live.eventID, cookie)
      expect(res.headers.get('Vary')).toMatch(/Cookie/)
      expect(await res.json()).toMatchObject({
        totalCost: 29,
        daysOrdered: 2,
        paymentStatus: 'paid',
        approvedDateByAdmin: today,
        approvedDateByBusiness: today,
      })
    }
  })

  test('the owner gets its own event whatever its status', async () => {
    const { pending, ownerCookie } = await setUp()
    const res = await getApi(pending.eventID, ownerCookie)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ eventID: pending.eventID, eventTitle: 'Draft Ad' })
  })
})

describe('Confirm Ad', () => {
  function post(id: number | string, cookie: string | undefined, intent = 'confirm') {
    return callRoute(action, `/event/${id}`, {
      method: 'POST',
      params: { id: String(id) },
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(cookie ? { Cookie: cookie } : {}) },
      body: new URLSearchParams({ intent }).toString(),
    })
  }

  async function approvedDate(eventID: number) {
    const [row] = await db.select().from(events).where(eq(events.eventID, eventID))
    return row!.approvedDateByBusiness
  }

  test('sets approvedDateByBusiness to today and goes to checkout with a success toast', async () => {
    const { pending, ownerCookie } = await setUp()
    const res = await post(pending.eventID, ownerCookie)
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe(`/checkout?eventID=${pending.eventID}`)
    expect(await approvedDate(pending.eventID)).toBe(today)

    const toastCookie = res.headers.get('Set-Cookie')!.split(';')[0]!
    const { toast } = await getToast(new Request('http://localhost/', { headers: { Cookie: toastCookie } }))
    expect(toast).toMatchObject({
      title: 'Success!',
      description: 'Your ad has been approved and saved to the database.',
    })
  })

  test("another business's event is not found and stays unchanged", async () => {
    const { pending, strangerCookie } = await setUp()
    await expectEventNotFound(await post(pending.eventID, strangerCookie))
    expect(await approvedDate(pending.eventID)).toBe('1989-01-01')
  })

  test('signed out, the visitor is sent to sign in', async () => {
    const { pending } = await setUp()
    const res = await post(pending.eventID, undefined)
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toMatch(/^\/login\?redirectTo=/)
    expect(await approvedDate(pending.eventID)).toBe('1989-01-01')
  })

  test('an unknown intent is a 400', async () => {
    const { pending, ownerCookie } = await setUp()
    const res = await post(pending.eventID, ownerCookie, 'delete')
    expect(res.status).toBe(400)
    expect(await approvedDate(pending.eventID)).toBe('1989-01-01')
  })

  test('an ad already paid is not sent to checkout again', async () => {
    const { live, ownerCookie } = await setUp()
    const res = await post(live.eventID, ownerCookie)
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe(`/event/${live.eventID}?viewMode=true`)
  })
})

describe('/event/{id}-{slug}: the public address', () => {
  function getAt(path: string, cookie?: string) {
    const segment = path.slice('/event/'.length).split('?')[0]!
    return callRoute(loader, path, { params: { id: segment }, headers: cookie ? { Cookie: cookie } : {} })
  }

  test('shows a live event to anyone, as ?viewMode=true does', async () => {
    const { live } = await setUp()
    const res = await getAt(`/event/${live.eventID}-harvest-festival`)
    expect(res.status).toBe(200)
    const body = (await res.json()) as {
      event: { eventID: number }
      viewMode: boolean
      seo: { canonicalUrl: string }
    }
    expect(body).toMatchObject({ event: { eventID: live.eventID }, viewMode: true })
    expect(body.seo.canonicalUrl).toBe(`http://localhost/event/${live.eventID}-harvest-festival`)
    // The spec's address names the same canonical one.
    const viewMode = (await (await get(live.eventID)).json()) as { seo: { canonicalUrl: string } }
    expect(viewMode.seo.canonicalUrl).toBe(body.seo.canonicalUrl)
  })

  test('a stale or foreign slug is sent on to the current address, its query kept', async () => {
    const { live } = await setUp()
    for (const slug of ['old-title', 'HARVEST-FESTIVAL-2', 'x']) {
      const res = await getAt(`/event/${live.eventID}-${slug}?from=newsletter`)
      expect(res.status, slug).toBe(301)
      expect(res.headers.get('Location')).toBe(`/event/${live.eventID}-harvest-festival?from=newsletter`)
    }
    await db
      .update(events)
      .set({ eventTitle: 'Harvest Festival & Fair' })
      .where(eq(events.eventID, live.eventID))
    const renamed = await getAt(`/event/${live.eventID}-harvest-festival`)
    expect(renamed.headers.get('Location')).toBe(`/event/${live.eventID}-harvest-festival-fair`)
  })

  test('an event that is not live is the same "not found" at any slug, so its title is not revealed', async () => {
    const { pending, ended, awaitingReview, strangerCookie, ownerCookie } = await setUp()
    for (const event of [pending, ended, awaitingReview]) {
      await expectEventNotFound(await getAt(`/event/${event.eventID}-anything`))
      await expectEventNotFound(await getAt(`/event/${event.eventID}-anything`, strangerCookie))
    }
    // Its owner sees it there, as with ?viewMode=true.
    const own = await getAt(`/event/${pending.eventID}-draft-ad`, ownerCookie)
    expect(own.status).toBe(200)
    expect(((await own.json()) as { viewMode: boolean }).viewMode).toBe(true)
  })

  test('hostile addresses are not found', async () => {
    await setUp()
    for (const segment of ['0-x', '1-', '1-a b', '1-%3Cscript%3E', '99999999999-x', '1-../admin']) {
      await expectEventNotFound(await callRoute(loader, `/event/x`, { params: { id: segment } }))
    }
  })
})
