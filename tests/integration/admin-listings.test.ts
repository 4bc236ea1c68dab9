import { beforeAll, describe, expect, test } from 'vitest'
import { LISTINGS_MAX_ENTRIES, TRUNCATED_NOTICE } from '#app/models/calendar/listings.ts'
import * as listingsRoute from '#app/routes/admin_.listings.tsx'
import { loader as csvLoader } from '#app/routes/admin_.listings[.]csv.ts'
import { loader as htmlLoader } from '#app/routes/admin_.listings[.]html.ts'
import { loader as textLoader } from '#app/routes/admin_.listings[.]txt.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { formatShortDate } from '#app/models/ads/event-times.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import type { Business } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { shownAfter, textOf } from '#tests/support/document-request.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'

let adminCookie: string
let owner: Business
const today = platformToday()
/** The listed week: a year ahead, so no other file's ads share its days. */
const start = addDaysIso(today, 300)
const day = (n: number) => addDaysIso(start, n)
const week = `from=${start}&to=${day(6)}`

beforeAll(async () => {
  const admin = await insertUser(db, { roles: ['admin'] })
  adminCookie = await sessionCookieFor({ user: admin })
  owner = await insertBusiness(db, { businessName: 'The Blue Room', businessCity: 'Springfield' })
  // Day 0: an all-day fair and two timed concerts, out of order; day 2: the fair again and a venue elsewhere.
  await insertTestEvent(owner, {
    eventTitle: 'Late concert',
    startTime: '21:00',
    category: ['Concert'],
    showAdOnDates: [day(0)],
  })
  await insertTestEvent(owner, {
    eventTitle: 'Craft fair',
    category: ['Community'],
    showAdOnDates: [day(0), day(2)],
  })
  await insertTestEvent(owner, {
    eventTitle: 'Early concert',
    startTime: '19:30',
    endTime: '22:00',
    category: ['Concert'],
    showAdOnDates: [day(0)],
  })
  await insertTestEvent(owner, {
    eventTitle: 'Bake sale',
    startTime: '10:00',
    category: ['Fundraiser'],
    venueCity: 'Shelbyville',
    showAdOnDates: [day(2)],
  })
  // An ad with its own date on day 3, advertised from day 1: listed on its date only.
  await insertTestEvent(owner, {
    eventTitle: 'Gala night',
    startTime: '18:00',
    category: ['Special'],
    showAdOnDates: [day(1), day(2)],
    eventDate: day(3),
  })
  // Not live: awaiting review, unpaid, rejected.
  await insertTestEvent(owner, {
    eventTitle: 'Awaiting review',
    eventStatus: 'pending',
    showAdOnDates: [day(0)],
  })
  await insertTestEvent(owner, { eventTitle: 'Not paid', paymentStatus: 'pending', showAdOnDates: [day(0)] })
  await insertTestEvent(owner, { eventTitle: 'Rejected', eventStatus: 'rejected', showAdOnDates: [day(0)] })
  // Outside the week.
  await insertTestEvent(owner, { eventTitle: 'Next month', showAdOnDates: [day(30)] })
})

const LISTINGS_PAGE = [{ path: '/admin/listings', ...listingsRoute }]
const listingsPage = (query: string) =>
  shownAfter(LISTINGS_PAGE, `/admin/listings?${query}`, { headers: { Cookie: adminCookie } })
const download = (loader: typeof csvLoader, extension: string, query: string) =>
  callRoute(loader, `/admin/listings.${extension}?${query}`, { headers: { Cookie: adminCookie } })

describe('GET /admin/listings', () => {
  test('the live ads of the range by day, each day in time order (all day first), with the range in the header', async () => {
    const page = await listingsPage(week)
    expect(page.status).toBe(200)
    const text = textOf(page.html)
    expect(text).toContain(`Listings ${formatRangeText()}`)
    const order = [
      formatShortDate(day(0)),
      'All day Craft fair',
      '7:30 PM Early concert',
      '9 PM Late concert',
      formatShortDate(day(2)),
      'All day Craft fair',
      '10 AM Bake sale',
      formatShortDate(day(3)),
      '6 PM Gala night',
    ]
    let at = 0
    for (const part of order) {
      const found = text.indexOf(part, at)
      expect(found, part).toBeGreaterThanOrEqual(at)
      at = found + part.length
    }
    expect(text).toContain('The Blue Room, Shelbyville')
    // The gala has its own date: not listed on the days it is only advertised.
    expect(text).not.toContain(formatShortDate(day(1)))
    for (const hidden of ['Awaiting review', 'Not paid', 'Rejected', 'Next month'])
      expect(text).not.toContain(hidden)
    expect(page.html).toContain(`href="/admin/listings.csv?from=${start}&amp;to=${day(6)}"`)
  })

  test("the calendar's filters: a category, a keyword", async () => {
    const concerts = textOf((await listingsPage(`${week}&category=concert`)).html)
    expect(concerts).toContain('Early concert')
    expect(concerts).toContain('Late concert')
    expect(concerts).not.toContain('Craft fair')
    expect(concerts).not.toContain('Bake sale')
    const page = await listingsPage(`${week}&category=Concert`)
    expect(page.html).toContain(
      `href="/admin/listings.txt?from=${start}&amp;to=${day(6)}&amp;category=Concert"`,
    )
  })

  test('a week from today when no range is given, the week from `from` or up to `to` when only one is', async () => {
    const page = await listingsPage('')
    expect(page.status).toBe(200)
    expect((page.loaderData as { range: unknown }).range).toEqual({ from: today, to: addDaysIso(today, 6) })
    const fromOnly = await listingsPage(`from=${start}`)
    expect((fromOnly.loaderData as { range: unknown }).range).toEqual({ from: start, to: day(6) })
    const toOnly = await listingsPage(`to=${day(6)}`)
    expect((toOnly.loaderData as { range: unknown }).range).toEqual({ from: start, to: day(6) })
  })

  test.each([
    ['from=2026-02-30&to=2026-03-01', 'from: "2026-02-30" is not a valid date (yyyy-mm-dd)'],
    ['from=yesterday', 'from: "yesterday" is not a valid date (yyyy-mm-dd)'],
    ['from=2026-03-02&to=2026-03-01', 'to: the range ends before it starts'],
    ['from=2026-01-01&to=2027-01-02', 'The range is longer than 366 days'],
    ['from=1999-12-31&to=2200-01-01', 'from: "1999-12-31" is outside the years 2000 to 2100'],
    [`${week}&category=Nope`, 'category: "Nope" is not a category'],
    [`${week}&category=${'x'.repeat(500)}`, 'category must be at most 100 characters'],
    [`${week}&free=maybe`, 'free must be 1 or 0'],
  ])('a bad range or filter (%s) is a 400 that says why, at the form', async (query, message) => {
    const page = await listingsPage(query)
    expect(page.status).toBe(400)
    expect(textOf(page.html)).toContain(message)
    for (const [loader, extension] of [
      [csvLoader, 'csv'],
      [textLoader, 'txt'],
      [htmlLoader, 'html'],
    ] as const) {
      const res = await download(loader, extension, query)
      expect(res.status).toBe(400)
      expect((await res.json()).message).toBe(message)
    }
  })

  test('a range of exactly 366 days is listed', async () => {
    const res = await download(textLoader, 'txt', `from=${start}&to=${addDaysIso(start, 365)}`)
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('Next month')
  })
})

function formatRangeText() {
  const [from, to] = [start, day(6)].map((d) => {
    const [y, m, dd] = d.split('-').map(Number) as [number, number, number]
    return {
      y,
      text: `${new Date(Date.UTC(y, m - 1, dd)).toLocaleString('en-US', { month: 'short', timeZone: 'UTC' })} ${dd}`,
    }
  })
  return from!.y === to!.y
    ? `${from!.text} – ${to!.text}, ${to!.y}`
    : `${from!.text}, ${from!.y} – ${to!.text}, ${to!.y}`
}

describe('the downloads', () => {
  test('CSV: one row per ad and day, UTF-8 with a byte-order mark, named after the range', async () => {
    const res = await download(csvLoader, 'csv', week)
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
    expect(res.headers.get('Content-Disposition')).toBe(
      `attachment; filename="listings-${start}-${day(6)}.csv"`,
    )
    const bytes = new Uint8Array(await res.clone().arrayBuffer())
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
    expect(lines[0]).toBe(
      '"date","start","end","times","title","business","city","categories","status","event_id"',
    )
    expect(lines.slice(1).map((line) => line.split(',').slice(0, 5).join(','))).toEqual([
      `"${day(0)}","","","All day","Craft fair"`,
      `"${day(0)}","19:30","22:00","7:30 PM – 10 PM","Early concert"`,
      `"${day(0)}","21:00","","9 PM","Late concert"`,
      `"${day(2)}","","","All day","Craft fair"`,
      `"${day(2)}","10:00","","10 AM","Bake sale"`,
      `"${day(3)}","18:00","","6 PM","Gala night"`,
    ])
  })

  test('plain text: a heading per day, "7:30 PM  Title — Business, City"', async () => {
    const res = await download(textLoader, 'txt', `${week}&category=Concert`)
    expect(res.headers.get('Content-Type')).toBe('text/plain; charset=utf-8')
    expect(res.headers.get('Content-Disposition')).toBe(
      `attachment; filename="listings-${start}-${day(6)}.txt"`,
    )
    expect(await res.text()).toBe(
      [
        `Listings ${formatRangeText()}`,
        '',
        formatShortDate(day(0)),
        '7:30 PM  Early concert — The Blue Room, Springfield',
        '9 PM  Late concert — The Blue Room, Springfield',
        '',
      ].join('\n'),
    )
  })

  test('plain text: a title or place typed over several lines is one line', async () => {
    const date = day(10)
    await insertTestEvent(owner, {
      eventTitle: 'Open\r\nmic\nnight\u2028again',
      startTime: '20:00',
      venueCity: 'Shelby\nville',
      showAdOnDates: [date],
    })
    const text = await (await download(textLoader, 'txt', `from=${date}&to=${date}`)).text()
    expect(text.split('\n').slice(2)).toEqual([
      formatShortDate(date),
      '8 PM  Open mic night again — The Blue Room, Shelby ville',
      '',
    ])
  })

  test('HTML snippet: a section per day, no classes', async () => {
    const res = await download(htmlLoader, 'html', `${week}&category=Fundraiser`)
    expect(res.headers.get('Content-Type')).toBe('text/html; charset=utf-8')
    expect(res.headers.get('Content-Disposition')).toBe(
      `attachment; filename="listings-${start}-${day(6)}.html"`,
    )
    const html = await res.text()
    expect(html).toContain(
      `<section>\n<h2><time datetime="${day(2)}">${formatShortDate(day(2))}</time></h2>\n<ul>`,
    )
    // Each entry with its ad's QR code (qr-codes.test.ts reads them) and the code's text alternative.
    expect(html).toContain(
      `<li><time datetime="${day(2)}T10:00">10 AM</time> <strong>Bake sale</strong> — The Blue Room, Shelbyville` +
        '<br><span role="img" aria-label="QR code: scan it with a phone to open “Bake sale” on its event page"><svg ',
    )
    expect(html).not.toContain('class=')
  })
})

describe('hostile text', () => {
  const hostileDay = addDaysIso(start, 100)
  const query = `from=${hostileDay}&to=${hostileDay}`

  beforeAll(async () => {
    const hostile = await insertBusiness(db, { businessName: '+SUM(1,2)', businessCity: '@cmd' })
    await insertTestEvent(hostile, {
      eventTitle: '=HYPERLINK("http://evil.example","click") <script>alert(1)</script>',
      venueCity: '-2+3',
      showAdOnDates: [hostileDay],
    })
  })

  test('CSV cells that a spreadsheet would run as a formula are kept as text', async () => {
    const csv = await (await download(csvLoader, 'csv', query)).text()
    const row = csv.split('\r\n')[1]!
    expect(row).toContain(`"'=HYPERLINK(""http://evil.example"",""click"") <script>alert(1)</script>"`)
    expect(row).toContain(`"'+SUM(1,2)"`)
    expect(row).toContain(`"'-2+3"`)
    expect(row).not.toMatch(/(^|,)"[=+\-@]/)
  })

  test('the HTML snippet and the page escape every text', async () => {
    const html = await (await download(htmlLoader, 'html', query)).text()
    expect(html).not.toContain('<script>')
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    const page = await listingsPage(query)
    expect(page.html).not.toContain('<script>')
  })
})

test(`at most ${LISTINGS_MAX_ENTRIES} entries, with a notice when there are more`, async () => {
  const from = addDaysIso(start, 400)
  const dates = Array.from({ length: 350 }, (_, i) => addDaysIso(from, i))
  for (let i = 0; i < 3; i++)
    await insertTestEvent(owner, { eventTitle: `Long run ${i}`, showAdOnDates: dates })
  const query = `from=${from}&to=${dates.at(-1)}`
  const csv = await (await download(csvLoader, 'csv', query)).text()
  expect(csv.trimEnd().split('\r\n')).toHaveLength(1 + LISTINGS_MAX_ENTRIES)
  expect(await (await download(textLoader, 'txt', query)).text()).toContain(TRUNCATED_NOTICE)
  expect(textOf((await listingsPage(query)).html)).toContain(TRUNCATED_NOTICE)
})
