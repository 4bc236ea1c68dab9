import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  NEGATIVE_PRICE_MESSAGE,
  ONLINE_URL_REQUIRED_MESSAGE,
  PRICE_MAX_MESSAGE,
  PRICE_REQUIRED_MESSAGE,
  TICKET_URL_MESSAGE,
  VENUE_ZIP_MESSAGE,
} from '#app/models/practical-facts.ts'
import { action as approveEvent } from '#app/routes/api.approve-event.ts'
import { action as newEventAction } from '#app/routes/dashboard.events.new.tsx'
import { loader as eventPageLoader } from '#app/routes/event.$id.tsx'
import { db } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { events, type Business } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { approveBody, days, plainEventForm, useUploadFolder } from '#tests/support/ad-submission.ts'
import { insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'

useUploadFolder('practical-facts-it')

let owner: Business
let cookie: string

beforeAll(async () => {
  owner = await insertBusiness(db, { businessName: 'Harbor Hall', businessZip: '62704' })
  cookie = await sessionCookieFor({ business: owner })
})

function approve(eventData: Record<string, unknown>) {
  return callRoute(approveEvent, '/api/approve-event', {
    method: 'POST',
    body: approveBody({ eventData }),
    headers: { Cookie: cookie },
  })
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
    const res = await approve({
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
    })
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
    const body = (await res.json()) as {
      errors: Record<string, string[]>
      submitted: { factFields: { ticketUrl: string; accessibilityFeatures: string[] } }
    }
    expect(body.errors.ticketUrl).toEqual([TICKET_URL_MESSAGE])
    expect(body.submitted.factFields).toMatchObject({
      ticketUrl: 'javascript:alert(1)',
      accessibilityFeatures: ['step_free', 'quiet_space'],
    })
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
