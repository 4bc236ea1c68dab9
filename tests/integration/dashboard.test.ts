import { describe, expect, test } from 'vitest'
import { showDateBounds } from '#app/models/ads/event-dates.ts'
import { loader as clickStatsLoader } from '#app/routes/api.business.$id.click-stats.ts'
import { loader as eventsLoader } from '#app/routes/api.business.$id.events.ts'
import { loader as dashboardLoader } from '#app/routes/dashboard.tsx'
import { getEnv } from '#app/services/platform/env.server.ts'
import { addDaysIso, monthBounds, todayInZone } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { clickCount, events, payments, type Business, type NewEvent } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { callRoute } from '#tests/support/routes.ts'

const today = todayInZone(getEnv().APP_TIME_ZONE)
const { first, last } = monthBounds(today)

/** An events row as the seed writes one. */
async function insertEvent(owner: Business, overrides: Partial<NewEvent> = {}) {
  const showAdOnDates = overrides.showAdOnDates ?? [
    addDaysIso(today, 1),
    addDaysIso(today, 2),
    addDaysIso(today, 3),
  ]
  const eventDate = overrides.eventDate ?? '1989-01-01'
  const [row] = await db
    .insert(events)
    .values({
      businessID: owner.businessID,
      businessName: owner.businessName,
      eventTitle: 'Spring Pancake Breakfast',
      eventDescription: 'All-you-can-eat pancakes for the library fund.',
      category: ['Fundraiser'],
      showAdOnDates,
      eventDate,
      ...showDateBounds(eventDate, showAdOnDates),
      daysOrdered: showAdOnDates.length,
      totalCost: 29,
      contactPerson: owner.businessContact,
      contactEmail: owner.businessEmail,
      contactPhone: owner.businessPhone,
      approvedDateByBusiness: today,
      paymentStatus: 'paid',
      eventStatus: 'approved',
      ...overrides,
    })
    .returning()
  return row!
}

async function insertClicks(
  owner: Business,
  eventID: number,
  clickDate: string,
  { clicks = 0, bounces = 0 },
) {
  const rows = [
    ...Array.from({ length: clicks }, () => ({ bounceClick: false })),
    ...Array.from({ length: bounces }, () => ({ bounceClick: true })),
  ].map((r, i) => ({ ...r, businessID: owner.businessID, eventID, clickDate, userIPaddress: `visitor-${i}` }))
  if (rows.length) await db.insert(clickCount).values(rows)
}

async function setUp() {
  const owner = await insertBusiness(db, { businessName: 'Blue Door Cafe' })
  const other = await insertBusiness(db, { businessName: 'Other Shop' })
  const live = await insertEvent(owner, {
    eventTitle: 'Jazz Night',
    stillPhotoURL: '/api/media/2026-01-01_1.webp',
  })
  const unpaid = await insertEvent(owner, {
    eventTitle: 'Open Mic',
    paymentStatus: 'pending',
    eventStatus: 'pending',
  })
  const foreign = await insertEvent(other, { eventTitle: 'Not Yours' })
  await db.insert(payments).values({
    eventID: live.eventID,
    payment_status: 'paid',
    receipt_url: 'https://pay.example/receipt/1',
    payment_intent_id: `pi_${live.eventID}`,
  })

  // This month: 3 clicks + 2 bounces on one event, 1 click on the other.
  await insertClicks(owner, live.eventID, today, { clicks: 2, bounces: 1 })
  await insertClicks(owner, live.eventID, first, { clicks: 1, bounces: 1 })
  await insertClicks(owner, unpaid.eventID, last, { clicks: 1 })
  // Outside this month: never counted.
  await insertClicks(owner, live.eventID, addDaysIso(first, -1), { clicks: 5, bounces: 5 })
  await insertClicks(owner, live.eventID, addDaysIso(last, 1), { clicks: 4, bounces: 4 })
  // Another business's clicks.
  await insertClicks(other, foreign.eventID, today, { clicks: 7, bounces: 7 })

  const cookie = await sessionCookieFor({ business: owner })
  return { owner, other, live, unpaid, foreign, cookie }
}

describe('dashboard', () => {
  test('signed out, the dashboard sends the visitor to the sign-in page and back', async () => {
    const res = await callRoute(dashboardLoader, '/dashboard')
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/login?redirectTo=%2Fdashboard')
  })

  test('shows only the business own events with this month clicks and bounces', async () => {
    const { owner, live, unpaid, cookie } = await setUp()
    const res = await callRoute(dashboardLoader, '/dashboard', { headers: { Cookie: cookie } })
    expect(res.status).toBe(200)
    const body = (await res.json()) as {
      businessName: string
      events: Array<{
        eventID: number
        eventTitle: string
        clicks: number
        bounces: number
        statusLabel: string
        receiptUrl: string | null
      }>
    }
    expect(body.businessName).toBe(owner.businessName)
    expect(body.events.map((e) => e.eventID).sort()).toEqual([live.eventID, unpaid.eventID].sort())
    const byId = new Map(body.events.map((e) => [e.eventID, e]))
    expect(byId.get(live.eventID)).toMatchObject({
      clicks: 3,
      bounces: 2,
      statusLabel: 'Live',
      receiptUrl: 'https://pay.example/receipt/1',
    })
    expect(byId.get(unpaid.eventID)).toMatchObject({
      clicks: 1,
      bounces: 0,
      statusLabel: 'Awaiting payment',
      receiptUrl: null,
    })
  })

  test('a business without events gets an empty gallery', async () => {
    const lonely = await insertBusiness(db)
    const cookie = await sessionCookieFor({ business: lonely })
    const body = (await (
      await callRoute(dashboardLoader, '/dashboard', { headers: { Cookie: cookie } })
    ).json()) as {
      events: unknown[]
    }
    expect(body.events).toEqual([])
  })
})

describe('GET /api/business/{id}/events', () => {
  test('lists the business own events with their business details', async () => {
    const { owner, live, unpaid, cookie } = await setUp()
    const res = await callRoute(eventsLoader, `/api/business/${owner.businessID}/events`, {
      params: { id: String(owner.businessID) },
      headers: { Cookie: cookie },
    })
    expect(res.status).toBe(200)
    const body = (await res.json()) as Array<Record<string, unknown>>
    expect(body.map((e) => e.eventID).sort()).toEqual([live.eventID, unpaid.eventID].sort())
    const jazz = body.find((e) => e.eventID === live.eventID)!
    expect(jazz).toMatchObject({
      eventTitle: 'Jazz Night',
      businessID: owner.businessID,
      businessAddress: owner.businessAddress,
      businessPhone: owner.businessPhone,
      stillPhotoPath: '/api/media/2026-01-01_1.webp',
      videoPath: '',
      receiptUrl: 'https://pay.example/receipt/1',
    })
  })

  test('another business id is 403', async () => {
    const { other, cookie } = await setUp()
    const res = await callRoute(eventsLoader, `/api/business/${other.businessID}/events`, {
      params: { id: String(other.businessID) },
      headers: { Cookie: cookie },
    })
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({ message: expect.any(String) })
  })

  test('signed out is 401 JSON', async () => {
    const res = await callRoute(eventsLoader, '/api/business/1/events', { params: { id: '1' } })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ message: 'Unauthorized' })
  })
})

describe('GET /api/business/{id}/click-stats', () => {
  test('one row per event with clicks and bounces of this month only', async () => {
    const { owner, live, unpaid, cookie } = await setUp()
    const res = await callRoute(clickStatsLoader, `/api/business/${owner.businessID}/click-stats`, {
      params: { id: String(owner.businessID) },
      headers: { Cookie: cookie },
    })
    expect(res.status).toBe(200)
    const body = (await res.json()) as Array<{ eventID: number; totalClicks: number; totalBounces: number }>
    expect(body.sort((a, b) => a.eventID - b.eventID)).toEqual(
      [
        { eventID: live.eventID, totalClicks: 3, totalBounces: 2 },
        { eventID: unpaid.eventID, totalClicks: 1, totalBounces: 0 },
      ].sort((a, b) => a.eventID - b.eventID),
    )
  })

  test('another business id is 403, a non-numeric id too', async () => {
    const { other, cookie } = await setUp()
    for (const id of [String(other.businessID), 'abc']) {
      const res = await callRoute(clickStatsLoader, `/api/business/${id}/click-stats`, {
        params: { id },
        headers: { Cookie: cookie },
      })
      expect(res.status).toBe(403)
    }
  })

  test('signed out is 401 JSON', async () => {
    const res = await callRoute(clickStatsLoader, '/api/business/1/click-stats', { params: { id: '1' } })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ message: 'Unauthorized' })
  })
})
