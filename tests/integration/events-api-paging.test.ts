import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { invalidateLiveEvents } from '#app/models/calendar/live-events-cache.server.ts'
import { loader as apiEventsLoader } from '#app/routes/api.events._index.ts'
import { loader as apiActiveLoader } from '#app/routes/api.events.active.ts'
import { loader as apiPublicLoader } from '#app/routes/api.public-events.ts'
import { API_MAX_PAGE, API_PAGE_SIZE } from '#app/services/calendar/public-events-api.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { events, type Business } from '#db/schema.ts'
import { insertBusiness } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'

const today = platformToday()

const routes = [
  ['/api/events', apiEventsLoader],
  ['/api/events/active', apiActiveLoader],
  ['/api/public-events', apiPublicLoader],
] as const

let owner: Business

beforeAll(async () => {
  owner = await insertBusiness(db, { businessName: 'Paging Hall' })
})

beforeEach(async () => {
  await db.delete(events)
  invalidateLiveEvents()
})

/** `n` live events titled "<prefix> 000"…, the k-th one showing k days from today, so the order is known. */
async function insertLive(n: number, { prefix = 'Live', category = 'Community' } = {}) {
  await db.insert(events).values(
    Array.from({ length: n }, (_, i) => {
      const date = addDaysIso(today, 1 + Math.floor(i / 10))
      return {
        businessID: owner.businessID,
        businessName: owner.businessName,
        eventTitle: `${prefix} ${String(i).padStart(3, '0')}`,
        eventDescription: `${prefix} description`,
        category: [category],
        showAdOnDates: [date],
        firstShowDate: date,
        lastShowDate: date,
        paymentStatus: 'paid',
        eventStatus: 'approved',
      }
    }),
  )
}

async function get(loader: (typeof routes)[number][1], path: string) {
  const response = await callRoute(loader, path)
  return { response, body: (await response.json()) as unknown }
}

/** The target of the Link header's rel="next" (resolved against the request), or null when there is none. */
function linkTarget(response: Response, rel: string, requestPath: string) {
  const header = response.headers.get('Link') ?? ''
  const match = header
    .split(',')
    .map((part) => /^\s*<([^>]*)>\s*;\s*rel="([^"]+)"\s*$/.exec(part))
    .find((m) => m?.[2] === rel)
  return match ? new URL(match[1]!, new URL(requestPath, 'http://localhost')) : null
}

const titlesOf = (body: unknown) => (body as Array<{ eventTitle: string }>).map((e) => e.eventTitle)

describe('paging of the events APIs', () => {
  test.each(routes)(
    '%s: more than a page of events is paged with ?page=N, a Link to the next page and X-Total-Count',
    async (path, loader) => {
      await insertLive(API_PAGE_SIZE + 5)

      const first = await get(loader, path)
      expect(first.response.status).toBe(200)
      expect(Array.isArray(first.body)).toBe(true)
      expect(titlesOf(first.body)).toHaveLength(API_PAGE_SIZE)
      expect(titlesOf(first.body)[0]).toBe('Live 000')
      expect(first.response.headers.get('X-Total-Count')).toBe(String(API_PAGE_SIZE + 5))
      const next = linkTarget(first.response, 'next', path)
      expect(next?.pathname).toBe(path)
      expect(next?.searchParams.get('page')).toBe('2')

      const second = await get(loader, `${next!.pathname}${next!.search}`)
      expect(titlesOf(second.body)).toEqual(
        Array.from({ length: 5 }, (_, i) => `Live ${String(API_PAGE_SIZE + i).padStart(3, '0')}`),
      )
      expect(second.response.headers.get('X-Total-Count')).toBe(String(API_PAGE_SIZE + 5))
      expect(linkTarget(second.response, 'next', path)).toBeNull()
      expect(linkTarget(second.response, 'prev', path)?.searchParams.get('page')).toBe('1')
    },
  )

  test('the next link keeps the filters and the page size', async () => {
    await insertLive(7, { prefix: 'Jazz', category: 'Concert' })
    await insertLive(3, { prefix: 'Picnic', category: 'Family' })
    const path = '/api/events?category=Concert&keyword=jazz&limit=3'

    const pages: string[][] = []
    let url: URL | null = new URL(path, 'http://localhost')
    while (url) {
      const { response, body } = await get(apiEventsLoader, `${url.pathname}${url.search}`)
      expect(response.status).toBe(200)
      expect(response.headers.get('X-Total-Count')).toBe('7')
      pages.push(titlesOf(body))
      const next = linkTarget(response, 'next', `${url.pathname}${url.search}`)
      if (next) {
        expect(next.searchParams.get('category')).toBe('Concert')
        expect(next.searchParams.get('keyword')).toBe('jazz')
        expect(next.searchParams.get('limit')).toBe('3')
      }
      url = next
    }
    expect(pages).toEqual([
      ['Jazz 000', 'Jazz 001', 'Jazz 002'],
      ['Jazz 003', 'Jazz 004', 'Jazz 005'],
      ['Jazz 006'],
    ])
  })

  test('a page past the end is an empty list with the total, and no next link', async () => {
    await insertLive(4)
    const { response, body } = await get(apiEventsLoader, '/api/events?limit=2&page=9')
    expect(response.status).toBe(200)
    expect(body).toEqual([])
    expect(response.headers.get('X-Total-Count')).toBe('4')
    expect(linkTarget(response, 'next', '/api/events?limit=2&page=9')).toBeNull()
  })

  test('a single page has no Link header', async () => {
    await insertLive(2)
    const { response } = await get(apiEventsLoader, '/api/events')
    expect(response.headers.get('X-Total-Count')).toBe('2')
    expect(response.headers.get('Link')).toBeNull()
  })

  const pageMessage = `page must be a whole number from 1 to ${API_MAX_PAGE}`
  test.each([
    ['0', pageMessage],
    ['-1', pageMessage],
    ['abc', pageMessage],
    ['1.5', pageMessage],
    ['1e3', pageMessage],
    [String(API_MAX_PAGE + 1), pageMessage],
    ['99999999999999999999999', pageMessage],
  ])('page=%s is a 400 with a message', async (page, message) => {
    for (const [path, loader] of routes) {
      const { response, body } = await get(loader, `${path}?page=${encodeURIComponent(page)}`)
      expect(response.status).toBe(400)
      expect(body).toEqual({ message })
    }
  })

  test.each([
    ['limit=0', `limit must be a whole number from 1 to ${API_PAGE_SIZE}`],
    [`limit=${API_PAGE_SIZE + 1}`, `limit must be a whole number from 1 to ${API_PAGE_SIZE}`],
    ['limit=ten', `limit must be a whole number from 1 to ${API_PAGE_SIZE}`],
    ['offset=100', 'offset is not supported: use page (1-based) and follow the Link header'],
  ])('%s is a 400 with a message', async (query, message) => {
    const { response, body } = await get(apiEventsLoader, `/api/events?${query}`)
    expect(response.status).toBe(400)
    expect(body).toEqual({ message })
  })
})

describe('bad filters on the events APIs', () => {
  test.each(routes)(
    '%s: an impossible date says what is wrong, not that it "was ignored"',
    async (path, loader) => {
      const { response, body } = await get(loader, `${path}?from=2026-13-45`)
      expect(response.status).toBe(400)
      const { message } = body as { message: string }
      expect(message).toBe('from: "2026-13-45" is not a valid date (yyyy-mm-dd)')
      expect(message).not.toMatch(/ignored/i)
    },
  )

  test.each([
    ['an impossible To', 'to=2026-02-30', 'to: "2026-02-30" is not a valid date (yyyy-mm-dd)'],
    ['a word as To', 'to=tomorrow', 'to: "tomorrow" is not a valid date (yyyy-mm-dd)'],
    ['a date without leading zeros', 'from=2026-1-5', 'from: "2026-1-5" is not a valid date (yyyy-mm-dd)'],
    [
      'two bad dates',
      'from=x&to=y',
      'from: "x" is not a valid date (yyyy-mm-dd); to: "y" is not a valid date (yyyy-mm-dd)',
    ],
    [
      'a 5000-character date',
      `from=${'9'.repeat(5000)}`,
      `from: "${'9'.repeat(40)}…" is not a valid date (yyyy-mm-dd)`,
    ],
    ['a keyword over 100 characters', `keyword=${'a'.repeat(101)}`, 'keyword must be at most 100 characters'],
    [
      'a category over 100 characters',
      `category=${'c'.repeat(101)}`,
      'category must be at most 100 characters',
    ],
    ['a ZIP over 50 characters', `zip=${'1'.repeat(51)}`, 'zip must be at most 50 characters'],
  ])('%s is a 400 saying so', async (_name, query, message) => {
    await insertLive(1)
    const { response, body } = await get(apiEventsLoader, `/api/events?${query}`)
    expect(response.status).toBe(400)
    expect(body).toEqual({ message })
  })

  test('what is not wrong is not an error: blank values, All, From after To, unknown parameters', async () => {
    await insertLive(3)
    for (const query of [
      'from=&to=&keyword=&zip=&category=',
      'category=All',
      `from=${addDaysIso(today, 30)}&to=${addDaysIso(today, -30)}`,
      'order=whatever&utm_source=mail',
      'keyword=%25_%5C',
    ]) {
      const { response } = await get(apiEventsLoader, `/api/events?${query}`)
      expect(response.status, query).toBe(200)
    }
    const swapped = await get(
      apiEventsLoader,
      `/api/events?from=${addDaysIso(today, 30)}&to=${addDaysIso(today, -30)}`,
    )
    expect(titlesOf(swapped.body)).toHaveLength(3)
  })
})
