/**
 * The sitemap index and its files: /sitemap.xml names the pages file and one file per range of event ids that holds
 * a live event, each file lists its range's live events once, with the index's lastmod the newest in it; robots.txt
 * names the index; any other file name is a 404.
 */
import { beforeAll, describe, expect, test } from 'vitest'
import { eq } from 'drizzle-orm'
import { loader as robotsLoader } from '#app/routes/robots[.]txt.ts'
import { loader as sitemapLoader } from '#app/routes/sitemap[.]xml.ts'
import { loader as sitemapFileLoader } from '#app/routes/sitemaps.$file.ts'
import { businessPagePath } from '#app/models/calendar/business-links.ts'
import { sitemapFileXml, sitemapIndexXml } from '#app/services/calendar/feeds.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { events, type Business, type Event } from '#db/schema.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'

const ORIGIN = 'http://localhost'
const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9'
/** Small files, so a few dozen events make several. */
const IDS_PER_FILE = 4
const W3C = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}Z)?$/

const today = platformToday()
const day = (n: number) => addDaysIso(today, n)

let shop: Business
let hidden: Business
let quiet: Business
let live: Event[] = []
let notLive: Event[] = []

beforeAll(async () => {
  shop = await insertBusiness(db, { businessName: 'Index Shop' })
  hidden = await insertBusiness(db, { businessName: 'Hidden Index Shop', showBusinessPage: false })
  quiet = await insertBusiness(db, { businessName: 'Quiet Index Shop' })
  const liveKinds = [
    () => insertTestEvent(shop, { showAdOnDates: [day(1)] }),
    // A business that hides its page still has its events in the sitemap.
    () => insertTestEvent(hidden, { showAdOnDates: [day(0), day(3)] }),
  ]
  const otherKinds = [
    () => insertTestEvent(shop, { showAdOnDates: [day(-2)] }),
    () => insertTestEvent(shop, { showAdOnDates: [day(2)], eventStatus: 'pending' }),
    () => insertTestEvent(shop, { showAdOnDates: [day(2)], eventStatus: 'taken_down' }),
    () => insertTestEvent(shop, { showAdOnDates: [day(2)], paymentStatus: 'pending' }),
    () => insertTestEvent(quiet, { showAdOnDates: [day(-5)] }),
  ]
  // 27 events, every other one live, then a run of nine that are not: at least one file holds none.
  for (let i = 0; i < 18; i++) {
    if (i % 2 === 0) live.push(await liveKinds[(i / 2) % liveKinds.length]!())
    else notLive.push(await otherKinds[i % otherKinds.length]!())
  }
  for (let i = 0; i < 9; i++) notLive.push(await otherKinds[i % otherKinds.length]!())
  // Known, distinct last changes, and one live ad whose only date is its approval day.
  for (const [i, event] of live.entries())
    await db
      .update(events)
      .set({ visibleChangedAt: new Date(Date.UTC(2025, 0, 1 + i, 12)) })
      .where(eq(events.eventID, event.eventID))
  await db
    .update(events)
    .set({
      visibleChangedAt: null,
      reviewedAt: null,
      scheduleChangedAt: null,
      approvedDateByAdmin: '2025-03-01',
    })
    .where(eq(events.eventID, live[1]!.eventID))
  live = await reread(live)
  notLive = await reread(notLive)
})

async function reread(list: Event[]) {
  const rows = await db.select().from(events)
  return list.map((e) => rows.find((r) => r.eventID === e.eventID)!)
}

const fileOf = (eventID: number) => Math.ceil(eventID / IDS_PER_FILE)
const locsOf = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!)

/** The document is one root element in the sitemap namespace holding only `child` elements of the given parts. */
function expectShape(xml: string, root: 'sitemapindex' | 'urlset', child: 'sitemap' | 'url') {
  const lines = xml.split('\n')
  expect(lines[0]).toBe('<?xml version="1.0" encoding="UTF-8"?>')
  expect(lines[1]).toBe(`<${root} xmlns="${NAMESPACE}">`)
  expect(lines.at(-1)).toBe(`</${root}>`)
  const entries = lines.slice(2, -1)
  expect(entries.length).toBeGreaterThan(0)
  const entry = new RegExp(
    `^<${child}><loc>https?://[^<\\s]+</loc>(?:<lastmod>([^<]+)</lastmod>)?(?:<changefreq>daily</changefreq>)?</${child}>$`,
  )
  for (const line of entries) {
    const match = entry.exec(line)
    expect(match, line).not.toBeNull()
    if (match![1]) expect(match![1]).toMatch(W3C)
  }
  return entries
}

/** Each entry's lastmod by its address. */
function lastmods(xml: string) {
  return new Map(
    [...xml.matchAll(/<loc>([^<]+)<\/loc>(?:<lastmod>([^<]+)<\/lastmod>)?/g)].map((m) => [m[1]!, m[2]]),
  )
}

const newest = (values: Array<string | undefined>) =>
  values
    .filter((v): v is string => Boolean(v))
    .reduce((a, b) =>
      Date.parse(b.length === 10 ? `${b}T00:00:00Z` : b) > Date.parse(a.length === 10 ? `${a}T00:00:00Z` : a)
        ? b
        : a,
    )

describe('the sitemap index', () => {
  test('names the pages file and each file with a live event, with the newest lastmod in it', async () => {
    const index = await sitemapIndexXml(ORIGIN, { idsPerFile: IDS_PER_FILE })
    expectShape(index, 'sitemapindex', 'sitemap')
    const liveFiles = [...new Set(live.map((e) => fileOf(e.eventID)))].sort((a, b) => a - b)
    expect(liveFiles.length).toBeGreaterThan(1)
    expect(locsOf(index)).toEqual([
      `${ORIGIN}/sitemaps/pages.xml`,
      ...liveFiles.map((n) => `${ORIGIN}/sitemaps/events-${n}.xml`),
    ])
    const indexLastmods = lastmods(index)
    expect(indexLastmods.get(`${ORIGIN}/sitemaps/pages.xml`)).toBeUndefined()
    for (const n of liveFiles) {
      const file = await sitemapFileXml(`events-${n}.xml`, ORIGIN, { idsPerFile: IDS_PER_FILE })
      expect(indexLastmods.get(`${ORIGIN}/sitemaps/events-${n}.xml`), `file ${n}`).toBe(
        newest([...lastmods(file).values()]),
      )
    }
  })

  test("a page's lastmod is its last change, else its approval day; a file's is the later of them", async () => {
    const withDay = live[1]!
    const file = await sitemapFileXml(`events-${fileOf(withDay.eventID)}.xml`, ORIGIN, {
      idsPerFile: IDS_PER_FILE,
    })
    const own = [...lastmods(file).entries()].find(([loc]) => loc.includes(`/event/${withDay.eventID}-`))
    expect(own?.[1]).toBe('2025-03-01')
    const other = [...lastmods(file).entries()].find(([loc]) => loc.includes(`/event/${live[0]!.eventID}-`))
    if (other) expect(other[1]).toBe('2025-01-01T12:00:00Z')
    const index = await sitemapIndexXml(ORIGIN, { idsPerFile: IDS_PER_FILE })
    const last = live.at(-1)!
    expect(lastmods(index).get(`${ORIGIN}/sitemaps/events-${fileOf(last.eventID)}.xml`)).toBe(
      `2025-01-${String(live.length).padStart(2, '0')}T12:00:00Z`,
    )
  })

  test('every live event is in exactly one file, in its range of ids; ended, unpaid, pending and taken down ones in none', async () => {
    const index = await sitemapIndexXml(ORIGIN, { idsPerFile: IDS_PER_FILE })
    const seen: string[] = []
    for (const loc of locsOf(index).slice(1)) {
      const name = loc.split('/').pop()!
      const n = Number(/^events-(\d+)\.xml$/.exec(name)![1])
      const file = await sitemapFileXml(name, ORIGIN, { idsPerFile: IDS_PER_FILE })
      const urls = expectShape(file, 'urlset', 'url')
      expect(urls.length).toBeLessThanOrEqual(IDS_PER_FILE)
      for (const eventLoc of locsOf(file)) {
        const id = Number(/\/event\/(\d+)-/.exec(eventLoc)![1])
        expect(fileOf(id), eventLoc).toBe(n)
        seen.push(eventLoc)
      }
    }
    expect(seen.toSorted()).toEqual(
      live.map((e) => `${ORIGIN}/event/${e.eventID}-test-event-${e.eventTitle.split(' ').pop()}`).toSorted(),
    )
    expect(new Set(seen).size).toBe(seen.length)
    for (const e of notLive) expect(seen.some((loc) => loc.includes(`/event/${e.eventID}-`))).toBe(false)
  })

  test('the pages file lists the public pages and the business pages there are, each once', async () => {
    const xml = await sitemapFileXml('pages.xml', ORIGIN, { idsPerFile: IDS_PER_FILE })
    expectShape(xml, 'urlset', 'url')
    const locs = locsOf(xml)
    expect(locs.slice(0, 3)).toEqual([`${ORIGIN}/landing`, `${ORIGIN}/public`, `${ORIGIN}/calendar`])
    expect(
      locs.filter((l) => l === `${ORIGIN}${businessPagePath(shop.businessID, shop.businessName)}`),
    ).toHaveLength(1)
    expect(locs.some((l) => l.includes(`/business/${hidden.businessID}-`))).toBe(false)
    expect(locs.some((l) => l.includes(`/business/${quiet.businessID}-`))).toBe(false)
    expect(new Set(locs).size).toBe(locs.length)
  })

  test('a range of ids without a live event is no file: not in the index, and a not_found', async () => {
    const index = await sitemapIndexXml(ORIGIN, { idsPerFile: IDS_PER_FILE })
    const listed = new Set(locsOf(index))
    const empty = fileOf(notLive.at(-1)!.eventID) - 1
    expect(listed.has(`${ORIGIN}/sitemaps/events-${empty}.xml`)).toBe(false)
    await expect(
      sitemapFileXml(`events-${empty}.xml`, ORIGIN, { idsPerFile: IDS_PER_FILE }),
    ).rejects.toMatchObject(new AppError('There is no such sitemap file.', 'not_found'))
  })
})

describe('the routes', () => {
  const file = (name: string) => callRoute(sitemapFileLoader, `/sitemaps/${name}`, { params: { file: name } })

  test('/sitemap.xml is the index, and each file it names answers as XML', async () => {
    const response = await callRoute(sitemapLoader, '/sitemap.xml')
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('application/xml; charset=utf-8')
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=3600')
    const index = await response.text()
    expectShape(index, 'sitemapindex', 'sitemap')
    const names = locsOf(index).map((loc) => loc.split('/').pop()!)
    expect(names).toEqual(['pages.xml', 'events-1.xml'])
    for (const name of names) {
      const answer = await file(name)
      expect(answer.status, name).toBe(200)
      expect(answer.headers.get('Content-Type')).toBe('application/xml; charset=utf-8')
      expect(answer.headers.get('Cache-Control')).toBe('public, max-age=3600')
      expectShape(await answer.text(), 'urlset', 'url')
    }
    expect(locsOf(await (await file('events-1.xml')).text())).toHaveLength(live.length)
  })

  test('robots.txt names the index', async () => {
    const text = await (await callRoute(robotsLoader, '/robots.txt')).text()
    expect(text).toMatch(/^Sitemap: http:\/\/localhost\/sitemap\.xml$/m)
  })

  test('any other file name is a 404, never a 500', async () => {
    for (const name of [
      'events-abc.xml',
      'events-0.xml',
      'events--1.xml',
      'events-01.xml',
      'events-2.xml',
      'events-99999999999999999999.xml',
      'events-9999999999.xml',
      'events-1.xml.gz',
      'events-1',
      'pages.XML',
      'index.xml',
      '',
    ]) {
      const answer = await file(name)
      expect(answer.status, name).toBe(404)
      expect(await answer.json()).toMatchObject({ message: 'There is no such sitemap file.' })
    }
  })
})
