/**
 * What search engines are told of the ads (docs/decisions/042), through the app's own write paths: a postponed ad
 * given new dates on its status form is rescheduled in its JSON-LD with the start it had before; the sitemap's
 * lastmod moves with every change visitors see (going live, the schedule status, new dates, an approved edit of the
 * title, text or times) and with nothing else; IndexNow, when configured, is pinged over HTTP (a stand-in search
 * engine on loopback) once per change, on one server at a time, after the change and never in its way.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { eventPageUrl } from '#app/models/ads/event-address.ts'
import { NEW_DATES_NEED_POSTPONED_MESSAGE } from '#app/models/ads/new-dates.ts'
import { loader as eventPageLoader } from '#app/routes/event.$id.tsx'
import * as statusRoute from '#app/routes/dashboard_.events.$id_.status.tsx'
import { action as reviewApi } from '#app/routes/api.admin.review-event.ts'
import { action as approveEvent } from '#app/routes/api.approve-event.ts'
import { loader as keyFileLoader } from '#app/routes/indexnow-key[.]txt.ts'
import { loader as sitemapLoader } from '#app/routes/sitemap[.]xml.ts'
import { loader as sitemapFileLoader } from '#app/routes/sitemaps.$file.ts'
import { SITEMAP_EVENT_IDS_PER_FILE, sitemapEventsPath } from '#app/services/calendar/feeds.server.ts'
import { changeScheduleStatus } from '#app/services/ads/schedule.server.ts'
import {
  INDEX_NOW_ENDED_JOB,
  indexNowSettings,
  runIndexNowRound,
  startIndexNow,
} from '#app/services/calendar/index-now.server.ts'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import { registry } from '#app/services/platform/metrics.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { events, indexNowQueue, jobRuns, type Business } from '#db/schema.ts'
import { approveBody, days, useUploadFolder } from '#tests/support/ad-submission.ts'
import { businessSessionCopy, sessionCookieFor } from '#tests/support/auth.ts'
import { insertBusiness, insertPaidPayment, insertTestEvent } from '#tests/support/events.ts'
import { expectGoogleEvents } from '#tests/support/google-event-data.ts'
import { paidAdAwaitingReview, postForm } from '#tests/support/moderation.ts'
import { callRoute } from '#tests/support/routes.ts'
import { browse, textOf } from '#tests/support/document-request.ts'

useUploadFolder('search-engines-it')

const today = platformToday()
const ORIGIN = 'https://events.example.org'
const LONG_AGO = new Date('2020-01-01T00:00:00Z')
const W3C_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/

let owner: Business
let ownerCookie: string
let adminCookie: string
let counter = 0

beforeAll(async () => {
  process.env.PUBLIC_URL = ORIGIN
  resetEnvCache()
  owner = await insertBusiness(db, { businessName: 'Pier Sounds', showBusinessPage: true })
  ownerCookie = await sessionCookieFor({ business: owner })
  adminCookie = await sessionCookieFor({ user: await insertUser(db, { roles: ['admin'] }) })
})

afterAll(() => {
  delete process.env.PUBLIC_URL
  resetEnvCache()
})

const asOwner = () => ({ kind: 'business' as const, business: businessSessionCopy(owner) })

function liveAd(overrides: Parameters<typeof insertTestEvent>[1] = {}) {
  return insertTestEvent(owner, {
    eventTitle: `Jazz on the Pier ${++counter}`,
    showAdOnDates: [addDaysIso(today, 1), addDaysIso(today, 2)],
    reviewedAt: new Date(Date.now() - 60 * 60 * 1000),
    ...overrides,
  })
}

const rowOf = async (eventID: number) =>
  (await db.select().from(events).where(eq(events.eventID, eventID)))[0]!

async function publicJsonLd(eventID: number) {
  const res = await callRoute(eventPageLoader, `/event/${eventID}?viewMode=true`, {
    params: { id: String(eventID) },
  })
  expect(res.status).toBe(200)
  return ((await res.json()) as { seo: { jsonLd: unknown } | null }).seo?.jsonLd
}

function review(body: Record<string, unknown>) {
  return callRoute(reviewApi, '/api/admin/review-event', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: adminCookie },
    body: JSON.stringify(body),
  })
}

describe('a postponed ad given new dates', () => {
  test('is rescheduled in its JSON-LD, with the start it had before, and every field of Google holds', async () => {
    const eventDate = addDaysIso(today, 5)
    const ad = await liveAd({ eventDate, startTime: '19:30:00', endTime: '22:00:00', priceCents: 1200 })
    await changeScheduleStatus({ actor: asOwner(), eventID: ad.eventID, choice: 'postponed', note: 'Storm' })
    // No photo, no performer, no date tickets went on sale; tickets of a postponed event are not on offer.
    const [postponed] = expectGoogleEvents(await publicJsonLd(ad.eventID), [
      'image',
      'performer',
      'offers.validFrom',
      'offers.availability',
    ])
    expect(postponed).toMatchObject({ eventStatus: 'https://schema.org/EventPostponed' })
    expect(postponed!.startDate).toMatch(new RegExp(`^${eventDate}T19:30:00[+-]\\d{2}:00$`))

    // The status page offers the new date, starting from the one it has.
    const form = await callRoute(statusRoute.loader, `/dashboard/events/${ad.eventID}/status`, {
      params: { id: String(ad.eventID) },
      headers: { Cookie: ownerCookie },
    })
    expect(((await form.json()) as { newDates: unknown }).newDates).toEqual({
      ownDate: true,
      dates: [eventDate],
      limit: 2,
    })
    const [page] = await browse(
      [{ path: '/dashboard/events/:id/status', ...statusRoute }],
      `/dashboard/events/${ad.eventID}/status`,
      { headers: { Cookie: ownerCookie } },
    )
    expect(textOf(page!.html)).toContain('New dates, with "Back on" (optional)')
    expect(page!.html).toMatch(new RegExp(`<input type="date" name="newDates"[^>]* value="${eventDate}"`))

    const newDate = addDaysIso(today, 12)
    const res = await postForm(
      statusRoute.action,
      `/dashboard/events/${ad.eventID}/status`,
      { status: 'on', note: 'New date!', newDates: newDate },
      { cookie: ownerCookie, params: { id: String(ad.eventID) } },
    )
    expect(res.status).toBe(302)
    expect(await rowOf(ad.eventID)).toMatchObject({
      eventDate: newDate,
      previousStartDate: eventDate,
      scheduleStatus: null,
      lastShowDate: newDate,
    })
    const [rescheduled, ...more] = expectGoogleEvents(await publicJsonLd(ad.eventID), [
      'image',
      'performer',
      'offers.validFrom',
    ])
    expect(more).toEqual([])
    expect(rescheduled).toMatchObject({
      eventStatus: 'https://schema.org/EventRescheduled',
      organizer: { url: `${ORIGIN}/business/${owner.businessID}-pier-sounds` },
    })
    expect(rescheduled!.startDate).toMatch(new RegExp(`^${newDate}T19:30:00`))
    expect(rescheduled!.previousStartDate).toMatch(new RegExp(`^${eventDate}T19:30:00[+-]\\d{2}:00$`))
  })

  test('new dates for an ad that is not postponed are refused at their field, and nothing changes', async () => {
    const ad = await liveAd()
    const res = await postForm(
      statusRoute.action,
      `/dashboard/events/${ad.eventID}/status`,
      { status: 'sold_out', newDates: addDaysIso(today, 9) },
      { cookie: ownerCookie, params: { id: String(ad.eventID) } },
    )
    expect(res.status).toBe(400)
    const { result } = (await res.json()) as { result: { error: Record<string, string[]> } }
    expect(result.error.newDates).toEqual([NEW_DATES_NEED_POSTPONED_MESSAGE])
    expect(await rowOf(ad.eventID)).toMatchObject({ scheduleStatus: null, showAdOnDates: ad.showAdOnDates })
  })

  test('a cancelled ad and a special, as their pages mark them up', async () => {
    const cancelled = await liveAd()
    await changeScheduleStatus({ actor: asOwner(), eventID: cancelled.eventID, choice: 'cancelled' })
    const items = expectGoogleEvents(await publicJsonLd(cancelled.eventID), ['image', 'performer', 'offers'])
    expect(items.map((item) => item.eventStatus)).toEqual([
      'https://schema.org/EventCancelled',
      'https://schema.org/EventCancelled',
    ])
    const special = await liveAd({ category: ['Special'] })
    const jsonLd = await publicJsonLd(special.eventID)
    expect(jsonLd).toMatchObject({ '@type': 'Offer', validFrom: addDaysIso(today, 1) })
    expect(JSON.stringify(jsonLd)).not.toContain('"Event"')
  })
})

/** The sitemap's lastmod of an event's page, read in its events file; the index's for that file is no older. */
async function lastmodOf(eventID: number) {
  const path = sitemapEventsPath(Math.ceil(eventID / SITEMAP_EVENT_IDS_PER_FILE))
  const name = path.split('/').pop()!
  const xml = await (await callRoute(sitemapFileLoader, path, { params: { file: name } })).text()
  const entry = new RegExp(
    `<url><loc>[^<]*/event/${eventID}-[^<]*</loc>(?:<lastmod>([^<]*)</lastmod>)?</url>`,
  ).exec(xml)
  expect(entry, `event ${eventID} in the sitemap`).not.toBeNull()
  const index = await (await callRoute(sitemapLoader, '/sitemap.xml')).text()
  const file = new RegExp(`<sitemap><loc>[^<]*${path}</loc><lastmod>([^<]*)</lastmod></sitemap>`).exec(index)
  expect(file, `${path} in the sitemap index`).not.toBeNull()
  if (entry![1]) expect(file![1]! >= entry![1]).toBe(true)
  return entry![1]
}

/** Moves the ad's last change far back (this column alone is no change visitors see). */
async function changedLongAgo(eventID: number) {
  await db.update(events).set({ visibleChangedAt: LONG_AGO }).where(eq(events.eventID, eventID))
  expect(await lastmodOf(eventID)).toBe('2020-01-01T00:00:00Z')
}

/** The lastmod after `change`: now, to the second, in the W3C format. */
async function expectLastmodMovesWith(eventID: number, change: () => Promise<unknown>) {
  await changedLongAgo(eventID)
  const before = Math.floor(Date.now() / 1000) * 1000
  await change()
  const lastmod = await lastmodOf(eventID)
  expect(lastmod).toMatch(W3C_DATETIME)
  expect(new Date(lastmod!).getTime()).toBeGreaterThanOrEqual(before)
  expect(new Date(lastmod!).getTime()).toBeLessThanOrEqual(Date.now())
}

describe('the sitemap lastmod', () => {
  test('is when the ad went live', async () => {
    const ad = await paidAdAwaitingReview(owner, { eventTitle: 'Sea Shanty Night' })
    const before = Math.floor(Date.now() / 1000) * 1000
    expect((await review({ eventID: ad.eventID, action: 'approve' })).status).toBe(200)
    const lastmod = await lastmodOf(ad.eventID)
    expect(lastmod).toMatch(W3C_DATETIME)
    expect(new Date(lastmod!).getTime()).toBeGreaterThanOrEqual(before)
  })

  test('moves with each schedule status, and with new dates', async () => {
    const ad = await liveAd()
    for (const choice of ['sold_out', 'on', 'postponed'] as const)
      await expectLastmodMovesWith(ad.eventID, () =>
        changeScheduleStatus({ actor: asOwner(), eventID: ad.eventID, choice }),
      )
    await expectLastmodMovesWith(ad.eventID, () =>
      changeScheduleStatus({
        actor: asOwner(),
        eventID: ad.eventID,
        choice: 'on',
        newDates: [addDaysIso(today, 8), addDaysIso(today, 9)],
      }),
    )
    expect((await rowOf(ad.eventID)).showAdOnDates).toEqual([addDaysIso(today, 8), addDaysIso(today, 9)])
    await expectLastmodMovesWith(ad.eventID, () =>
      changeScheduleStatus({ actor: asOwner(), eventID: ad.eventID, choice: 'cancelled', note: 'Sorry' }),
    )
  })

  test('moves when an edit of its title, text and times is approved, not when it is sent', async () => {
    const editor = await insertBusiness(db, { businessName: 'Careful Editors' })
    const editorCookie = await sessionCookieFor({ business: editor })
    const post = (body: FormData) =>
      callRoute(approveEvent, '/api/approve-event', {
        method: 'POST',
        body,
        headers: { Cookie: editorCookie },
      })
    const saved = await post(approveBody({ eventData: { eventTitle: 'Chowder Cook-off' } }))
    expect(saved.status).toBe(200)
    const { eventID } = (await saved.json()) as { eventID: number }
    const payment = await insertPaidPayment(eventID)
    await db
      .update(events)
      .set({ paymentStatus: 'paid', eventStatus: 'approved', payment_intent_id: payment.payment_intent_id })
      .where(eq(events.eventID, eventID))
    await changedLongAgo(eventID)
    const edit = approveBody({
      eventID: String(eventID),
      eventData: {
        eventTitle: 'Chowder Cook-off Finals',
        eventDescription: 'Now with clams.',
        startTime: '18:00',
      },
      selectedDates: days(3),
    })
    expect((await post(edit)).status).toBe(200)
    // Waiting for review: visitors still see the live version.
    expect(await lastmodOf(eventID)).toBe('2020-01-01T00:00:00Z')
    await expectLastmodMovesWith(eventID, async () => {
      const res = await review({ eventID, action: 'approve' })
      expect(await res.json()).toMatchObject({ revision: true })
    })
    expect(await rowOf(eventID)).toMatchObject({
      eventTitle: 'Chowder Cook-off Finals',
      startTime: '18:00:00',
    })
  })

  test('stays for what visitors do not see, and falls back to the review for an ad not written since', async () => {
    const ad = await liveAd()
    await changedLongAgo(ad.eventID)
    await db.update(events).set({ checkPendingSince: new Date() }).where(eq(events.eventID, ad.eventID))
    expect(await lastmodOf(ad.eventID)).toBe('2020-01-01T00:00:00Z')
    const reviewedAt = new Date('2025-06-01T12:34:56Z')
    await db.update(events).set({ visibleChangedAt: null, reviewedAt }).where(eq(events.eventID, ad.eventID))
    expect(await lastmodOf(ad.eventID)).toBe('2025-06-01T12:34:56Z')
  })
})

interface Ping {
  path: string
  contentType: string | undefined
  body: { host: string; key: string; keyLocation: string; urlList: string[] }
}

describe('IndexNow', () => {
  const KEY = 'a1b2c3d4e5f6a7b8'
  let engine: http.Server
  let pings: Ping[]
  let answer: number
  let endpoint: string
  /** When set, the engine answers a ping only once this settles. */
  let answerAfter: Promise<void> | undefined
  /** Called as each ping arrives. */
  let pinged: (() => void) | undefined

  beforeAll(async () => {
    engine = http.createServer((request, response) => {
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString()))
      request.on('end', () => {
        pings.push({
          path: request.url ?? '',
          contentType: request.headers['content-type'],
          body: JSON.parse(body) as Ping['body'],
        })
        pinged?.()
        void (answerAfter ?? Promise.resolve()).then(() => response.writeHead(answer).end())
      })
    })
    await new Promise<void>((resolve) => engine.listen(0, '127.0.0.1', resolve))
    endpoint = `http://127.0.0.1:${(engine.address() as AddressInfo).port}/indexnow`
  })

  afterAll(() => new Promise<void>((resolve) => engine.close(() => resolve())))

  beforeEach(async () => {
    pings = []
    answer = 202
    answerAfter = undefined
    pinged = undefined
    process.env.INDEXNOW_ENDPOINT = endpoint
    process.env.INDEXNOW_KEY = KEY
    resetEnvCache()
    await db.delete(indexNowQueue)
    // Today's look for ended ads is done, except where a test asks for it.
    await db
      .insert(jobRuns)
      .values({ name: INDEX_NOW_ENDED_JOB, startedAt: new Date() })
      .onConflictDoUpdate({ target: jobRuns.name, set: { startedAt: new Date() } })
  })

  afterEach(() => {
    delete process.env.INDEXNOW_ENDPOINT
    delete process.env.INDEXNOW_KEY
    resetEnvCache()
  })

  const round = () => runIndexNowRound(indexNowSettings()!)
  const pingsCounted = async (outcome: string) =>
    (await registry.getSingleMetric('eventshout_indexnow_pings_total')!.get()).values.find(
      (value) => value.labels.outcome === outcome,
    )?.value ?? 0

  test('an ad that goes live is pinged once, by the protocol, with its key file served', async () => {
    const ad = await paidAdAwaitingReview(owner, { eventTitle: 'Lighthouse Tour' })
    // Paid and waiting for review: not public, nothing to tell.
    expect(await round()).toMatchObject({ ran: true, sent: 0 })
    expect(pings).toEqual([])
    const sentBefore = await pingsCounted('sent')
    expect((await review({ eventID: ad.eventID, action: 'approve' })).status).toBe(200)
    // The approval answered before any ping: it only queued the ad.
    expect(pings).toEqual([])
    expect(await round()).toMatchObject({ ran: true, sent: 1, failed: 0, urls: 1 })
    expect(pings).toEqual([
      {
        path: '/indexnow',
        contentType: 'application/json; charset=utf-8',
        body: {
          host: 'events.example.org',
          key: KEY,
          keyLocation: `${ORIGIN}/indexnow-key.txt`,
          urlList: [eventPageUrl(ad, ORIGIN)],
        },
      },
    ])
    expect(await pingsCounted('sent')).toBe(sentBefore + 1)
    // Told once.
    expect(await round()).toMatchObject({ sent: 0 })
    expect(pings).toHaveLength(1)

    const keyFile = await callRoute(keyFileLoader, '/indexnow-key.txt')
    expect(keyFile.status).toBe(200)
    expect(keyFile.headers.get('Content-Type')).toBe('text/plain; charset=utf-8')
    expect(await keyFile.text()).toBe(KEY)
  })

  test('a change is pinged at its address, and at the one it had before its title changed', async () => {
    const ad = await liveAd()
    await db.delete(indexNowQueue)
    await changeScheduleStatus({ actor: asOwner(), eventID: ad.eventID, choice: 'sold_out' })
    await db.update(events).set({ eventTitle: 'Renamed Jazz Night' }).where(eq(events.eventID, ad.eventID))
    await round()
    expect(pings.map((ping) => ping.body.urlList)).toEqual([
      [
        eventPageUrl({ eventID: ad.eventID, eventTitle: 'Renamed Jazz Night' }, ORIGIN),
        eventPageUrl(ad, ORIGIN),
      ],
    ])
  })

  test('an ad whose last date was yesterday is pinged once that day', async () => {
    const ended = await liveAd({ showAdOnDates: [addDaysIso(today, -2), addDaysIso(today, -1)] })
    await db.delete(indexNowQueue)
    await db.delete(jobRuns).where(eq(jobRuns.name, INDEX_NOW_ENDED_JOB))
    await round()
    expect(pings.map((ping) => ping.body.urlList)).toEqual([[eventPageUrl(ended, ORIGIN)]])
    await round()
    expect(pings).toHaveLength(1)
  })

  test('of two servers at once, one pings', async () => {
    await liveAd()
    let answerNow!: () => void
    answerAfter = new Promise((resolve) => (answerNow = resolve))
    const firstPinged = new Promise<void>((resolve) => (pinged = resolve))
    const first = round()
    await firstPinged
    // The first server is mid-ping: the second finds it sending and leaves the queue to it.
    expect(await round()).toMatchObject({ ran: false, sent: 0 })
    answerNow()
    expect(await first).toMatchObject({ ran: true, sent: 1 })
    expect(pings).toHaveLength(1)
  })

  test('a refused ping keeps the ads queued and is counted; the next round sends them', async () => {
    const ad = await liveAd()
    answer = 500
    const failedBefore = await pingsCounted('failed')
    expect(await round()).toMatchObject({ sent: 0, failed: 1 })
    expect(await pingsCounted('failed')).toBe(failedBefore + 1)
    expect(await db.select().from(indexNowQueue)).toHaveLength(1)
    answer = 200
    expect(await round()).toMatchObject({ sent: 1, failed: 0 })
    expect(pings.map((ping) => ping.body.urlList)).toEqual([
      [eventPageUrl(ad, ORIGIN)],
      [eventPageUrl(ad, ORIGIN)],
    ])
    expect(await db.select().from(indexNowQueue)).toEqual([])
  })

  test('an unreachable search engine neither slows nor fails the change', async () => {
    process.env.INDEXNOW_ENDPOINT = 'http://127.0.0.1:9/indexnow'
    resetEnvCache()
    const ad = await liveAd()
    const outcome = await changeScheduleStatus({ actor: asOwner(), eventID: ad.eventID, choice: 'postponed' })
    expect(outcome.toast.title).toBe('Marked postponed')
    expect((await rowOf(ad.eventID)).scheduleStatus).toBe('postponed')
    expect(await round()).toMatchObject({ sent: 0, failed: 1 })
  })

  test('unconfigured: no pings, no key file', async () => {
    delete process.env.INDEXNOW_ENDPOINT
    delete process.env.INDEXNOW_KEY
    resetEnvCache()
    expect(indexNowSettings()).toBeNull()
    const stop = startIndexNow()
    const ad = await liveAd()
    await changeScheduleStatus({ actor: asOwner(), eventID: ad.eventID, choice: 'sold_out' })
    await stop()
    expect(pings).toEqual([])
    expect((await callRoute(keyFileLoader, '/indexnow-key.txt')).status).toBe(404)
  })
})
