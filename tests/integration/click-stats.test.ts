import { describe, expect, test } from 'vitest'
import { loader as clickStatsLoader } from '#app/routes/api.business.$id.click-stats.ts'
import { getEnv } from '#app/services/platform/env.server.ts'
import { addDaysIso, monthBounds, todayInZone } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { clickCount, type Business } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'

const today = todayInZone(getEnv().APP_TIME_ZONE)
const { first } = monthBounds(today)
const lastMonth = addDaysIso(first, -1)

type Stat = { eventID: number; totalClicks: number; totalBounces: number }

async function addVisits(owner: Business, eventID: number, clickDate: string, { clicks = 0, bounces = 0 }) {
  const rows = [
    ...Array.from({ length: clicks }, () => ({ bounceClick: false })),
    ...Array.from({ length: bounces }, () => ({ bounceClick: true })),
  ].map((r, i) => ({ ...r, businessID: owner.businessID, eventID, clickDate, userIPaddress: `visitor-${i}` }))
  if (rows.length) await db.insert(clickCount).values(rows)
}

async function statsOf(owner: Business) {
  const response = await callRoute(clickStatsLoader, `/api/business/${owner.businessID}/click-stats`, {
    params: { id: String(owner.businessID) },
    headers: { Cookie: await sessionCookieFor({ business: owner }) },
  })
  expect(response.status).toBe(200)
  return (await response.json()) as Stat[]
}

describe('GET /api/business/{id}/click-stats', () => {
  test('one row per event of the business, ads without activity this month included with zeros', async () => {
    const owner = await insertBusiness(db, { businessName: 'Five Ads Diner' })
    const neighbour = await insertBusiness(db, { businessName: 'Neighbour' })
    const busy = await insertTestEvent(owner, { showAdOnDates: [addDaysIso(today, 1)] })
    const bouncedOnly = await insertTestEvent(owner, { showAdOnDates: [addDaysIso(today, 1)] })
    const quiet = await insertTestEvent(owner, { showAdOnDates: [addDaysIso(today, 2)] })
    const unpaid = await insertTestEvent(owner, { paymentStatus: 'pending', eventStatus: 'pending' })
    const onlyLastMonth = await insertTestEvent(owner, { showAdOnDates: [addDaysIso(today, 3)] })
    const foreign = await insertTestEvent(neighbour, { showAdOnDates: [addDaysIso(today, 1)] })

    await addVisits(owner, busy.eventID, today, { clicks: 3, bounces: 2 })
    await addVisits(owner, bouncedOnly.eventID, today, { bounces: 1 })
    await addVisits(owner, onlyLastMonth.eventID, lastMonth, { clicks: 4, bounces: 4 })
    await addVisits(neighbour, foreign.eventID, today, { clicks: 7 })

    expect(await statsOf(owner)).toEqual([
      { eventID: busy.eventID, totalClicks: 3, totalBounces: 2 },
      { eventID: bouncedOnly.eventID, totalClicks: 0, totalBounces: 1 },
      { eventID: quiet.eventID, totalClicks: 0, totalBounces: 0 },
      { eventID: unpaid.eventID, totalClicks: 0, totalBounces: 0 },
      { eventID: onlyLastMonth.eventID, totalClicks: 0, totalBounces: 0 },
    ])
    expect(await statsOf(neighbour)).toEqual([{ eventID: foreign.eventID, totalClicks: 7, totalBounces: 0 }])
  })

  test('a business without ads gets an empty list', async () => {
    const newcomer = await insertBusiness(db)
    expect(await statsOf(newcomer)).toEqual([])
  })
})
