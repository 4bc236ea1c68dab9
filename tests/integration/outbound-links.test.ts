/**
 * The links of an ad that leave the site, as the pages draw them: the site's UTM parameters (utm_source = the public
 * host name, utm_medium=event_listing, utm_campaign = the ad's `{id}-{slug}`), the advertiser's own utm_ parameters
 * kept, AD_LINK_UTM=off giving the links as they were given, `rel="sponsored noopener"` for a paid ad and
 * `rel="noopener"` for a $0 one, and hostile links still refused. Every page is rendered from its route and its HTML
 * read.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import * as businessRoute from '#app/routes/business.$slug.tsx'
import * as calendarRoute from '#app/routes/calendar.tsx'
import * as embedRoute from '#app/routes/embed.calendar.tsx'
import * as eventRoute from '#app/routes/event.$id.tsx'
import * as publicRoute from '#app/routes/public.tsx'
import { eventPagePath } from '#app/models/ads/event-address.ts'
import { businessPagePath } from '#app/models/calendar/business-links.ts'
import { invalidateLiveEvents } from '#app/models/calendar/live-events-cache.server.ts'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { events, type Business, type Event } from '#db/schema.ts'
import { shownAfter } from '#tests/support/document-request.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'

const HOST = 'events.example.org'
const today = platformToday()

const EVENT_PAGE = [{ path: '/event/:id', ...eventRoute }]
const BUSINESS_PAGE = [{ path: '/business/:slug', ...businessRoute }]
const PUBLIC_PAGE = [{ path: '/public', ...publicRoute }]
const CALENDAR_PAGE = [{ path: '/calendar', ...calendarRoute }]
const EMBED_PAGE = [{ path: '/embed/calendar', ...embedRoute }]

interface Anchor {
  href: string
  rel: string | null
  target: string | null
  text: string
}

const unescape = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')

/** Every link of a page, its attributes read as a browser reads them. */
function anchorsOf(html: string): Anchor[] {
  return [...html.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/g)].map(([, attributes, inner]) => {
    const attribute = (name: string) => {
      const value = new RegExp(`\\s${name}="([^"]*)"`).exec(attributes!)?.[1]
      return value === undefined ? null : unescape(value)
    }
    return {
      href: attribute('href') ?? '',
      rel: attribute('rel'),
      target: attribute('target'),
      text: unescape(inner!.replace(/<[^>]+>/g, '')).trim(),
    }
  })
}

/** The links that leave the site (another host than the site's own). */
function outboundOf(html: string): Anchor[] {
  return anchorsOf(html).filter((a) => {
    if (!/^https?:/i.test(a.href)) return false
    const { hostname } = new URL(a.href)
    return hostname !== HOST && hostname !== 'localhost'
  })
}

function utmOf(href: string) {
  const params = new URL(href).searchParams
  return {
    utm_source: params.get('utm_source'),
    utm_medium: params.get('utm_medium'),
    utm_campaign: params.get('utm_campaign'),
  }
}

async function pageHtml(routes: readonly unknown[], path: string) {
  const page = await shownAfter(routes as never, path)
  expect(page.status, path).toBe(200)
  return page.html
}

let cafe: Business
let jazz: Event

beforeEach(async () => {
  process.env.PUBLIC_URL = `https://${HOST}`
  resetEnvCache()
  // Each case's pages list its own ads only.
  await db.delete(events)
  cafe = await insertBusiness(db, {
    businessName: 'Blue Door Cafe',
    // As an advertiser types it: no scheme.
    businessWebsite: 'bluedoor.example',
    facebookURL: 'https://facebook.com/bluedoor?utm_source=facebook_bio',
    instagramURL: 'https://instagram.com/bluedoor',
    linkedin: 'https://linkedin.com/company/bluedoor',
    youtubeURL: 'https://youtube.com/@bluedoor',
    xURL: 'https://x.com/bluedoor',
    tiktokURL: 'https://tiktok.com/@bluedoor',
  })
  jazz = await insertTestEvent(cafe, {
    eventTitle: 'Jazz Night',
    showAdOnDates: [today, addDaysIso(today, 1)],
    ticketUrl: 'https://tickets.example/e/1?seat=a&utm_campaign=spring#buy',
    attendanceMode: 'mixed',
    onlineUrl: 'https://meet.example/j/abc',
    totalCost: 29,
  })
  invalidateLiveEvents()
})

afterEach(() => {
  delete process.env.PUBLIC_URL
  delete process.env.AD_LINK_UTM
  resetEnvCache()
})

const CREDIT = (campaign: string) => ({
  utm_source: HOST,
  utm_medium: 'event_listing',
  utm_campaign: campaign,
})
const LINK_TEXTS = ['Website', 'Facebook', 'Instagram', 'LinkedIn', 'YouTube', 'X', 'TikTok']

describe("the event page's outbound links", () => {
  test('the website, every social link, the tickets and the join link carry the UTM parameters; rel is sponsored', async () => {
    const html = await pageHtml(EVENT_PAGE, eventPagePath(jazz))
    const links = outboundOf(html)
    expect(links.map((a) => a.text)).toEqual(
      expect.arrayContaining([...LINK_TEXTS, 'Tickets', 'Join online']),
    )
    const campaign = `${jazz.eventID}-jazz-night`
    const credited = links.filter((a) => [...LINK_TEXTS, 'Tickets', 'Join online'].includes(a.text))
    expect(credited).toHaveLength(LINK_TEXTS.length + 2)
    for (const link of credited) {
      expect(link.rel, link.text).toBe('sponsored noopener')
      expect(link.target, link.text).toBe('_blank')
    }
    const byText = new Map(credited.map((a) => [a.text, a.href]))
    expect(byText.get('Website')).toBe(
      `https://bluedoor.example/?utm_source=${HOST}&utm_medium=event_listing&utm_campaign=${campaign}`,
    )
    expect(utmOf(byText.get('Instagram')!)).toEqual(CREDIT(campaign))
    expect(utmOf(byText.get('Join online')!)).toEqual(CREDIT(campaign))
    // The advertiser's own utm_ parameters are theirs: kept, and only the missing ones added.
    expect(utmOf(byText.get('Facebook')!)).toEqual({ ...CREDIT(campaign), utm_source: 'facebook_bio' })
    expect(byText.get('Tickets')).toBe(
      `https://tickets.example/e/1?seat=a&utm_campaign=spring&utm_source=${HOST}&utm_medium=event_listing#buy`,
    )
  })

  test("the site's own helper links (map, Google Calendar) are not the ad's: no credit, no sponsored", async () => {
    const html = await pageHtml(EVENT_PAGE, eventPagePath(jazz))
    const own = outboundOf(html).filter((a) => !/utm_medium=event_listing/.test(a.href))
    for (const link of own) expect(link.rel).not.toContain('sponsored')
  })

  test('an ad paid $0 (a code that made it free) gets rel="noopener" only, still credited', async () => {
    const free = await insertTestEvent(cafe, {
      eventTitle: 'Free Listing',
      showAdOnDates: [today],
      ticketUrl: 'https://tickets.example/free',
      totalCost: 0,
    })
    const links = outboundOf(await pageHtml(EVENT_PAGE, eventPagePath(free)))
    expect(links.filter((a) => a.text === 'Tickets' || LINK_TEXTS.includes(a.text))).toHaveLength(8)
    for (const link of links.filter((a) => a.text === 'Tickets' || LINK_TEXTS.includes(a.text))) {
      expect(link.rel).toBe('noopener')
      expect(utmOf(link.href).utm_campaign).toBe(`${free.eventID}-free-listing`)
    }
  })

  test('AD_LINK_UTM=off: every link as the advertiser gave it', async () => {
    process.env.AD_LINK_UTM = 'off'
    resetEnvCache()
    const links = outboundOf(await pageHtml(EVENT_PAGE, eventPagePath(jazz)))
    const byText = new Map(links.map((a) => [a.text, a]))
    expect(byText.get('Website')!.href).toBe('https://bluedoor.example')
    expect(byText.get('Facebook')!.href).toBe('https://facebook.com/bluedoor?utm_source=facebook_bio')
    expect(byText.get('Tickets')!.href).toBe('https://tickets.example/e/1?seat=a&utm_campaign=spring#buy')
    expect(byText.get('Join online')!.href).toBe('https://meet.example/j/abc')
    for (const link of links) expect(link.href).not.toContain('utm_medium')
    // Still a paid ad's links.
    expect(byText.get('Website')!.rel).toBe('sponsored noopener')
  })

  test('without PUBLIC_URL (a local machine) the source is the host the page was asked of', async () => {
    delete process.env.PUBLIC_URL
    resetEnvCache()
    const links = outboundOf(await pageHtml(EVENT_PAGE, eventPagePath(jazz)))
    expect(utmOf(links.find((a) => a.text === 'Website')!.href).utm_source).toBe('localhost')
  })

  test('hostile links are still refused, and an encoded one is kept as written', async () => {
    const hostile = await insertBusiness(db, {
      businessName: 'Hostile Links',
      businessWebsite: 'javascript:alert(1)',
      facebookURL: 'data:text/html,<script>alert(1)</script>',
      instagramURL: 'JaVaScRiPt:alert(1)',
      linkedin: 'https://linkedin.example/in/a%20b?q=%2F%26x#top',
    })
    const ad = await insertTestEvent(hostile, {
      eventTitle: 'Hostile',
      showAdOnDates: [today],
      ticketUrl: 'javascript:alert(1)',
      attendanceMode: 'online',
      onlineUrl: 'data:text/html,hi',
    })
    const html = await pageHtml(EVENT_PAGE, eventPagePath(ad))
    expect(html).not.toMatch(/href="\s*(javascript|data):/i)
    const links = outboundOf(html).filter((a) => a.rel?.includes('sponsored'))
    expect(links.map((a) => a.text)).toEqual(['LinkedIn'])
    expect(links[0]!.href).toBe(
      `https://linkedin.example/in/a%20b?q=%2F%26x&utm_source=${HOST}&utm_medium=event_listing&utm_campaign=${ad.eventID}-hostile#top`,
    )
    expect(html).not.toContain('>Tickets<')
    expect(html).not.toContain('Join online')
  })
})

describe('the other pages that show an ad’s outbound links', () => {
  test('/public: each card’s links are credited to its own ad', async () => {
    const html = await pageHtml(PUBLIC_PAGE, '/public')
    const links = outboundOf(html).filter((a) => a.rel === 'sponsored noopener')
    expect(links.map((a) => a.text)).toEqual(expect.arrayContaining([...LINK_TEXTS, 'Tickets']))
    for (const link of links)
      expect(utmOf(link.href).utm_campaign).toBe(
        link.text === 'Tickets' ? 'spring' : `${jazz.eventID}-jazz-night`,
      )
  })

  test('the business page: its links are credited to the business page, sponsored while it has a paid ad', async () => {
    const html = await pageHtml(BUSINESS_PAGE, businessPagePath(cafe.businessID, cafe.businessName))
    const links = outboundOf(html).filter((a) => LINK_TEXTS.includes(a.text))
    expect(links.map((a) => a.text)).toEqual(LINK_TEXTS)
    for (const link of links) {
      expect(link.rel).toBe('sponsored noopener')
      expect(utmOf(link.href).utm_medium).toBe('event_listing')
      expect(utmOf(link.href).utm_campaign).toBe(`business-${cafe.businessID}-blue-door-cafe`)
    }
    expect(utmOf(links[0]!.href).utm_source).toBe(HOST)
    expect(utmOf(links.find((a) => a.text === 'Facebook')!.href).utm_source).toBe('facebook_bio')
  })

  test('the calendar’s tiles and the embed link only to the site’s own pages: no outbound link to credit', async () => {
    for (const [routes, path] of [
      [CALENDAR_PAGE, '/calendar'],
      [EMBED_PAGE, '/embed/calendar'],
    ] as const) {
      const html = await pageHtml(routes as never, path)
      expect(html, path).toContain('Jazz Night')
      expect(outboundOf(html), path).toEqual([])
    }
  })
})
