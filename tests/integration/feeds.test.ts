import { beforeAll, describe, expect, test } from 'vitest'
import { loader as icsLoader } from '#app/routes/calendar[.]ics.ts'
import { loader as rssLoader } from '#app/routes/calendar[.]rss.ts'
import { loader as eventLoader } from '#app/routes/event.$id.tsx'
import { loader as eventIcsLoader } from '#app/routes/event.$id_.calendar[.]ics.ts'
import { loader as robotsLoader } from '#app/routes/robots[.]txt.ts'
import { loader as sitemapLoader } from '#app/routes/sitemap[.]xml.ts'
import { loader as sitemapFileLoader } from '#app/routes/sitemaps.$file.ts'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import type { Business, Event } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { BUILD_TIMEOUT_MS, builtRequestHandler } from '#tests/support/built-app.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { businessPagePath } from '#app/models/calendar/business-links.ts'
import { callRoute } from '#tests/support/routes.ts'
import { calendarEntries } from '#tests/support/icalendar.ts'

const today = platformToday()
const day = (n: number) => addDaysIso(today, n)

let owner: Business
let concert: Event
let picnic: Event
let ended: Event
let pending: Event

beforeAll(async () => {
  owner = await insertBusiness(db, {
    businessName: 'Feed & Co',
    businessAddress: '5 Elm St',
    businessCity: 'Springfield',
    businessState: 'IL',
    businessZip: '62704',
  })
  concert = await insertTestEvent(owner, {
    eventTitle: 'Brass </script> Concert',
    eventDescription: 'Trumpets, "tubas" & trombones, <b>loud</b>.',
    category: ['Concert'],
    showAdOnDates: [day(-1), day(2), day(4)],
    stillPhotoURL: '/api/media/2026-01-01_7.webp',
  })
  picnic = await insertTestEvent(owner, {
    eventTitle: 'Picnic',
    category: ['Family'],
    eventDate: day(6),
    showAdOnDates: [day(5)],
  })
  ended = await insertTestEvent(owner, { eventTitle: 'Ended', showAdOnDates: [day(-3)] })
  pending = await insertTestEvent(owner, {
    eventTitle: 'Pending',
    eventStatus: 'pending',
    showAdOnDates: [day(2)],
  })
})

const vevents = calendarEntries

/** The date of an entry's start or end. */
const isoDay = (value: string | null) => value!.slice(0, 10)

function get(loader: Parameters<typeof callRoute>[0], path: string) {
  return callRoute(loader, path)
}

const locsOf = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])

describe('/calendar.ics', () => {
  test('parses as iCalendar: one all-day entry per upcoming date of each live event', async () => {
    const response = await get(icsLoader, '/calendar.ics')
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toMatch(/^text\/calendar/)
    const entries = vevents(await response.text())
    const keys = entries.map((e) => `${e.summary} ${isoDay(e.start)}`).sort()
    // The date already past (day -1) is left out; the picnic has its own date, so its display date is no entry.
    expect(keys).toEqual(
      [`Brass </script> Concert ${day(2)}`, `Brass </script> Concert ${day(4)}`, `Picnic ${day(6)}`].sort(),
    )
    const first = entries.find((e) => e.summary.startsWith('Brass'))!
    expect(first.allDay).toBe(true)
    expect(first.url).toBe(`http://localhost/event/${concert.eventID}-brass-script-concert`)
    expect(String(first.location)).toContain('Springfield')
    expect(String(first.description)).toContain('"tubas" & trombones')
  })

  test('the calendar’s filters apply, dates outside the window are left out', async () => {
    const byCategory = vevents(await (await get(icsLoader, '/calendar.ics?category=Family')).text())
    expect(byCategory.map((e) => `${e.summary} ${isoDay(e.start)}`)).toEqual([`Picnic ${day(6)}`])
    const windowed = vevents(await (await get(icsLoader, `/calendar.ics?from=${day(4)}&to=${day(5)}`)).text())
    // The concert's display dates inside the window; the picnic (matched by its display date) on its own date.
    const starts = windowed.map((e) => `${e.summary} ${isoDay(e.start)}`).sort()
    expect(starts).toEqual([`Brass </script> Concert ${day(4)}`, `Picnic ${day(6)}`])
  })

  test('no matches is still a valid calendar', async () => {
    const text = await (await get(icsLoader, '/calendar.ics?keyword=nothing-matches')).text()
    expect(text).toContain('BEGIN:VCALENDAR')
    expect(vevents(text)).toEqual([])
  })
})

describe('/calendar.rss', () => {
  test('an RSS 2.0 channel with one escaped item per live event, soonest first', async () => {
    const response = await get(rssLoader, '/calendar.rss')
    expect(response.headers.get('Content-Type')).toMatch(/^application\/rss\+xml/)
    const xml = await response.text()
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rss version="2.0"/)
    const items = [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map((m) => m[1]!)
    expect(items).toHaveLength(2)
    expect(items[0]).toContain(`<title>Brass &lt;/script&gt; Concert (${day(2)})</title>`)
    expect(items[0]).toContain('Trumpets, &quot;tubas&quot; &amp; trombones, &lt;b&gt;loud&lt;/b&gt;.')
    expect(items[0]).toContain(`<link>http://localhost/event/${concert.eventID}-brass-script-concert</link>`)
    // The picnic's own date, not the first day its ad runs.
    expect(items[1]).toContain(`<title>Picnic (${day(6)})</title>`)
    expect(xml).not.toContain('Ended')
    expect(xml).not.toContain('Pending')
  })

  test('filters apply through the query string', async () => {
    const xml = await (await get(rssLoader, '/calendar.rss?keyword=trumpets')).text()
    expect([...xml.matchAll(/<item>/g)]).toHaveLength(1)
    expect(xml).toContain('<link>http://localhost/calendar?keyword=trumpets</link>')
  })
})

describe('sitemap.xml and robots.txt', () => {
  test('the sitemap index names the pages file and the events file, which list the public pages, every live event and every business page, and nothing else', async () => {
    const response = await get(sitemapLoader, '/sitemap.xml')
    expect(response.headers.get('Content-Type')).toMatch(/^application\/xml/)
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=3600')
    const index = await response.text()
    expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
    expect(locsOf(index)).toEqual([
      'http://localhost/sitemaps/pages.xml',
      'http://localhost/sitemaps/events-1.xml',
    ])

    const file = (name: string) =>
      callRoute(sitemapFileLoader, `/sitemaps/${name}`, { params: { file: name } })
    const pages = await file('pages.xml')
    expect(pages.headers.get('Content-Type')).toMatch(/^application\/xml/)
    expect(pages.headers.get('Cache-Control')).toBe('public, max-age=3600')
    const pagesXml = await pages.text()
    expect(pagesXml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
    expect(locsOf(pagesXml)).toEqual([
      'http://localhost/landing',
      'http://localhost/public',
      'http://localhost/calendar',
      `http://localhost${businessPagePath(owner.businessID, owner.businessName)}`,
    ])
    const eventsXml = await (await file('events-1.xml')).text()
    expect(eventsXml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
    expect(locsOf(eventsXml)).toEqual([
      `http://localhost/event/${concert.eventID}-brass-script-concert`,
      `http://localhost/event/${picnic.eventID}-picnic`,
    ])
    expect(eventsXml).not.toContain(`/event/${ended.eventID}-`)
    expect(eventsXml).not.toContain(`/event/${pending.eventID}-`)
  })

  test('robots.txt allows the public pages, keeps crawlers out of the private ones, and names the sitemap', async () => {
    const text = await (await get(robotsLoader, '/robots.txt')).text()
    expect(text).toContain('User-agent: *')
    expect(text).toContain('Disallow: /admin')
    expect(text).toContain('Disallow: /api/')
    expect(text).toContain('Allow: /api/media/')
    expect(text).toMatch(/^Sitemap: http:\/\/localhost\/sitemap\.xml$/m)
  })

  test('PUBLIC_URL, when set, is the origin of every absolute link', async () => {
    process.env.PUBLIC_URL = 'https://events.example.org'
    resetEnvCache()
    try {
      expect(await (await get(robotsLoader, '/robots.txt')).text()).toContain(
        'Sitemap: https://events.example.org/sitemap.xml',
      )
      expect(await (await get(sitemapLoader, '/sitemap.xml')).text()).toContain(
        '<loc>https://events.example.org/sitemaps/pages.xml</loc>',
      )
      const pages = await callRoute(sitemapFileLoader, '/sitemaps/pages.xml', {
        params: { file: 'pages.xml' },
      })
      expect(await pages.text()).toContain('<loc>https://events.example.org/public</loc>')
    } finally {
      delete process.env.PUBLIC_URL
      resetEnvCache()
    }
  })
})

describe('event pages for search engines and link previews', () => {
  let request: Awaited<ReturnType<typeof builtRequestHandler>>

  beforeAll(async () => {
    request = await builtRequestHandler()
  }, BUILD_TIMEOUT_MS)

  function jsonLdOf(html: string) {
    return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) =>
      JSON.parse(m[1]!),
    )
  }

  test('a live event page carries schema.org Event JSON-LD that parses, an Event per date', async () => {
    const html = await (await request(`/event/${concert.eventID}?viewMode=true`)).text()
    const blocks = jsonLdOf(html)
    expect(blocks).toHaveLength(1)
    const [events] = blocks as unknown as Array<Array<Record<string, unknown>>>
    expect(events!.map((event) => [event.startDate, event.endDate])).toEqual([
      [day(2), day(2)],
      [day(4), day(4)],
    ])
    const [data] = events!
    expect(data).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: 'Brass </script> Concert',
      url: `http://localhost/event/${concert.eventID}-brass-script-concert`,
      image: ['16x9', '4x3', '1x1'].map((kind) =>
        expect.stringMatching(
          new RegExp(`^http://localhost/event/${concert.eventID}/share/${kind}\\.jpg\\?v=[0-9a-f]{16}$`),
        ),
      ),
      location: {
        '@type': 'Place',
        name: 'Feed & Co',
        address: {
          '@type': 'PostalAddress',
          streetAddress: '5 Elm St',
          addressLocality: 'Springfield',
          postalCode: '62704',
        },
      },
    })
    // The title's "</script>" cannot end the JSON block early.
    expect(html).not.toContain('Brass </script> Concert"')
  })

  test('Open Graph, Twitter and canonical tags', async () => {
    const html = await (await request(`/event/${concert.eventID}?viewMode=true`)).text()
    const canonical = `http://localhost/event/${concert.eventID}-brass-script-concert`
    expect(html).toContain(`<link rel="canonical" href="${canonical}"/>`)
    expect(html).toContain(`<meta property="og:url" content="${canonical}"/>`)
    expect(html).toContain('<meta property="og:type" content="website"/>')
    expect(html).toMatch(/<meta property="og:title" content="Brass &lt;\/script&gt; Concert · EventShout"\/>/)
    expect(html).toMatch(
      new RegExp(
        `<meta property="og:image" content="http://localhost/event/${concert.eventID}/share/card\\.jpg\\?v=[0-9a-f]{16}"/>`,
      ),
    )
    expect(html).toContain('<meta property="og:image:type" content="image/jpeg"/>')
    expect(html).toContain('<meta property="og:image:width" content="1200"/>')
    expect(html).toContain('<meta property="og:image:height" content="630"/>')
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"/>')
  })

  test('JSON-LD dates an event with its own date by that date, not by the days its ad runs', async () => {
    const html = await (await request(`/event/${picnic.eventID}?viewMode=true`)).text()
    expect(jsonLdOf(html)[0]).toMatchObject({ startDate: day(6), endDate: day(6) })
  })

  test('an owner’s preview of an event that is not live has no structured data and is not indexed', async () => {
    const cookie = await sessionCookieFor({ business: owner })
    const response = await callRoute(eventLoader, `/event/${pending.eventID}?viewMode=true`, {
      params: { id: String(pending.eventID) },
      headers: { Cookie: cookie },
    })
    expect(await response.json()).toMatchObject({ live: false, seo: null })
  })
})

describe('when events happen, on every page visitors see', () => {
  let request: Awaited<ReturnType<typeof builtRequestHandler>>

  beforeAll(async () => {
    request = await builtRequestHandler()
  }, BUILD_TIMEOUT_MS)

  /** The `<time>` dates shown in the block of HTML that holds `title`. */
  function datesNear(html: string, title: string, blockTag: 'article' | 'li') {
    const blocks = html.split(`<${blockTag}`).filter((b) => b.includes(`>${title}<`))
    expect(blocks.length).toBeGreaterThan(0)
    return [...new Set(blocks.flatMap((b) => [...b.matchAll(/<time dateTime="([\d-]+)"/g)].map((m) => m[1])))]
  }

  test('calendar cards and the featured strip show the event’s own date, else its next display date', async () => {
    const html = await (await request('/calendar')).text()
    expect(datesNear(html, 'Picnic', 'article')).toEqual([day(6)])
    expect(datesNear(html, 'Brass &lt;/script&gt; Concert', 'article')).toEqual([day(2)])
    expect(html.match(/data-testid="featured-event"/g)).toHaveLength(2)
  })

  test('/public leads with the event: photo, title, then its date and category, the business after', async () => {
    const html = await (await request('/public')).text()
    expect(datesNear(html, 'Picnic', 'li')).toEqual([day(6)])
    expect(datesNear(html, 'Brass &lt;/script&gt; Concert', 'li')).toEqual([day(2)])
    const card = html.slice(html.indexOf('data-testid="customer-event-card"'))
    const photo = card.indexOf('<img')
    const title = card.indexOf('Brass &lt;/script&gt; Concert</a></h2>')
    const business = card.indexOf('<address')
    expect(photo).toBeGreaterThan(-1)
    expect(photo).toBeLessThan(title)
    expect(title).toBeLessThan(business)
    expect(card.slice(title, business)).toContain('>Concert<')
    // The first photo is fetched first.
    expect(card.slice(photo, card.indexOf('>', photo))).toContain('fetchpriority="high"')
  })

  test('the event page lists every date, the category, the address with a map link and calendar links', async () => {
    const picnicHtml = await (await request(`/event/${picnic.eventID}?viewMode=true`)).text()
    expect(datesNear(picnicHtml, 'Picnic', 'article')).toEqual([day(6)])
    const html = await (await request(`/event/${concert.eventID}?viewMode=true`)).text()
    const facts = html.slice(html.indexOf('data-testid="event-facts"'))
    expect([...facts.matchAll(/<time dateTime="([\d-]+)"/g)].map((m) => m[1])).toEqual([
      day(-1),
      day(2),
      day(4),
    ])
    expect(facts).toContain('<dd>Concert</dd>')
    expect(facts).toContain('5 Elm St, Springfield, IL 62704')
    expect(facts).toContain(
      'href="https://www.openstreetmap.org/search?query=5%20Elm%20St%2C%20Springfield%2C%20IL%2062704"',
    )
    expect(facts).toContain(`href="/event/${concert.eventID}/calendar.ics"`)
    expect(facts).toMatch(
      /href="https:\/\/calendar\.google\.com\/calendar\/render\?action=TEMPLATE&amp;text=Brass[^"]*dates=/,
    )
    expect(facts).toContain('href="mailto:?subject=')
    expect(html).toContain('href="/calendar"')
    expect(html).toContain('href="/dashboard"')
  })
})

describe('/event/{id}/calendar.ics', () => {
  function getIcs(id: string | number, cookie?: string) {
    return callRoute(eventIcsLoader, `/event/${id}/calendar.ics`, {
      params: { id: String(id) },
      headers: cookie ? { Cookie: cookie } : {},
    })
  }

  test('a live event as valid iCalendar: one all-day entry per event date', async () => {
    const response = await getIcs(picnic.eventID)
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toMatch(/^text\/calendar/)
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=300')
    const text = await response.text()
    expect(text).toMatch(/^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\n/)
    const entries = vevents(text)
    expect(entries.map((e) => [e.summary, isoDay(e.start), isoDay(e.end), e.allDay])).toEqual([
      ['Picnic', day(6), day(7), true],
    ])
    expect(entries[0]!.url).toBe(`http://localhost/event/${picnic.eventID}-picnic`)
    const concertEntries = vevents(await (await getIcs(concert.eventID)).text())
    expect(concertEntries.map((e) => isoDay(e.start)).sort()).toEqual([day(-1), day(2), day(4)])
  })

  test('an event that is not live is a 404 for visitors and other businesses, its advertiser gets it privately', async () => {
    const stranger = await insertBusiness(db, { businessName: 'Stranger Ltd' })
    for (const event of [pending, ended]) {
      expect((await getIcs(event.eventID)).status).toBe(404)
      expect((await getIcs(event.eventID, await sessionCookieFor({ business: stranger }))).status).toBe(404)
      const own = await getIcs(event.eventID, await sessionCookieFor({ business: owner }))
      expect(own.status).toBe(200)
      expect(own.headers.get('Cache-Control')).toBe('private, no-store')
      expect(vevents(await own.text())).toHaveLength(1)
    }
  })

  test('missing and hostile ids are a 404 with a message, never a 500', async () => {
    for (const id of ['999999', 'abc', '-1', '0', '1.5', '99999999999', "1' OR 1=1", '%00', '']) {
      const response = await getIcs(id)
      expect(response.status, id).toBe(404)
      expect(await response.json()).toEqual({ message: 'Event not found' })
    }
  })
})
