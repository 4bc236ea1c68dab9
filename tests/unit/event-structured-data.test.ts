/**
 * An event page's schema.org data as Google's Event guidance asks (docs/decisions/042): one Event per date from
 * today on, each with its own start and end, its status (cancelled, postponed, rescheduled with its previous start),
 * no Event for a special (an Offer instead), and the organizer at the business's page. Every Event is checked
 * against Google's required and recommended properties (tests/support/google-event-data.ts).
 */
import { describe, expect, test } from 'vitest'
import { MAX_DISPLAY_DATES } from '#app/constants.ts'
import {
  eventSeo,
  eventSeoMeta,
  jsonLdNodes,
  MAX_MARKED_UP_DATES,
  type EventSeoSource,
} from '#app/models/ads/event-seo.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { checkEvent, expectGoogleEvents, jsonLdItems } from '#tests/support/google-event-data.ts'

const ORIGIN = 'https://events.example.org'
/** A week before the United States' daylight-saving change of 2026 (March 8). */
const TODAY = '2026-03-01'
const context = { origin: ORIGIN, today: TODAY, timeZone: 'America/New_York' }
const UNSET = '1989-01-01'

/** What an ad without a photo, a price or a performer cannot have. */
const NOTHING_TO_SAY = ['image', 'performer', 'offers']

function ad(overrides: Partial<EventSeoSource> = {}): EventSeoSource {
  return {
    eventID: 42,
    eventTitle: 'Jazz on the Pier',
    eventDescription: 'A quartet plays standards by the water.',
    eventDate: UNSET,
    showAdOnDates: ['2026-03-05'],
    businessID: 7,
    businessName: 'Harbor Hall',
    businessAddress: '1 Pier Rd',
    businessCity: 'Springfield',
    businessState: 'IL',
    businessZip: '62701',
    businessWebsite: 'https://harborhall.example.com',
    businessPageOn: false,
    category: ['Concert'],
    ...overrides,
  }
}

const seoOf = (overrides: Partial<EventSeoSource> = {}) => eventSeo(ad(overrides), context)
const itemsOf = (overrides: Partial<EventSeoSource> = {}) => jsonLdItems(seoOf(overrides).jsonLd)

describe('one Event per date', () => {
  test('an ad with its own date is one all-day Event on that date', () => {
    const seo = seoOf({ eventDate: '2026-03-05', showAdOnDates: ['2026-03-02', '2026-03-03'] })
    const [event, ...more] = expectGoogleEvents(seo.jsonLd, NOTHING_TO_SAY)
    expect(more).toEqual([])
    expect(event).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: 'Jazz on the Pier',
      url: `${ORIGIN}/event/42-jazz-on-the-pier`,
      startDate: '2026-03-05',
      endDate: '2026-03-05',
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      location: { '@type': 'Place', name: 'Harbor Hall', address: { streetAddress: '1 Pier Rd' } },
    })
  })

  test('scattered dates are an Event each, from today on only, in date order', () => {
    const items = expectGoogleEvents(
      seoOf({ showAdOnDates: ['2026-03-20', '2026-02-27', '2026-03-01', '2026-03-12'] }).jsonLd,
      NOTHING_TO_SAY,
    )
    expect(items.map((item) => [item.startDate, item.endDate])).toEqual([
      ['2026-03-01', '2026-03-01'],
      ['2026-03-12', '2026-03-12'],
      ['2026-03-20', '2026-03-20'],
    ])
    // Each Event is the whole ad at its date.
    for (const item of items)
      expect(item).toMatchObject({ name: 'Jazz on the Pier', organizer: { name: 'Harbor Hall' } })
  })

  test('at most every date an ad can have is marked up', () => {
    expect(MAX_MARKED_UP_DATES).toBe(MAX_DISPLAY_DATES)
    const dates = Array.from({ length: MAX_DISPLAY_DATES + 5 }, (_, i) => addDaysIso(TODAY, i))
    const items = itemsOf({ showAdOnDates: dates })
    expect(items).toHaveLength(MAX_MARKED_UP_DATES)
    expect(items.at(-1)!.startDate).toBe(dates[MAX_MARKED_UP_DATES - 1])
  })

  test('a timed ad starts and ends on each date with the UTC offset of that date', () => {
    const items = expectGoogleEvents(
      seoOf({ showAdOnDates: ['2026-03-05', '2026-03-12'], startTime: '19:30:00', endTime: '22:00:00' })
        .jsonLd,
      NOTHING_TO_SAY,
    )
    expect(items.map((item) => [item.startDate, item.endDate])).toEqual([
      ['2026-03-05T19:30:00-05:00', '2026-03-05T22:00:00-05:00'],
      // After the daylight-saving change.
      ['2026-03-12T19:30:00-04:00', '2026-03-12T22:00:00-04:00'],
    ])
  })

  test('an end after midnight is on the next day; no end time means no endDate', () => {
    const [late] = itemsOf({ showAdOnDates: ['2026-03-05'], startTime: '22:00:00', endTime: '01:00:00' })
    expect(late).toMatchObject({
      startDate: '2026-03-05T22:00:00-05:00',
      endDate: '2026-03-06T01:00:00-05:00',
    })
    const [open] = itemsOf({ showAdOnDates: ['2026-03-05'], startTime: '19:00:00' })
    expect(open!.startDate).toBe('2026-03-05T19:00:00-05:00')
    expect(open).not.toHaveProperty('endDate')
    expectGoogleEvents([open], [...NOTHING_TO_SAY, 'endDate'])
  })

  test('an all-day ad over several dates is a dated Event on each', () => {
    const items = expectGoogleEvents(
      seoOf({ showAdOnDates: ['2026-03-06', '2026-03-07'] }).jsonLd,
      NOTHING_TO_SAY,
    )
    expect(items.map((item) => item.startDate)).toEqual(['2026-03-06', '2026-03-07'])
    for (const item of items) expect(item.startDate).toBe(item.endDate)
  })

  test('an ad whose event date has passed (still advertised) has nothing to mark up', () => {
    const seo = seoOf({ eventDate: '2026-02-20', showAdOnDates: ['2026-03-02'] })
    expect(seo.jsonLd).toBeNull()
    expect(eventSeoMeta(seo).some((tag) => 'script:ld+json' in tag)).toBe(false)
  })
})

describe('its status', () => {
  test('cancelled: EventCancelled on every date, keeping them', () => {
    const items = expectGoogleEvents(
      seoOf({ showAdOnDates: ['2026-03-05', '2026-03-06'], scheduleStatus: 'cancelled' }).jsonLd,
      NOTHING_TO_SAY,
    )
    expect(items.map((item) => [item.startDate, item.eventStatus])).toEqual([
      ['2026-03-05', 'https://schema.org/EventCancelled'],
      ['2026-03-06', 'https://schema.org/EventCancelled'],
    ])
  })

  test('postponed without new dates: EventPostponed at the dates it had, the last one once they have passed', () => {
    const [postponed] = expectGoogleEvents(seoOf({ scheduleStatus: 'postponed' }).jsonLd, NOTHING_TO_SAY)
    expect(postponed).toMatchObject({
      startDate: '2026-03-05',
      eventStatus: 'https://schema.org/EventPostponed',
    })
    expect(postponed).not.toHaveProperty('previousStartDate')
    const [passed] = itemsOf({
      eventDate: '2026-02-20',
      showAdOnDates: ['2026-03-02'],
      scheduleStatus: 'postponed',
    })
    expect(passed).toMatchObject({
      startDate: '2026-02-20',
      eventStatus: 'https://schema.org/EventPostponed',
    })
  })

  test('postponed, then back on with new dates: EventRescheduled with the start it had before', () => {
    const rescheduled = { eventDate: '2026-03-19', previousStartDate: '2026-03-05', scheduleStatus: null }
    const [allDay] = expectGoogleEvents(seoOf(rescheduled).jsonLd, NOTHING_TO_SAY)
    expect(allDay).toMatchObject({
      startDate: '2026-03-19',
      eventStatus: 'https://schema.org/EventRescheduled',
      previousStartDate: '2026-03-05',
    })
    const [timed] = expectGoogleEvents(
      seoOf({ ...rescheduled, startTime: '19:30:00', endTime: '22:00:00' }).jsonLd,
      NOTHING_TO_SAY,
    )
    expect(timed).toMatchObject({
      startDate: '2026-03-19T19:30:00-04:00',
      previousStartDate: '2026-03-05T19:30:00-05:00',
    })
    // Sold out after it: still rescheduled; postponed again: postponed, without the old start.
    expect(itemsOf({ ...rescheduled, scheduleStatus: 'sold_out' })[0]!.eventStatus).toBe(
      'https://schema.org/EventRescheduled',
    )
    const [again] = itemsOf({ ...rescheduled, scheduleStatus: 'postponed' })
    expect(again!.eventStatus).toBe('https://schema.org/EventPostponed')
    expect(again).not.toHaveProperty('previousStartDate')
  })

  test("sold out: scheduled, its tickets' offer sold out; on as advertised, in stock", () => {
    const facts = { priceCents: 1500, ticketUrl: 'https://tickets.example/jazz' }
    const [soldOut] = expectGoogleEvents(seoOf({ ...facts, scheduleStatus: 'sold_out' }).jsonLd, [
      'image',
      'performer',
      'offers.validFrom',
    ])
    expect(soldOut).toMatchObject({
      eventStatus: 'https://schema.org/EventScheduled',
      offers: { price: 15, priceCurrency: 'USD', availability: 'https://schema.org/SoldOut' },
    })
    const [on] = itemsOf(facts)
    expect(on!.offers).toMatchObject({ availability: 'https://schema.org/InStock' })
  })
})

describe('a special is not an event', () => {
  test('an ad in the Special category is an Offer of its business, valid over its dates, and no Event', () => {
    const special = {
      eventTitle: 'Taco Tuesday Special',
      showAdOnDates: ['2026-02-24', '2026-03-03', '2026-03-10'],
      priceCents: 900,
      stillPhotoPath: '/api/media/tacos.jpg',
    }
    const seo = seoOf({ ...special, category: ['Special', 'Food & Drink'] })
    const asEvent = itemsOf({ ...special, category: ['Food & Drink'] })[0]!
    const items = jsonLdItems(seo.jsonLd)
    expect(items.map((item) => item['@type'])).toEqual(['Offer'])
    expect(items.every((item) => checkEvent(item).problems.some((p) => p.includes('not Event')))).toBe(true)
    expect(items[0]).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Offer',
      name: 'Taco Tuesday Special',
      description: 'A quartet plays standards by the water.',
      url: `${ORIGIN}/event/42-taco-tuesday-special`,
      offeredBy: { '@type': 'Organization', name: 'Harbor Hall', url: 'https://harborhall.example.com' },
      price: 9,
      priceCurrency: 'USD',
      validFrom: '2026-03-03',
      validThrough: '2026-03-10',
      availability: 'https://schema.org/InStock',
      availableAtOrFrom: expect.objectContaining({ '@type': 'Place', name: 'Harbor Hall' }),
      // The picture an Event of the ad would have.
      ...(asEvent.image ? { image: asEvent.image } : {}),
    })
    expect(JSON.stringify(seo.jsonLd)).not.toContain('"Event"')
    // Cancelled: the offer is discontinued.
    expect(itemsOf({ category: ['Special'], scheduleStatus: 'cancelled' })[0]!.availability).toBe(
      'https://schema.org/Discontinued',
    )
  })
})

describe('the organizer', () => {
  test('is the business at its page here when it shows one, its website beside it; else at its website', () => {
    const [withPage] = itemsOf({ businessPageOn: true })
    expect(withPage!.organizer).toEqual({
      '@type': 'Organization',
      name: 'Harbor Hall',
      url: `${ORIGIN}/business/7-harbor-hall`,
      sameAs: ['https://harborhall.example.com'],
    })
    const [withoutPage] = itemsOf({ businessPageOn: false })
    expect(withoutPage!.organizer).toEqual({
      '@type': 'Organization',
      name: 'Harbor Hall',
      url: 'https://harborhall.example.com',
    })
    const [neither] = itemsOf({ businessPageOn: false, businessWebsite: '' })
    expect(neither!.organizer).toEqual({ '@type': 'Organization', name: 'Harbor Hall' })
    expect(checkEvent(neither!).missingRecommended).toContain('organizer.url')
  })
})

describe('nested in another page', () => {
  test('jsonLdNodes gives the nodes without their @context', () => {
    const nodes = jsonLdNodes(seoOf({ showAdOnDates: ['2026-03-05', '2026-03-06'] }).jsonLd)
    expect(nodes).toHaveLength(2)
    for (const node of nodes) expect(node).not.toHaveProperty('@context')
    expect(jsonLdNodes(null)).toEqual([])
  })
})
