import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { ownSimilarAd, possibleDuplicatesOf } from '#app/models/ads/duplicate-ads.server.ts'
import { formatShortDate } from '#app/models/ads/event-times.ts'
import { action as newEventAction } from '#app/routes/dashboard.events.new.tsx'
import * as previewRoute from '#app/routes/dashboard.events.preview.tsx'
import { loader as adminLoader } from '#app/routes/admin.tsx'
import * as adminRoute from '#app/routes/admin.tsx'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { events, type Business } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { days, plainEventForm, useUploadFolder } from '#tests/support/ad-submission.ts'
import { shownAfter, textOf } from '#tests/support/document-request.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'

useUploadFolder('duplicate-ads')

let owner: Business
let ownerCookie: string
let neighbour: Business
/** The owner's dates: days 3 to 5 from today. */
const dates = days(3, 3)

beforeAll(async () => {
  owner = await insertBusiness(db, { businessName: 'Blue Note Club', businessZip: '62704' })
  ownerCookie = await sessionCookieFor({ business: owner })
  neighbour = await insertBusiness(db, { businessName: 'Corner Bar', businessZip: '62704-1234' })
})

const similarTo = (title: string, over: Partial<Parameters<typeof ownSimilarAd>[0]> = {}) =>
  ownSimilarAd({ businessID: owner.businessID, title, dates: [dates[1]!], ...over })

describe("the business's own similar ad", () => {
  let jazz: { eventID: number }
  beforeAll(async () => {
    jazz = await insertTestEvent(owner, { eventTitle: 'Friday Jazz Night', showAdOnDates: dates })
  })

  test.each(['Friday Jazz Night!', 'friday jazz nite', 'Jazz Night'])(
    '"%s" on a date in common is taken for it',
    async (title) => {
      expect(await similarTo(title)).toEqual({
        eventID: jazz.eventID,
        eventTitle: 'Friday Jazz Night',
        date: dates[1],
      })
    },
  )

  test.each(['Friday Night Karaoke', 'Friday Jazz Brunch', 'Open mic'])(
    'a near miss, "%s", is not',
    async (title) => {
      expect(await similarTo(title)).toBeNull()
    },
  )

  test('no date in common, another business, or the ad itself: none', async () => {
    expect(await similarTo('Friday Jazz Night', { dates: days(2, 20) })).toBeNull()
    expect(await similarTo('Friday Jazz Night', { businessID: neighbour.businessID })).toBeNull()
    expect(await similarTo('Friday Jazz Night', { exceptEventID: jazz.eventID })).toBeNull()
  })

  test('unpaid and paid ads count; rejected, refunded and taken-down ones do not', async () => {
    const day = days(1, 30)
    const title = 'Harvest Craft Fair'
    const ad = await insertTestEvent(owner, {
      eventTitle: title,
      showAdOnDates: day,
      paymentStatus: 'pending',
      eventStatus: 'pending',
    })
    const found = () => similarTo(`${title} 2026`, { dates: day })
    expect((await found())?.eventID).toBe(ad.eventID)
    await db.update(events).set({ paymentStatus: 'paid' }).where(eq(events.eventID, ad.eventID))
    expect((await found())?.eventID).toBe(ad.eventID)
    for (const change of [
      { eventStatus: 'rejected' },
      { eventStatus: 'approved', paymentStatus: 'refunded' },
      { eventStatus: 'taken_down', paymentStatus: 'paid' },
    ]) {
      await db.update(events).set(change).where(eq(events.eventID, ad.eventID))
      expect(await found(), JSON.stringify(change)).toBeNull()
    }
    // A near miss in the same place and day.
    expect(await similarTo('Harvest Food Fair', { dates: day })).toBeNull()
  })
})

describe('the preview warns before checkout, and the advertiser may continue', () => {
  const PREVIEW = [{ path: '/dashboard/events/preview', ...previewRoute }]
  let brunch: { eventID: number }

  beforeAll(async () => {
    brunch = await insertTestEvent(owner, { eventTitle: 'Sunday Gospel Brunch', showAdOnDates: days(2, 10) })
  })

  async function previewOf(title: string, showAdDates: string[]) {
    const form = plainEventForm({
      eventTitle: title,
      eventDescription: 'Songs and pancakes.',
      eventCategory: ['Food & Drink'],
      showAdDates,
      eventDate: '',
    })
    const res = await callRoute(newEventAction, '/dashboard/events/new', {
      method: 'POST',
      body: form,
      headers: { Cookie: ownerCookie },
    })
    expect(res.status).toBe(302)
    return shownAfter(PREVIEW, '/dashboard/events/preview', { headers: { Cookie: ownerCookie } })
  }

  test('"You already have …" with a link to that ad', async () => {
    const page = await previewOf('Sunday Gospel Brunch!', days(3, 9))
    expect(page.status).toBe(200)
    const day = days(1, 10)[0]!
    expect(textOf(page.html)).toContain(`You already have “Sunday Gospel Brunch” on ${formatShortDate(day)}.`)
    expect(page.html).toContain(`href="/dashboard/events/${brunch.eventID}"`)
    // Continue anyway: the draft is saved and goes to checkout.
    const approve = new FormData()
    approve.set('intent', 'approve')
    const done = await callRoute(previewRoute.action, '/dashboard/events/preview', {
      method: 'POST',
      body: approve,
      headers: { Cookie: ownerCookie },
    })
    expect(done.status).toBe(302)
    expect(done.headers.get('Location')).toBe('/checkout')
  })

  test('no warning for another title or other dates', async () => {
    for (const page of [
      await previewOf('Sunday Pancake Breakfast', days(3, 9)),
      await previewOf('Sunday Gospel Brunch', days(2, 15)),
    ]) {
      expect(page.status).toBe(200)
      expect(textOf(page.html)).not.toContain('You already have')
    }
  })
})

describe('"possible duplicate" on the moderation queue', () => {
  let adminCookie: string
  const ADMIN = [{ path: '/admin', ...adminRoute }]

  beforeAll(async () => {
    const admin = await insertUser(db, { roles: ['admin'] })
    adminCookie = await sessionCookieFor({ user: admin })
  })

  /** A paid ad awaiting review. */
  const pendingAd = (business: Business, title: string, showAdOnDates: string[], venueZip = '') =>
    insertTestEvent(business, { eventTitle: title, showAdOnDates, venueZip, eventStatus: 'pending' })

  test("an ad like another business's ad on the same date at the same ZIP is marked, with a link", async () => {
    const day = days(1, 40)
    const liveAd = (title: string) => insertTestEvent(owner, { eventTitle: title, showAdOnDates: day })
    const original = await liveAd('Trivia Tuesday')
    const copy = await pendingAd(neighbour, 'Trivia Tuesday!', [...day, ...days(1, 41)])
    // At another venue in the same ZIP as the original ad's: marked.
    const elsewhere = await insertBusiness(db, { businessZip: '10001' })
    await liveAd('Wine Walk')
    const venueHere = await pendingAd(elsewhere, 'Wine Walk', day, '62704')
    // The same title in another ZIP (the business's, or the venue's), on another day, or the business's own: not.
    await liveAd('Quiz Quest')
    const farAway = await pendingAd(elsewhere, 'Quiz Quest', day)
    await liveAd('Comedy Cellar')
    const venueThere = await pendingAd(neighbour, 'Comedy Cellar', day, '10001')
    await liveAd('Bingo Bonanza')
    const otherDay = await pendingAd(neighbour, 'Bingo Bonanza', days(1, 42))
    await liveAd('Salsa Social')
    const ownAgain = await pendingAd(owner, 'Salsa Social', day)

    const marked = await possibleDuplicatesOf([
      copy.eventID,
      venueHere.eventID,
      farAway.eventID,
      venueThere.eventID,
      otherDay.eventID,
      ownAgain.eventID,
    ])
    expect([...marked.keys()].sort()).toEqual([copy.eventID, venueHere.eventID].sort())
    expect(marked.get(copy.eventID)).toEqual({
      eventID: original.eventID,
      eventTitle: 'Trivia Tuesday',
      businessName: 'Blue Note Club',
    })

    const res = await callRoute(adminLoader, '/admin?date=all', { headers: { Cookie: adminCookie } })
    const { events: queue } = (await res.json()) as {
      events: Array<{ eventID: number; possibleDuplicate: { href: string } | null }>
    }
    expect(queue.find((item) => item.eventID === copy.eventID)?.possibleDuplicate?.href).toBe(
      `/admin/events/${original.eventID}`,
    )
    expect(queue.find((item) => item.eventID === farAway.eventID)?.possibleDuplicate).toBeNull()

    const page = await shownAfter(ADMIN, '/admin?date=all', { headers: { Cookie: adminCookie } })
    expect(textOf(page.html)).toContain('possible duplicate of “Trivia Tuesday” (Blue Note Club)')
    expect(page.html).toContain(`href="/admin/events/${original.eventID}"`)
  })
})
