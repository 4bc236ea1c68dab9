import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  NEGATIVE_PRICE_MESSAGE,
  ONLINE_URL_REQUIRED_MESSAGE,
  PRICE_MAX_MESSAGE,
  PRICE_REQUIRED_MESSAGE,
  TICKET_URL_MESSAGE,
  VENUE_ZIP_MESSAGE,
} from '#app/models/ads/practical-facts.ts'
import { action as approveEvent } from '#app/routes/api.approve-event.ts'
import { action as newEventAction } from '#app/routes/dashboard.events.new.tsx'
import { eventSeo } from '#app/models/ads/event-seo.ts'
import { loader as adminLoader } from '#app/routes/admin.tsx'
import { action as reviewApi } from '#app/routes/api.admin.review-event.ts'
import { loader as eventPageLoader } from '#app/routes/event.$id.tsx'
import { eventIcs } from '#app/services/calendar/feeds.server.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness, insertUser } from '#db/factories.ts'
import { changeTrust } from '#app/services/moderation/trust.server.ts'
import { events, type Business } from '#db/schema.ts'
import { z } from 'zod'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { approveBody, days, plainEventForm, useUploadFolder } from '#tests/support/ad-submission.ts'
import { insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'
import { calendarEntries } from '#tests/support/icalendar.ts'

useUploadFolder('practical-facts-it')

let owner: Business
let cookie: string
let adminCookie: string

beforeAll(async () => {
  owner = await insertBusiness(db, { businessName: 'Harbor Hall', businessZip: '62704' })
  cookie = await sessionCookieFor({ business: owner })
  const admin = await insertUser(db, { roles: ['admin'] })
  adminCookie = await sessionCookieFor({ user: admin })
  // Its many live ads would make it trusted, and a trusted business's edits go live without review.
  await changeTrust(owner.businessID, { granted: false, reason: 'Edits reviewed', adminId: admin.id })
})

function approve(eventData: Record<string, unknown>, eventID?: number) {
  return callRoute(approveEvent, '/api/approve-event', {
    method: 'POST',
    body: approveBody({ eventData, ...(eventID ? { eventID: String(eventID) } : {}) }),
    headers: { Cookie: cookie },
  })
}

const EVERY_FACT = {
  ticketUrl: 'https://tickets.example/jazz',
  priceType: 'from',
  priceFrom: '12.50',
  attendanceMode: 'mixed',
  venueAddress: '1 Pier Rd',
  venueCity: 'Chicago',
  venueState: 'IL',
  venueZip: '60601',
  onlineUrl: 'https://stream.example/jazz',
  accessibilityFeatures: ['captions', 'step_free'],
  accessibilityNote: 'Ramp at the side door',
  accessibilityContact: 'access@harbor.example',
  ageRange: '21+',
}

/** An ad saved through the approval call with these facts, paid and (by default) approved. */
async function paidAd(eventData: Record<string, unknown>, eventStatus = 'approved') {
  const res = await approve(eventData)
  expect(res.status).toBe(200)
  const { eventID } = (await res.json()) as { eventID: number }
  await db.update(events).set({ paymentStatus: 'paid', eventStatus }).where(eq(events.eventID, eventID))
  return eventID
}

async function adminQueue() {
  const res = await callRoute(adminLoader, '/admin?date=all', { headers: { Cookie: adminCookie } })
  return ((await res.json()) as { events: Array<QueueItem> }).events
}

interface QueueItem {
  eventID: number
  changes: Array<{ field: string; label: string; old: string; new: string }> | null
  card: { facts: Record<string, unknown> }
}

async function refusal(eventData: Record<string, unknown>) {
  const res = await approve(eventData)
  expect(res.status).toBe(400)
  return ((await res.json()) as { errors: Record<string, string[]> }).errors
}

describe('the practical facts are checked on the server', () => {
  test.each([
    ['javascript:alert(1)'],
    ['http://tickets.example/jazz'],
    ['tickets.example'],
    ['https://user:pw@tickets.example/'],
    [`https://tickets.example/${'a'.repeat(600)}`],
  ])('ticket link %s is refused with a message', async (ticketUrl) => {
    expect((await refusal({ ticketUrl })).ticketUrl).toEqual([TICKET_URL_MESSAGE])
  })

  test.each([
    ['-5', NEGATIVE_PRICE_MESSAGE],
    ['100000.01', PRICE_MAX_MESSAGE],
    ['99999999999999999999', 'Enter the lowest price in dollars, e.g. 12 or 12.50'],
    ['12.345', 'Enter the lowest price in dollars, e.g. 12 or 12.50'],
    ['', PRICE_REQUIRED_MESSAGE],
    ['0', PRICE_REQUIRED_MESSAGE],
  ])('price from %s is refused', async (priceFrom, message) => {
    expect((await refusal({ priceType: 'from', priceFrom })).priceFrom).toEqual([message])
  })

  test('online needs an https link to join; another address needs its ZIP; unknown choices are refused', async () => {
    const errors = await refusal({
      attendanceMode: 'mixed',
      venueAddress: '1 Pier Rd',
      venueZip: 'abc',
      accessibilityFeatures: ['step_free', 'teleporter'],
      ageRange: '99+',
      priceType: 'cheap',
    })
    expect(errors.onlineUrl).toEqual([ONLINE_URL_REQUIRED_MESSAGE])
    expect(errors.venueZip).toEqual([VENUE_ZIP_MESSAGE])
    expect(Object.keys(errors).sort()).toEqual(
      ['accessibilityFeatures', 'ageRange', 'onlineUrl', 'priceType', 'venueZip'].sort(),
    )
    expect((await refusal({ attendanceMode: 'teleport' })).attendanceMode).toHaveLength(1)
  })

  test('every fact is saved, the price in cents, and the other address is placed at its ZIP', async () => {
    const res = await approve(EVERY_FACT)
    expect(res.status).toBe(200)
    const { eventID } = (await res.json()) as { eventID: number }
    const [row] = await db.select().from(events).where(eq(events.eventID, eventID))
    expect(row).toMatchObject({
      ticketUrl: 'https://tickets.example/jazz',
      priceCents: 1250,
      attendanceMode: 'mixed',
      venueZip: '60601',
      onlineUrl: 'https://stream.example/jazz',
      accessibilityFeatures: ['step_free', 'captions'],
      ageRange: '21+',
    })
    expect(row!.venueLatitude).toBeCloseTo(41.88, 1)
  })

  test('Free is stored as 0 cents; an online-only event keeps no address, an in-person one no link', async () => {
    const online = await approve({
      priceType: 'free',
      attendanceMode: 'online',
      onlineUrl: 'https://stream.example/x',
      venueAddress: '1 Pier Rd',
      venueZip: '60601',
    })
    const { eventID } = (await online.json()) as { eventID: number }
    const [row] = await db.select().from(events).where(eq(events.eventID, eventID))
    expect(row).toMatchObject({ priceCents: 0, venueAddress: '', venueZip: '', venueLatitude: null })
    const inPerson = await approve({ onlineUrl: 'https://stream.example/x' })
    const [other] = await db
      .select()
      .from(events)
      .where(eq(events.eventID, ((await inPerson.json()) as { eventID: number }).eventID))
    expect(other).toMatchObject({ attendanceMode: 'in_person', onlineUrl: '', priceCents: null })
  })

  test('without JavaScript a refused post names the field and keeps what was typed', async () => {
    const res = await callRoute(newEventAction, '/dashboard/events/new', {
      method: 'POST',
      headers: { Cookie: cookie },
      body: plainEventForm({
        eventTitle: 'Jazz night',
        eventDescription: 'Trio.',
        eventCategory: 'Music',
        showAdDates: days(1),
        ticketUrl: 'javascript:alert(1)',
        accessibilityFeatures: ['step_free', 'quiet_space'],
      }),
    })
    expect(res.status).toBe(400)
    const { result } = (await res.json()) as {
      result: {
        error: Record<string, string[]>
        initialValue: { factFields: { ticketUrl: string; accessibilityFeatures: string[] } }
      }
    }
    expect(result.error.ticketUrl).toEqual([TICKET_URL_MESSAGE])
    expect(result.initialValue.factFields).toMatchObject({
      ticketUrl: 'javascript:alert(1)',
      accessibilityFeatures: ['step_free', 'quiet_space'],
    })
  })
})

/** schema.org's Event as Google's rich results read it: the shape every fact must fit. */
const postalAddress = z.object({
  '@type': z.literal('PostalAddress'),
  streetAddress: z.string().min(1),
  addressLocality: z.string().optional(),
  addressRegion: z.string().optional(),
  postalCode: z.string().regex(/^\d{5}/),
  addressCountry: z.string().length(2),
})
const place = z.object({ '@type': z.literal('Place'), name: z.string().min(1), address: postalAddress })
const virtualLocation = z.object({
  '@type': z.literal('VirtualLocation'),
  url: z.url({ protocol: /^https$/ }),
})
const schemaOrgEvent = z.object({
  '@context': z.literal('https://schema.org'),
  '@type': z.literal('Event'),
  name: z.string().min(1),
  startDate: z.iso.date(),
  endDate: z.iso.date().optional(),
  eventStatus: z.literal('https://schema.org/EventScheduled'),
  eventAttendanceMode: z.enum([
    'https://schema.org/OfflineEventAttendanceMode',
    'https://schema.org/OnlineEventAttendanceMode',
    'https://schema.org/MixedEventAttendanceMode',
  ]),
  location: z.union([place, virtualLocation, z.tuple([place, virtualLocation])]),
  offers: z
    .object({
      '@type': z.literal('Offer'),
      price: z.number().nonnegative().optional(),
      priceCurrency: z
        .string()
        .regex(/^[A-Z]{3}$/)
        .optional(),
      url: z.url(),
    })
    .optional(),
  isAccessibleForFree: z.boolean().optional(),
  accessibilityFeature: z.array(z.string().regex(/^[a-z][A-Za-z]+$/)).optional(),
  typicalAgeRange: z
    .string()
    .regex(/^\d+-(\d+)?$/)
    .optional(),
  organizer: z.object({ '@type': z.literal('Organization'), name: z.string() }),
})

describe('structured data and calendar entries', () => {
  test('the JSON-LD of an ad with every fact fits schema.org Event', async () => {
    const eventID = await paidAd(EVERY_FACT)
    const [row] = await db.select().from(events).where(eq(events.eventID, eventID))
    const { jsonLd } = eventSeo(
      { ...row!, ...owner },
      { origin: 'https://eventshout.example', today: days(1)[0]!, timeZone: 'America/New_York' },
    )
    // One Event per date, each with every fact.
    const [first, ...others] = [jsonLd].flat()
    for (const other of others)
      expect(schemaOrgEvent.parse(other).location).toEqual(schemaOrgEvent.parse(first).location)
    const data = schemaOrgEvent.parse(first)
    expect(data).toMatchObject({
      eventAttendanceMode: 'https://schema.org/MixedEventAttendanceMode',
      location: [
        { '@type': 'Place', address: { streetAddress: '1 Pier Rd', postalCode: '60601' } },
        { '@type': 'VirtualLocation', url: 'https://stream.example/jazz' },
      ],
      offers: { price: 12.5, priceCurrency: 'USD', url: 'https://tickets.example/jazz' },
      isAccessibleForFree: false,
      accessibilityFeature: ['stepFreeAccess', 'captions'],
      typicalAgeRange: '21-',
    })
    const free = eventSeo(
      { ...row!, ...owner, priceCents: 0, attendanceMode: 'online', ticketUrl: '' },
      { origin: 'https://eventshout.example', today: days(1)[0]!, timeZone: 'America/New_York' },
    )
    expect(schemaOrgEvent.parse([free.jsonLd].flat()[0])).toMatchObject({
      location: { '@type': 'VirtualLocation' },
      isAccessibleForFree: true,
      offers: { price: 0 },
    })
  })

  test('"Add to calendar" places the entry at the other address and lists the facts', async () => {
    const eventID = await paidAd(EVERY_FACT)
    const [row] = await db.select().from(events).where(eq(events.eventID, eventID))
    const ics = eventIcs({ ...row!, ...owner }, 'https://eventshout.example')
    const [entry] = calendarEntries(ics)
    expect(entry!.location).toBe('Harbor Hall, 1 Pier Rd, Chicago, IL 60601')
    expect(entry!.description).toContain('From $12.50 · Tickets: https://tickets.example/jazz')
    expect(entry!.description).toContain('Join online: https://stream.example/jazz')
    expect(entry!.description).toContain('Accessibility: Step-free access, Captions · Ramp at the side door')
  })
})

describe('moderation sees the facts', () => {
  test('the review card of a paid ad shows them', async () => {
    const eventID = await paidAd(EVERY_FACT, 'pending')
    const item = (await adminQueue()).find((e) => e.eventID === eventID)
    expect(item!.card.facts).toMatchObject({ priceCents: 1250, ageRange: '21+', venueZip: '60601' })
  })

  test('an edit of a live ad lists each changed fact, and approving it makes the facts live', async () => {
    const eventID = await paidAd({ priceType: 'free' })
    const edit = await approve({ ...EVERY_FACT, accessibilityFeatures: ['step_free'] }, eventID)
    expect(edit.status).toBe(200)
    const [live] = await db.select().from(events).where(eq(events.eventID, eventID))
    expect(live!.priceCents).toBe(0)
    const item = (await adminQueue()).find((e) => e.eventID === eventID)
    expect(item!.changes).toEqual([
      {
        field: 'ticketUrl',
        label: 'Ticket link',
        kind: 'text',
        old: '',
        new: 'https://tickets.example/jazz',
      },
      { field: 'priceCents', label: 'Price', kind: 'text', old: 'Free', new: 'From $12.50' },
      {
        field: 'attendanceMode',
        label: 'Where',
        kind: 'text',
        old: 'In person',
        new: 'In person and online',
      },
      {
        field: 'venueAddress',
        label: 'Other address',
        kind: 'text',
        old: '',
        new: '1 Pier Rd, Chicago, IL 60601',
      },
      {
        field: 'onlineUrl',
        label: 'Link to join',
        kind: 'text',
        old: '',
        new: 'https://stream.example/jazz',
      },
      {
        field: 'accessibilityFeatures',
        label: 'Accessibility',
        kind: 'text',
        old: '',
        new: 'Step-free access',
      },
      {
        field: 'accessibilityNote',
        label: 'Accessibility note',
        kind: 'text',
        old: '',
        new: 'Ramp at the side door',
      },
      {
        field: 'accessibilityContact',
        label: 'Contact for access questions',
        kind: 'text',
        old: '',
        new: 'access@harbor.example',
      },
      { field: 'ageRange', label: 'Age', kind: 'text', old: '', new: '21+' },
    ])
    expect(item!.card.facts).toMatchObject({ priceCents: 1250 })
    const decided = await callRoute(reviewApi, '/api/admin/review-event', {
      method: 'POST',
      headers: { Cookie: adminCookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({ eventID, action: 'approve' }),
    })
    expect(decided.status).toBe(200)
    const [approved] = await db.select().from(events).where(eq(events.eventID, eventID))
    expect(approved).toMatchObject({ priceCents: 1250, venueZip: '60601', ageRange: '21+' })
    expect(approved!.venueLatitude).toBeCloseTo(41.88, 1)
  })
})

describe('the event page shows the facts', () => {
  test('as data for the card and as schema.org Event data', async () => {
    const live = await insertTestEvent(owner, {
      showAdOnDates: days(2),
      priceCents: 0,
      accessibilityFeatures: ['step_free'],
      ageRange: 'all_ages',
    })
    const res = await callRoute(eventPageLoader, `/event/${live.eventID}?viewMode=true`, {
      params: { id: String(live.eventID) },
    })
    const data = (await res.json()) as { card: { facts: unknown } }
    expect(data.card.facts).toMatchObject({
      priceCents: 0,
      accessibilityFeatures: ['step_free'],
      ageRange: 'all_ages',
    })
  })
})
