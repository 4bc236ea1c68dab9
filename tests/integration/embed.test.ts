import { PRODUCT_NAME } from '#app/constants.ts'
import { beforeAll, describe, expect, test } from 'vitest'
import { EMBED_EVENTS_LIMIT } from '#app/models/calendar/embed.ts'
import { invalidateLiveEvents } from '#app/models/calendar/live-events-cache.server.ts'
import { loader as embedPageLoader } from '#app/routes/embed._index.tsx'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { eq } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { eventDailyStats } from '#db/schema.ts'
import { BUILD_TIMEOUT_MS, builtRequestHandler } from '#tests/support/built-app.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { scriptsOf } from '#tests/support/page-scripts.ts'
import { callRoute } from '#tests/support/routes.ts'

const today = platformToday()
const day = (n: number) => addDaysIso(today, n)

let request: Awaited<ReturnType<typeof builtRequestHandler>>
let jazzID: number
/** A sponsored ad, shown today: in a Sponsored slot of its category's list. */
let lanternID: number

beforeAll(async () => {
  request = await builtRequestHandler()
  const hall = await insertBusiness(db, {
    businessName: 'Springfield Hall',
    businessCity: 'Springfield',
    businessState: 'IL',
    businessZip: '62704',
  })
  const barn = await insertBusiness(db, { businessName: 'Barn & Co', businessZip: '90210' })
  const jazz = await insertTestEvent(hall, {
    eventTitle: 'Jazz <Night>',
    category: ['Concert'],
    eventDescription: 'Late jazz',
    showAdOnDates: [day(2), day(3)],
    stillPhotoURL: '/api/media/2026-01-01_1.webp',
  })
  jazzID = jazz.eventID
  // Before the first request: the built app reads the slots' candidates once a turn.
  const lantern = await insertTestEvent(barn, {
    eventTitle: 'Lantern Market',
    category: ['Market'],
    showAdOnDates: [today, day(1)],
    sponsored: true,
    sponsoredCents: 1000,
  })
  lanternID = lantern.eventID
  await insertTestEvent(hall, { eventTitle: 'Own date', eventDate: day(9), showAdOnDates: [day(1)] })
  await insertTestEvent(barn, { eventTitle: 'Picnic', category: ['Family'], showAdOnDates: [day(1)] })
  await insertTestEvent(barn, { eventTitle: 'Over', showAdOnDates: [day(-1)] })
  await insertTestEvent(barn, { eventTitle: 'Unpaid', showAdOnDates: [day(1)], paymentStatus: 'pending' })
  for (let i = 0; i < EMBED_EVENTS_LIMIT + 2; i++) {
    await insertTestEvent(barn, {
      eventTitle: `Bulk ${i}`,
      category: ['Sports'],
      showAdOnDates: [day(20 + i)],
    })
  }
  invalidateLiveEvents()
}, BUILD_TIMEOUT_MS)

async function page(path: string) {
  const response = await request(path)
  return { response, html: await response.text() }
}

/** The titles of the events the framed list links to in their own places (not in a Sponsored slot), in order. */
function listedTitles(html: string) {
  return [
    ...html.matchAll(/<a href="\/event\/\d+-[a-z0-9-]+" ping="\/event\/\d+\/view"[^>]*>([^<]*)<\/a>/g),
  ].map((m) => m[1])
}

describe('GET /embed/calendar', () => {
  test('any site may frame it: frame-ancestors *, no X-Frame-Options', async () => {
    const { response } = await page('/embed/calendar')
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Security-Policy')).toContain('frame-ancestors *')
    expect(response.headers.get('Content-Security-Policy')).not.toContain("frame-ancestors 'none'")
    expect(response.headers.get('X-Frame-Options')).toBeNull()
  })

  test('every other page still refuses to be framed', async () => {
    for (const path of [
      '/calendar',
      '/calendar?view=month',
      '/embed',
      '/public',
      '/landing',
      '/login',
      `/event/${jazzID}?viewMode=true`,
      '/embed/calendar/else',
      '/no-such-page',
    ]) {
      const { response } = await page(path)
      expect(response.headers.get('Content-Security-Policy'), path).toContain("frame-ancestors 'none'")
      expect(response.headers.get('X-Frame-Options'), path).toBe('DENY')
    }
  })

  test('a compact list: soonest first, title, date, place; links open the event in a new tab; no script', async () => {
    const { html } = await page('/embed/calendar')
    // The sponsored ad in its own place too (its slot above pings as a slot click, below).
    expect(listedTitles(html)).toEqual([
      'Lantern Market',
      'Own date',
      'Picnic',
      'Jazz &lt;Night&gt;',
      ...Array.from({ length: EMBED_EVENTS_LIMIT - 4 }, (_, i) => `Bulk ${i}`),
    ])
    expect(html).toContain(`Springfield Hall · Springfield, IL`)
    expect(html).toContain('Barn &amp; Co')
    // The date rule: an event with its own date shows that date, not its display date.
    const [, month, dayOfMonth] = day(9).split('-').map(Number)
    const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
    expect(html).toContain(`${months[month! - 1]} ${dayOfMonth}, ${day(9).slice(0, 4)}`)
    expect(html).toContain('src="/api/media/2026-01-01_1.webp"')

    // Each line's photo and title (the slot's line too), and "More events".
    const links = [...html.matchAll(/<a\b([^>]*)>/g)].map((m) => m[1]!)
    expect(links.length).toBe(2 * (EMBED_EVENTS_LIMIT + 1) + 1)
    for (const attributes of links) {
      expect(attributes).toContain('target="_blank"')
      expect(attributes).toContain('rel="noopener"')
    }
    expect(html).not.toMatch(/<form\b/)
    expect(html).toContain(`More events on ${PRODUCT_NAME}`)
    // No site header or footer inside a partner's page, and no script of any kind.
    expect(html).not.toContain('Skip to content')
    expect(html).not.toContain('Advertiser sign in')
    expect(html).not.toMatch(/<script/i)
    expect(scriptsOf(html)).toEqual([])
  })

  test('the calendar filters apply; the "more" link opens the calendar with them', async () => {
    expect(listedTitles((await page('/embed/calendar?category=Concert')).html)).toEqual([
      'Jazz &lt;Night&gt;',
    ])
    expect(listedTitles((await page('/embed/calendar?zip=902&category=Family')).html)).toEqual(['Picnic'])
    expect(listedTitles((await page('/embed/calendar?keyword=JAZZ')).html)).toEqual(['Jazz &lt;Night&gt;'])
    // Each at its first date in the window: Jazz on day 3, Own date on its own date, day 9.
    expect(listedTitles((await page(`/embed/calendar?from=${day(3)}&to=${day(9)}`)).html)).toEqual([
      'Jazz &lt;Night&gt;',
      'Own date',
    ])
    expect(listedTitles((await page('/embed/calendar?near=62704&radius=5&keyword=jazz')).html)).toEqual([
      'Jazz &lt;Night&gt;',
    ])
    expect(listedTitles((await page('/embed/calendar?near=62704&radius=5&category=Family')).html)).toEqual([])
    const { html } = await page('/embed/calendar?keyword=nothing+like+it&category=Concert')
    expect(listedTitles(html)).toEqual([])
    expect(html).toContain('No upcoming events right now.')
    expect(html).toContain('href="/calendar?keyword=nothing+like+it&amp;category=Concert"')
  })

  test('bad filters are refused with 400 and the reason, not ignored', async () => {
    for (const [query, reason] of [
      ['from=garbage', 'from: "garbage" is not a valid date'],
      ['to=2026-02-30', 'to: "2026-02-30" is not a valid date'],
      [`keyword=${'x'.repeat(101)}`, 'keyword must be at most 100 characters'],
      ['near=abc', 'near: "abc" is not a ZIP code'],
      ['near=00000', 'Near: "00000" is not a US ZIP code we know'],
      ['near=62704&radius=7', 'radius must be'],
    ] as const) {
      const { response, html } = await page(`/embed/calendar?${query}`)
      expect(response.status, query).toBe(400)
      expect(html, query).toContain(reason.replaceAll('"', '&quot;'))
    }
  })
  test("a Sponsored slot's title is a link whose ping counts the click as a slot click, in a new tab; its own line's ping does not", async () => {
    const { response, html } = await page('/embed/calendar?category=Market')
    expect(response.status).toBe(200)
    const action = `/event/${lanternID}/view?from=sponsored`
    const pings = [
      ...html.matchAll(/<a href="([^"]+)" ping="([^"]+)"[^>]*target="_blank"[^>]*>Lantern Market<\/a>/g),
    ]
    expect(pings.map((m) => [m[1], m[2]])).toEqual([
      [`/event/${lanternID}-lantern-market`, action],
      [`/event/${lanternID}-lantern-market`, `/event/${lanternID}/view`],
    ])
    expect(listedTitles(html)).toEqual(['Lantern Market'])

    const click = await request(action, {
      method: 'POST',
      headers: {
        Origin: 'http://localhost',
        'Content-Type': 'text/ping',
        'Ping-To': `http://localhost/event/${lanternID}-lantern-market`,
        'X-Forwarded-For': '198.51.100.40',
        'User-Agent':
          'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
      },
    })
    expect(click.status).toBe(204)
    const [stats] = await db.select().from(eventDailyStats).where(eq(eventDailyStats.eventID, lanternID))
    expect(stats).toMatchObject({ clicks: 1, slotClicks: 1 })
  })
})

describe('GET /embed', () => {
  test('a GET form of the filters, the snippet for them (absolute URL, HTML-escaped) and a live preview', async () => {
    const response = await callRoute(embedPageLoader, '/embed?category=Food+%26+Drink&zip=627&from=&to=')
    expect(response.status).toBe(200)
    const body = (await response.json()) as { snippet: string; path: string }
    expect(body.path).toBe('/embed/calendar?category=Food+%26+Drink&zip=627')
    expect(body.snippet).toBe(
      '<iframe src="http://localhost/embed/calendar?category=Food+%26+Drink&amp;zip=627" ' +
        'title="Upcoming events from EventShout" width="100%" height="600" loading="lazy" style="border:0"></iframe>',
    )

    const { response: built, html } = await page('/embed?category=Concert&keyword=%22quoted%22+%3Cb%3E')
    expect(built.status).toBe(200)
    expect(html).toMatch(/<form[^>]*method="get"[^>]*action="\/embed"/)
    // The snippet is text in the page: its markup is escaped, and so is the partner's keyword inside its URL.
    expect(html).toContain(
      '&lt;iframe src=&quot;http://localhost/embed/calendar?keyword=%22quoted%22+%3Cb%3E&amp;amp;category=Concert&quot;',
    )
    expect(html).not.toContain('<b>')
    expect(html).toMatch(
      /<iframe src="\/embed\/calendar\?keyword=%22quoted%22\+%3Cb%3E&amp;category=Concert"/,
    )
    expect(scriptsOf(html).every((script) => script.kind === 'inline')).toBe(true)
  })

  test('bad filters: 400 with the form and the reasons, and no snippet', async () => {
    const { response, html } = await page('/embed?from=garbage&keyword=ok')
    expect(response.status).toBe(400)
    expect(html).toContain('from: &quot;garbage&quot; is not a valid date')
    expect(html).toContain('value="ok"')
    expect(html).not.toContain('&lt;iframe')
  })
})
