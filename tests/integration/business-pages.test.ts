/**
 * Business pages: who has one (a live ad, and the page not turned off), what it shows, its addresses and redirects,
 * its feeds and sitemap entry, the dashboard's setting, the links from cards and event pages, and following a
 * business by email through a real SMTP server on loopback.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { loader as businessLoader } from '#app/routes/business.$slug.tsx'
import { loader as icsLoader } from '#app/routes/business.$id_.calendar[.]ics.ts'
import { loader as rssLoader } from '#app/routes/business.$id_.calendar[.]rss.ts'
import { loader as calendarLoader } from '#app/routes/calendar.tsx'
import { action as dashboardAction, loader as dashboardLoader } from '#app/routes/dashboard.tsx'
import { loader as eventLoader } from '#app/routes/event.$id.tsx'
import { loader as sitemapFileLoader } from '#app/routes/sitemaps.$file.ts'
import { action as subscribeAction } from '#app/routes/subscribe.tsx'
import { action as confirmAction } from '#app/routes/subscriptions.confirm.tsx'
import { loader as manageLoader } from '#app/routes/subscriptions.manage.tsx'
import { action as unsubscribeAction } from '#app/routes/subscriptions.unsubscribe.tsx'
import { businessPagePath, slugify } from '#app/models/calendar/business-links.ts'
import { liveEventsGeneration } from '#app/models/calendar/live-events-cache.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { queueFollows, runSubscriberJob } from '#app/services/subscriptions/subscriber-jobs.server.ts'
import { quickDateRanges } from '#app/utils/quick-dates.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { authAttempts, business, events, jobRuns, outbox, subscriptions, type Business } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'
import { TestSmtpServer, type ReceivedMail } from '#tests/support/smtp-server.ts'

const smtp = new TestSmtpServer()
const today = platformToday()
const VISITOR = 'follower@example.org'
let cafe: Business

beforeAll(async () => {
  await smtp.start()
})

afterAll(async () => {
  await smtp.stop()
})

beforeEach(async () => {
  await db.delete(outbox)
  await db.delete(subscriptions)
  await db.delete(authAttempts)
  smtp.received.length = 0
  cafe = await insertBusiness(db, {
    businessName: 'Blue Door Café',
    businessAddress: '12 Main St',
    businessCity: 'Springfield',
    businessState: 'IL',
    businessZip: '62704',
    businessPhone: '2175550100',
    businessWebsite: 'bluedoor.example.com',
    instagramURL: 'https://instagram.com/bluedoor',
  })
})

const form = { 'Content-Type': 'application/x-www-form-urlencoded' }

function page(path: string) {
  const segment = new URL(path, 'http://localhost').pathname.split('/')[2] ?? ''
  return callRoute(businessLoader, path, { params: { slug: segment } })
}

const pathOf = (b: Business) => businessPagePath(b.businessID, b.businessName)

function liveAd(owner: Business, overrides: Parameters<typeof insertTestEvent>[1] = {}, inDays = 3) {
  return insertTestEvent(owner, {
    showAdOnDates: [addDaysIso(today, inDays)],
    reviewedAt: new Date(),
    ...overrides,
  })
}

describe('who has a page', () => {
  test('a business with a live ad has one at /business/{id}-{slug}', async () => {
    await liveAd(cafe)
    expect(pathOf(cafe)).toBe(`/business/${cafe.businessID}-blue-door-cafe`)
    expect((await page(pathOf(cafe))).status).toBe(200)
  })

  test('without a live ad (none, over, unpaid, refused, taken down) or with its page off: 404', async () => {
    expect((await page(pathOf(cafe))).status).toBe(404)
    await liveAd(cafe, {}, -2)
    await liveAd(cafe, { paymentStatus: 'pending', eventStatus: 'pending' })
    await liveAd(cafe, { eventStatus: 'rejected' })
    const takenDown = await liveAd(cafe)
    await db.update(events).set({ eventStatus: 'taken_down' }).where(eq(events.eventID, takenDown.eventID))
    expect((await page(pathOf(cafe))).status).toBe(404)

    await liveAd(cafe)
    expect((await page(pathOf(cafe))).status).toBe(200)
    await db.update(business).set({ showBusinessPage: false }).where(eq(business.businessID, cafe.businessID))
    expect((await page(pathOf(cafe))).status).toBe(404)
  })

  test('unknown or malformed ids and slugs: 404, never a 500', async () => {
    await liveAd(cafe)
    for (const segment of [
      'abc',
      '0',
      '-1',
      '99999999',
      '2147483648',
      '99999999999',
      '1.5',
      `x${cafe.businessID}`,
      '',
    ]) {
      const res = await callRoute(businessLoader, `/business/${encodeURIComponent(segment)}`, {
        params: { slug: segment },
      })
      expect(res.status, segment).toBe(404)
    }
  })
})

describe('its address', () => {
  test('an id alone or an old slug is a 301 to the page’s own address, keeping the quick dates', async () => {
    await liveAd(cafe)
    const bare = await page(`/business/${cafe.businessID}`)
    expect(bare.status).toBe(301)
    expect(bare.headers.get('Location')).toBe(pathOf(cafe))
    const old = await page(`/business/${cafe.businessID}-old-name?from=${today}&to=${today}`)
    expect(old.status).toBe(301)
    expect(old.headers.get('Location')).toBe(`${pathOf(cafe)}?from=${today}&to=${today}`)
  })

  test('the slug follows the name', () => {
    expect(slugify('Blue Door Café & Bar!')).toBe('blue-door-cafe-bar')
    expect(slugify('  ---  ')).toBe('business')
    expect(slugify('Ünïcödé 2 Go')).toBe('unicode-2-go')
  })
})

describe('what the page shows', () => {
  test('the business, its upcoming live ads as cards, its past events, structured data and links', async () => {
    const soon = await liveAd(cafe, { eventTitle: 'Jazz Night' }, 1)
    const later = await liveAd(cafe, { eventTitle: 'Poetry Slam' }, 9)
    await liveAd(cafe, { eventTitle: 'Last Month' }, -20)
    await liveAd(cafe, { eventTitle: 'Not Paid', paymentStatus: 'pending', eventStatus: 'pending' })
    const other = await insertBusiness(db, { businessName: 'Elsewhere' })
    await liveAd(other, { eventTitle: 'Not Ours' })

    const res = await page(pathOf(cafe))
    const body = await res.json()
    expect(body.business).toMatchObject({ businessName: 'Blue Door Café', businessPhone: '2175550100' })
    expect(body.address).toBe('12 Main St, Springfield, IL 62704')
    expect(body.mapUrl).toContain('openstreetmap.org/search?query=12%20Main%20St')
    expect(body.events.map((e: { eventTitle: string }) => e.eventTitle)).toEqual([
      'Jazz Night',
      'Poetry Slam',
    ])
    expect(body.upcomingCount).toBe(2)
    expect(body.pastEvents).toBe(1)
    expect(body.icsPath).toBe(`/business/${cafe.businessID}/calendar.ics`)
    expect(body.rssPath).toBe(`/business/${cafe.businessID}/calendar.rss`)
    expect(body.seo.canonicalUrl).toBe(`http://localhost${pathOf(cafe)}`)
    expect(body.seo.title).toBe('Blue Door Café · EventShout')
    expect(body.seo.jsonLd).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'LocalBusiness',
      name: 'Blue Door Café',
      telephone: '2175550100',
      sameAs: ['https://bluedoor.example.com', 'https://instagram.com/bluedoor'],
      address: { streetAddress: '12 Main St', addressLocality: 'Springfield', postalCode: '62704' },
    })
    expect(body.seo.jsonLd.event.map((e: { name: string; url: string }) => [e.name, e.url])).toEqual([
      ['Jazz Night', `http://localhost/event/${soon.eventID}-jazz-night`],
      ['Poetry Slam', `http://localhost/event/${later.eventID}-poetry-slam`],
    ])
    expect(body.seo.jsonLd.event[0]['@context']).toBeUndefined()
    // Shared by every visitor through the page cache.
    expect(res.headers.get('X-Listed-Events')).toBe(`${soon.eventID},${later.eventID}`)
  })

  test('the quick dates narrow the cards to the window', async () => {
    await liveAd(cafe, { eventTitle: 'Tonight' }, 0)
    await liveAd(cafe, { eventTitle: 'In Two Weeks' }, 14)
    const week = quickDateRanges(today).find((range) => range.label === 'Next 7 days')!
    const body = await (await page(`${pathOf(cafe)}?from=${week.from}&to=${week.to}`)).json()
    expect(body.events.map((e: { eventTitle: string }) => e.eventTitle)).toEqual(['Tonight'])
    expect(body.upcomingCount).toBe(2)
    expect(body.filters).toMatchObject({ from: week.from, to: week.to })
    // Dates that are not dates are ignored, not a 500.
    expect((await page(`${pathOf(cafe)}?from=nonsense&to=2026-13-45`)).status).toBe(200)
  })
})

describe('its feeds and the sitemap', () => {
  test('calendar.ics and .rss list its live ads; without a page they are a 404', async () => {
    await liveAd(cafe, { eventTitle: 'Jazz Night' })
    await liveAd(cafe, { eventTitle: 'Taken Down', eventStatus: 'taken_down' })
    const params = { id: String(cafe.businessID) }
    const ics = await callRoute(icsLoader, `/business/${cafe.businessID}/calendar.ics`, { params })
    expect(ics.status).toBe(200)
    expect(ics.headers.get('Content-Type')).toContain('text/calendar')
    const icsText = await ics.text()
    expect(icsText).toContain('SUMMARY:Jazz Night')
    expect(icsText).not.toContain('Taken Down')
    const rss = await callRoute(rssLoader, `/business/${cafe.businessID}/calendar.rss`, { params })
    expect(rss.status).toBe(200)
    const rssText = await rss.text()
    expect(rssText).toContain('<title>Blue Door Café · EventShout</title>')
    expect(rssText).toContain('Jazz Night')
    expect(rssText).not.toContain('Taken Down')

    await db.update(business).set({ showBusinessPage: false }).where(eq(business.businessID, cafe.businessID))
    expect((await callRoute(icsLoader, '/x', { params })).status).toBe(404)
    expect((await callRoute(rssLoader, '/x', { params })).status).toBe(404)
    for (const id of ['abc', '0', '99999999999'])
      expect((await callRoute(rssLoader, '/x', { params: { id } })).status, id).toBe(404)
  })

  test("the sitemap's pages file lists business pages, not those without a live ad or turned off", async () => {
    await liveAd(cafe)
    const quiet = await insertBusiness(db, { businessName: 'Quiet Shop' })
    await liveAd(quiet, {}, -5)
    const hidden = await insertBusiness(db, { businessName: 'Hidden Shop', showBusinessPage: false })
    await liveAd(hidden)
    const pages = await callRoute(sitemapFileLoader, '/sitemaps/pages.xml', { params: { file: 'pages.xml' } })
    const xml = await pages.text()
    expect(xml).toContain(`<loc>http://localhost${pathOf(cafe)}</loc>`)
    expect(xml).not.toContain(pathOf(quiet))
    expect(xml).not.toContain(pathOf(hidden))
  })
})

describe('links to the page', () => {
  test('an event page and a calendar card link to the business page, unless it is turned off', async () => {
    const ad = await liveAd(cafe, { eventTitle: 'Linked Night', eventDescription: 'A linkednight of music.' })
    const eventPage = () =>
      callRoute(eventLoader, `/event/${ad.eventID}?viewMode=true`, { params: { id: String(ad.eventID) } })
    expect((await (await eventPage()).json()).businessHref).toBe(pathOf(cafe))
    const card = async () => {
      const body = await (await callRoute(calendarLoader, '/calendar?keyword=linkednight')).json()
      return body.events.find((e: { eventID: number }) => e.eventID === ad.eventID)
    }
    expect((await card()).businessHref).toBe(pathOf(cafe))

    const cookie = await sessionCookieFor({ business: cafe })
    await callRoute(dashboardAction, '/dashboard', {
      method: 'POST',
      body: new URLSearchParams({ intent: 'business-page', show: 'off' }),
      headers: { ...form, Cookie: cookie },
    })
    expect((await (await eventPage()).json()).businessHref).toBeNull()
    expect((await card()).businessHref).toBeNull()
  })
})

describe('the dashboard setting', () => {
  test('"Show my business page" is on by default; the owner turns it off and on; public pages are told at once', async () => {
    await liveAd(cafe)
    const cookie = await sessionCookieFor({ business: cafe })
    const dashboard = await callRoute(dashboardLoader, '/dashboard', { headers: { Cookie: cookie } })
    expect(await dashboard.json()).toMatchObject({ pageShown: true, pagePath: pathOf(cafe) })

    const generation = liveEventsGeneration()
    const off = await callRoute(dashboardAction, '/dashboard', {
      method: 'POST',
      body: new URLSearchParams({ intent: 'business-page', show: 'off' }),
      headers: { ...form, Cookie: cookie },
    })
    expect(off.status).toBe(302)
    expect(off.headers.get('Location')).toBe('/dashboard')
    expect(liveEventsGeneration()).toBeGreaterThan(generation)
    expect((await page(pathOf(cafe))).status).toBe(404)
    const again = await callRoute(dashboardLoader, '/dashboard', { headers: { Cookie: cookie } })
    expect(await again.json()).toMatchObject({ pageShown: false })

    await callRoute(dashboardAction, '/dashboard', {
      method: 'POST',
      body: new URLSearchParams({ intent: 'business-page', show: 'on' }),
      headers: { ...form, Cookie: cookie },
    })
    expect((await page(pathOf(cafe))).status).toBe(200)
  })

  test('bad input is a 400 that changes nothing; a visitor is sent to sign in', async () => {
    const cookie = await sessionCookieFor({ business: cafe })
    const refused: Array<Record<string, string>> = [
      {},
      { intent: 'business-page', show: 'maybe' },
      { intent: 'other', show: 'off' },
    ]
    for (const fields of refused) {
      const res = await callRoute(dashboardAction, '/dashboard', {
        method: 'POST',
        body: new URLSearchParams(fields),
        headers: { ...form, Cookie: cookie },
      })
      expect(res.status, JSON.stringify(fields)).toBe(400)
    }
    const visitor = await callRoute(dashboardAction, '/dashboard', {
      method: 'POST',
      body: new URLSearchParams({ intent: 'business-page', show: 'off' }),
      headers: form,
    })
    expect(visitor.status).toBe(302)
    expect(visitor.headers.get('Location')).toMatch(/^\/login/)
    const [row] = await db.select().from(business).where(eq(business.businessID, cafe.businessID))
    expect(row!.showBusinessPage).toBe(true)
  })
})

function follow(fields: Record<string, string>) {
  return callRoute(subscribeAction, '/subscribe', {
    method: 'POST',
    body: new URLSearchParams({ kind: 'business', email: VISITOR, ...fields }),
    headers: form,
  })
}

function linkIn(mail: ReceivedMail, path: string) {
  const found = new RegExp(`https?://[^\\s"<>]+${path}\\?token=[^\\s"<>]+`).exec(mail.text)?.[0]
  expect(found, `a ${path} link`).toBeTruthy()
  return new URL(found!)
}

/** Follows the cafe through its confirmation email; answers the confirmation email. */
async function confirmedFollow() {
  expect((await follow({ businessID: String(cafe.businessID) })).status).toBe(200)
  await smtp.deliverOutbox()
  const [mail] = smtp.to(VISITOR)
  expect(mail!.subject).toBe('Confirm your EventShout subscription')
  expect(mail!.text).toContain('new events from Blue Door Café')
  const confirm = linkIn(mail!, '/subscriptions/confirm')
  const confirmed = await callRoute(confirmAction, confirm.pathname + confirm.search, {
    method: 'POST',
    body: new URLSearchParams(),
    headers: form,
  })
  expect(confirmed.status).toBe(200)
  smtp.received.length = 0
  await db.delete(outbox)
  return mail!
}

/** A moment after now: the daily run comes after the ads it tells of were approved. */
const later = (ms = 1000) => new Date(Date.now() + ms)

describe('following a business', () => {
  test('double opt-in: the new live ad reaches the follower in the next daily run, once; the manage page says what it is', async () => {
    await liveAd(cafe, { eventTitle: 'Before Following' })
    const confirmation = await confirmedFollow()
    const [row] = await db.select().from(subscriptions)
    expect(row).toMatchObject({ kind: 'business', businessID: cafe.businessID, frequency: 'daily' })

    const manage = linkIn(confirmation, '/subscriptions/manage')
    const managePage = await callRoute(manageLoader, manage.pathname + manage.search)
    expect(await managePage.json()).toMatchObject({
      subscription: { what: 'New events from Blue Door Café', kind: 'business' },
    })

    // Nothing new yet: the ad approved before the follow is not news.
    expect((await queueFollows(later())).queued).toBe(0)
    const other = await insertBusiness(db, { businessName: 'Other Place' })
    await liveAd(other, { eventTitle: 'Not Followed' })
    await liveAd(cafe, { eventTitle: 'Fresh Jazz' })
    await liveAd(cafe, { eventTitle: 'Fresh But Unpaid', paymentStatus: 'pending', eventStatus: 'pending' })

    const run = await runSubscriberJob('digests', { now: later(), force: true })
    expect(run?.ran && run.result.queued).toBe(1)
    await smtp.deliverOutbox()
    const [mail, ...more] = smtp.to(VISITOR)
    expect(more).toEqual([])
    expect(mail!.subject).toBe('New from Blue Door Café: Fresh Jazz')
    expect(mail!.text).toContain('Fresh Jazz')
    expect(mail!.text).not.toContain('Before Following')
    expect(mail!.text).not.toContain('Not Followed')
    expect(mail!.text).not.toContain('Fresh But Unpaid')
    expect(mail!.text).toContain(`${pathOf(cafe)}`)
    expect(mail!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')

    // Once: the next runs have nothing new to say.
    await db.delete(jobRuns)
    expect((await queueFollows(later(2000))).queued).toBe(0)
    expect((await queueFollows(new Date(Date.now() + 86_400_000))).queued).toBe(0)

    // One click unsubscribes; nothing more is sent.
    const unsubscribe = linkIn(mail!, '/subscriptions/unsubscribe')
    await callRoute(unsubscribeAction, unsubscribe.pathname + unsubscribe.search, { method: 'POST' })
    expect(await db.select().from(subscriptions)).toEqual([])
  })

  test('a business that turns its page off, or whose ads are taken down, sends no more emails', async () => {
    await liveAd(cafe, { eventTitle: 'Keeps The Page' }, 20)
    await confirmedFollow()
    const fresh = await liveAd(cafe, { eventTitle: 'While Off' })
    await db.update(business).set({ showBusinessPage: false }).where(eq(business.businessID, cafe.businessID))
    expect((await queueFollows(later())).queued).toBe(0)

    await db.update(business).set({ showBusinessPage: true }).where(eq(business.businessID, cafe.businessID))
    await db.update(events).set({ eventStatus: 'taken_down' }).where(eq(events.businessID, cafe.businessID))
    expect((await queueFollows(later())).queued).toBe(0)
    expect(fresh.eventTitle).toBe('While Off')
  })

  test('bad input is a 4xx and stores nothing: no business, no page, a malformed id, a bad address', async () => {
    const quiet = await insertBusiness(db, { businessName: 'No Live Ads' })
    await liveAd(cafe)
    expect((await follow({ businessID: String(quiet.businessID) })).status).toBe(404)
    expect((await follow({ businessID: '99999999' })).status).toBe(404)
    for (const businessID of ['abc', '0', '2147483648', ''])
      expect((await follow({ businessID })).status, businessID).toBe(400)
    expect((await follow({ businessID: String(cafe.businessID), email: 'not-an-address' })).status).toBe(400)
    expect(await db.select().from(subscriptions)).toEqual([])
  })

  test('the same limits as every subscription: per network address per hour', async () => {
    await liveAd(cafe)
    const headers = { ...form, 'X-Forwarded-For': '203.0.113.77' }
    let last = 0
    for (let i = 0; i < 11; i++) {
      const res = await callRoute(subscribeAction, '/subscribe', {
        method: 'POST',
        body: new URLSearchParams({
          kind: 'business',
          email: `f${i}@example.org`,
          businessID: String(cafe.businessID),
        }),
        headers,
      })
      last = res.status
    }
    expect(last).toBe(429)
  })
})
