/**
 * The demo data shows what an ad can say: times of day, a cancelled, a postponed and a sold-out event, and a
 * sponsored ad in the calendar's Sponsored slots, on the pages visitors see (the built app).
 */
import { eq, inArray } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { eventPagePath } from '#app/models/ads/event-address.ts'
import { db } from '#db/client.server.ts'
import { DEMO_EVENT_IDEAS, DEMO_FREE_CATEGORY, DEMO_FREE_LISTINGS } from '#db/demo-data.ts'
import { events, payments } from '#db/schema.ts'
import { seedDemoData } from '#db/seed.ts'
import { currentFreeAllowance } from '#app/services/payments/pricing.server.ts'
import { useUploadFolder } from '#tests/support/ad-submission.ts'
import { BUILD_TIMEOUT_MS, builtRequestHandler } from '#tests/support/built-app.ts'
import { putStored } from '#tests/support/media-storage.ts'

useUploadFolder('demo-data')

const idea = (status: string) => DEMO_EVENT_IDEAS.find((i) => i.schedule?.status === status)!
const SPONSORED = DEMO_EVENT_IDEAS.find((i) => i.sponsored)!
const CANCELLED = idea('cancelled')
const POSTPONED = idea('postponed')
const SOLD_OUT = idea('sold_out')

let request: Awaited<ReturnType<typeof builtRequestHandler>>
const pathOf = new Map<string, string>()

beforeAll(async () => {
  request = await builtRequestHandler()
  const result = await seedDemoData(db, { putMedia: putStored, timeZone: 'America/New_York' })
  expect(result.seeded).toBe(true)
  const titles = [SPONSORED, CANCELLED, POSTPONED, SOLD_OUT].map((i) => i.title)
  const rows = await db
    .select({ eventID: events.eventID, eventTitle: events.eventTitle })
    .from(events)
    .where(inArray(events.eventTitle, titles))
  for (const row of rows) pathOf.set(row.eventTitle, eventPagePath(row))
  expect(pathOf.size).toBe(titles.length)
}, BUILD_TIMEOUT_MS)

/** What a block of HTML reads as: its text, without tags, React's text separators or the common entities. */
function textOf(html: string) {
  return html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ')
    .trim()
}

/** The calendar tiles (`<article>`s) of the ad titled exactly `title`. */
function tilesOf(html: string, title: string) {
  return html.split('<article').filter((block) => block.includes(`>${title}<`))
}

async function page(path: string) {
  const response = await request(path)
  expect(response.status, path).toBe(200)
  return response.text()
}

describe('the seeded demo', () => {
  test('/calendar: the sponsored ad in a Sponsored slot with its label, and its times of day', async () => {
    const html = await page('/calendar')
    const start = html.indexOf('aria-label="Sponsored events"')
    expect(start).toBeGreaterThan(0)
    const slots = html.slice(start, html.indexOf('aria-label="Events"', start))
    expect(tilesOf(slots, SPONSORED.title)).toHaveLength(1)
    expect(textOf(tilesOf(slots, SPONSORED.title)[0]!)).toContain('Sponsored')
    expect(textOf(tilesOf(html, SPONSORED.title).at(-1)!)).toMatch(/7:30 PM\s*–\s*10:30 PM/)
  })

  test('/calendar: the cancelled, postponed and sold-out ads each carry their label', async () => {
    for (const [ad, label] of [
      [CANCELLED, 'Cancelled'],
      [POSTPONED, 'Postponed'],
      [SOLD_OUT, 'Sold out'],
    ] as const) {
      // The keyword searches the descriptions: its longest word finds the ad on the first page.
      const keyword = ad.description.split(/[^A-Za-z-]+/).reduce((a, b) => (b.length > a.length ? b : a))
      const html = await page(`/calendar?keyword=${encodeURIComponent(keyword)}`)
      const tiles = tilesOf(html, ad.title)
      expect(tiles.length, ad.title).toBeGreaterThan(0)
      for (const tile of tiles) {
        expect(tile).toContain(`data-status="${ad.schedule!.status}"`)
        expect(textOf(tile)).toContain(label)
      }
    }
  })

  test('the event pages: times of day, and each status with its note', async () => {
    const jazz = textOf(await page(pathOf.get(SPONSORED.title)!))
    expect(jazz).toMatch(/7:30 PM\s*–\s*10:30 PM/)
    expect(jazz).not.toMatch(/This event is (cancelled|postponed|sold out)/)

    for (const ad of [CANCELLED, POSTPONED, SOLD_OUT]) {
      const html = await page(pathOf.get(ad.title)!)
      const banner = /data-testid="schedule-banner"[^>]*>([^<]*)</.exec(html)?.[1]
      const label = ad.schedule!.status.replace('_', ' ')
      expect(banner, ad.title).toBe(`This event is ${label}. ${ad.schedule!.note}`)
    }
    // Off: nothing to add to a calendar. Sold out: still on, but no tickets to buy.
    expect(textOf(await page(pathOf.get(CANCELLED.title)!))).not.toContain('Add to calendar')
    const soldOut = await page(pathOf.get(SOLD_OUT.title)!)
    expect(textOf(soldOut)).toContain('Add to calendar')
    expect(soldOut).not.toMatch(/<a [^>]*>Tickets<\/a>/)
    expect(textOf(soldOut)).toContain('Sold out')
  })

  test('the library’s free community listings: live beside the paid ads, unlabelled, paid $0 without a card', async () => {
    expect(await currentFreeAllowance([DEMO_FREE_CATEGORY])).not.toBeNull()
    const html = await page(`/calendar?category=${encodeURIComponent(DEMO_FREE_CATEGORY)}`)
    for (const listing of DEMO_FREE_LISTINGS) {
      const tiles = tilesOf(html, listing.title)
      expect(tiles.length, listing.title).toBeGreaterThan(0)
      expect(textOf(tiles[0]!)).not.toMatch(/free listing|Sponsored/i)
    }
    const rows = await db
      .select({
        cents: payments.amount_paid_cents,
        status: payments.payment_status,
        card: payments.card_last4,
      })
      .from(payments)
      .innerJoin(events, eq(events.eventID, payments.eventID))
      .where(
        inArray(
          events.eventTitle,
          DEMO_FREE_LISTINGS.map((l) => l.title),
        ),
      )
    expect(rows).toEqual(DEMO_FREE_LISTINGS.map(() => ({ cents: 0, status: 'paid', card: null })))
  })
})
