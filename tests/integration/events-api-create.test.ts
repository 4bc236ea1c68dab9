import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { DEFAULT_CATEGORIES, MAX_DISPLAY_DATES, TITLE_MAX, UNSET_DATE } from '#app/constants.ts'
import { ensureCategories } from '#app/models/ads/category.server.ts'
import { MAX_DATES_MESSAGE } from '#app/models/ads/event-schema.ts'
import { action as createEvent } from '#app/routes/api.events._index.ts'
import { action as createPayment } from '#app/routes/api.create-event-payment.ts'
import { loader as dashboardLoader } from '#app/routes/dashboard.tsx'
import { getEnv } from '#app/services/platform/env.server.ts'
import { JSON_BODY_MAX_BYTES } from '#app/constants.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { events, type Business } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { BUILD_TIMEOUT_MS, builtRequestHandler } from '#tests/support/built-app.ts'
import { callRoute } from '#tests/support/routes.ts'

const today = todayInZone(getEnv().APP_TIME_ZONE)
const days = (n: number, from = 1) => Array.from({ length: n }, (_, i) => addDaysIso(today, from + i))

let owner: Business
let other: Business
let cookie: string

beforeAll(async () => {
  await ensureCategories(DEFAULT_CATEGORIES)
  owner = await insertBusiness(db, { businessName: 'Lakeside Grill' })
  other = await insertBusiness(db, { businessName: 'Someone Else' })
  cookie = await sessionCookieFor({ business: owner })
})

const validFields = () => ({
  eventTitle: 'Fish Fry Friday',
  eventDescription: 'All-you-can-eat fish with two sides.',
  eventCategory: ['Food & Drink'],
  showAdDates: days(3),
  eventDate: addDaysIso(today, 3),
  contactPerson: 'Sam Fry',
  contactPhone: '2175550148',
  contactEmail: 'sam@lakeside.example',
})

function post(
  body: unknown,
  { headers = {}, method = 'POST' }: { headers?: HeadersInit; method?: string } = {},
) {
  return callRoute(createEvent, '/api/events', {
    method,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', Cookie: cookie, ...headers },
  })
}

async function eventCount() {
  return (await db.select({ id: events.eventID }).from(events)).length
}

describe('POST /api/events (the older call)', () => {
  test('creates an unpaid draft for the signed-in business and answers 201 {id}', async () => {
    const response = await post(validFields())
    expect(response.status).toBe(201)
    const body = (await response.json()) as { id: number }
    expect(Object.keys(body)).toEqual(['id'])
    const [row] = await db.select().from(events).where(eq(events.eventID, body.id))
    expect(row).toMatchObject({
      businessID: owner.businessID,
      businessName: 'Lakeside Grill',
      eventTitle: 'Fish Fry Friday',
      category: ['Food & Drink'],
      showAdOnDates: days(3),
      eventDate: addDaysIso(today, 3),
      firstShowDate: days(3)[0],
      lastShowDate: days(3)[2],
      daysOrdered: 3,
      totalCost: 29,
      contactPerson: 'Sam Fry',
      contactEmail: 'sam@lakeside.example',
      paymentStatus: 'pending',
      eventStatus: 'pending',
      // A draft: the advertiser has not approved it yet (the older approve-event call does that).
      approvedDateByBusiness: UNSET_DATE,
      stillPhotoURL: '',
      videoURL: '',
    })
  })

  test('without an event date the draft carries the "no single date" marker', async () => {
    const { eventDate: _eventDate, ...fields } = validFields()
    const response = await post(fields)
    expect(response.status).toBe(201)
    const { id } = (await response.json()) as { id: number }
    const [row] = await db.select().from(events).where(eq(events.eventID, id))
    expect(row?.eventDate).toBe(UNSET_DATE)
  })

  test('the business comes from the session: another businessID or businessName in the body changes nothing', async () => {
    const response = await post({ ...validFields(), businessID: other.businessID, businessName: 'Forged' })
    expect(response.status).toBe(201)
    const { id } = (await response.json()) as { id: number }
    const [row] = await db.select().from(events).where(eq(events.eventID, id))
    expect(row).toMatchObject({ businessID: owner.businessID, businessName: 'Lakeside Grill' })
  })

  test.each([
    ['a missing title', { eventTitle: undefined }, 'Title is required'],
    ['a blank description', { eventDescription: '   ' }, 'Description is required'],
    [
      'a title over the limit',
      { eventTitle: 'x'.repeat(TITLE_MAX + 1) },
      `Title must be at most ${TITLE_MAX} characters`,
    ],
    ['no category', { eventCategory: [] }, 'Please choose a category'],
    ['an unknown category', { eventCategory: ['Cockfights'] }, 'Please choose a category from the list'],
    ['no display dates', { showAdDates: [] }, 'Please choose at least one display date'],
    ['too many display dates', { showAdDates: days(MAX_DISPLAY_DATES + 1) }, MAX_DATES_MESSAGE],
    ['a past display date', { showAdDates: [addDaysIso(today, -1)] }, 'Display dates cannot be in the past'],
    ['an impossible event date', { eventDate: '2026-13-45' }, 'Please enter a valid date'],
    ['an event date not as yyyy-MM-dd', { eventDate: '11/24/2030' }, 'Please enter a valid date'],
    ['a past event date', { eventDate: addDaysIso(today, -1) }, 'The event date cannot be in the past'],
    ['a bad contact email', { contactEmail: 'not an email' }, 'Please enter a valid email address'],
    ['a number as the title', { eventTitle: 42 }, 'Title is required'],
  ])('%s is a 400 with the message, and nothing is saved', async (_name, change, message) => {
    const before = await eventCount()
    const response = await post({ ...validFields(), ...change })
    expect(response.status).toBe(400)
    expect(((await response.json()) as { message: string }).message).toBe(message)
    expect(await eventCount()).toBe(before)
  })

  test.each([
    ['not JSON', '{"eventTitle": '],
    ['a JSON list', '[1, 2]'],
    ['JSON null', 'null'],
    ['an empty body', ''],
  ])('a body that is %s is a 400 with a message', async (_name, body) => {
    const before = await eventCount()
    const response = await post(body)
    expect(response.status).toBe(400)
    expect((await response.json()) as { message: string }).toEqual({ message: expect.stringMatching(/JSON/) })
    expect(await eventCount()).toBe(before)
  })

  test('an oversized body is refused with 413 before it is read whole, and nothing is saved', async () => {
    const before = await eventCount()
    const response = await post({ ...validFields(), eventDescription: 'x'.repeat(JSON_BODY_MAX_BYTES) })
    expect(response.status).toBe(413)
    expect(((await response.json()) as { message: string }).message).toMatch(/too large/)
    expect(await eventCount()).toBe(before)
  })

  test('a form-encoded body is refused with 415 and a message', async () => {
    const response = await post('eventTitle=x', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(response.status).toBe(415)
    expect(((await response.json()) as { message: string }).message).toMatch(/application\/json/)
  })

  test('signed out is 401 JSON and nothing is saved', async () => {
    const before = await eventCount()
    const response = await post(validFields(), { headers: { Cookie: '' } })
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ message: 'Unauthorized' })
    expect(await eventCount()).toBe(before)
  })

  test('another method is 405 JSON naming the allowed one', async () => {
    const response = await post(validFields(), { method: 'PUT' })
    expect(response.status).toBe(405)
    expect(response.headers.get('Allow')).toBe('GET, POST')
    expect(await response.json()).toEqual({ message: 'Method not allowed' })
  })
})

/** Exactly the fields of the older, unused event form (spec §3): no category, no display dates. */
const olderFormFields = () => ({
  eventTitle: 'Blues Brunch',
  eventDescription: 'Eggs, coffee and a slide guitar.',
  eventDate: addDaysIso(today, 5),
  startTime: '10:00',
  endTime: '13:00',
  location: 'The back patio',
  ticketPrice: '12.50',
  ticketPurchase: 'https://tickets.example/blues',
  websiteLink: 'https://lakeside.example',
  targetAudience: 'All Ages',
  contactName: 'Sam Fry',
  contactPhone: '2175550148',
  contactEmail: 'sam@lakeside.example',
  supportingActs: 'The Early Birds',
  adPeriodDays: 7,
})

describe('POST /api/events with the older form’s fields', () => {
  test('saves a draft without a category, its event date the one display date, contactName its contact', async () => {
    const response = await post(olderFormFields())
    expect(response.status).toBe(201)
    const body = (await response.json()) as { id: number }
    expect(Object.keys(body)).toEqual(['id'])
    const [row] = await db.select().from(events).where(eq(events.eventID, body.id))
    expect(row).toMatchObject({
      businessID: owner.businessID,
      eventTitle: 'Blues Brunch',
      eventDescription: 'Eggs, coffee and a slide guitar.',
      category: [],
      eventDate: addDaysIso(today, 5),
      showAdOnDates: [addDaysIso(today, 5)],
      daysOrdered: 1,
      contactPerson: 'Sam Fry',
      contactPhone: '2175550148',
      contactEmail: 'sam@lakeside.example',
      paymentStatus: 'pending',
      approvedDateByBusiness: UNSET_DATE,
      startTime: '10:00:00',
      endTime: '13:00:00',
    })
  })

  test('its start and end time are kept, in 12-hour form too, and an all-day one has none', async () => {
    const { id } = (await (
      await post({ ...olderFormFields(), startTime: '4:00 PM', endTime: '6:30 PM' })
    ).json()) as {
      id: number
    }
    const [row] = await db.select().from(events).where(eq(events.eventID, id))
    expect(row).toMatchObject({ startTime: '16:00:00', endTime: '18:30:00' })
    const allDay = (await (await post({ ...olderFormFields(), startTime: '', endTime: '' })).json()) as {
      id: number
    }
    const [other] = await db.select().from(events).where(eq(events.eventID, allDay.id))
    expect(other).toMatchObject({ startTime: null, endTime: null })
  })

  test('bad times are a 400 with the message, and nothing is saved', async () => {
    const before = await eventCount()
    for (const [change, message] of [
      [{ startTime: '25:00' }, 'Enter a time such as 19:30 (or 7:30 PM)'],
      [{ endTime: 'abc' }, 'Enter a time such as 19:30 (or 7:30 PM)'],
      [{ startTime: ['10:00'] }, 'Enter a time such as 19:30 (or 7:30 PM)'],
      [{ startTime: 'x'.repeat(10_240) }, 'Enter a time such as 19:30 (or 7:30 PM)'],
      [
        { startTime: '13:00', endTime: '10:00' },
        'The end time is before the start time: change it, or tick "Ends after midnight"',
      ],
      [{ startTime: '', endTime: '10:00' }, 'Add a start time before an end time'],
    ] as const) {
      const response = await post({ ...olderFormFields(), ...change })
      expect(response.status, JSON.stringify(change).slice(0, 80)).toBe(400)
      expect(((await response.json()) as { message: string }).message).toBe(message)
    }
    // Today's fields are checked the same way.
    const response = await post({ ...validFields(), startTime: '22:00', endTime: '21:00' })
    expect(response.status).toBe(400)
    expect(await eventCount()).toBe(before)
  })

  test('it cannot be paid until it has a category, and the dashboard says so', async () => {
    const { id } = (await (await post(olderFormFields())).json()) as { id: number }
    const pay = () =>
      callRoute(createPayment, '/api/create-event-payment', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: cookie },
        // The total checkout shows for its one day.
        body: JSON.stringify({ businessID: owner.businessID, eventID: id, totalAmount: 29 }),
      })
    const refused = await pay()
    expect(refused.status).toBe(409)
    expect(await refused.json()).toEqual({
      message: 'This ad has no category yet: choose one in Edit Event before checkout.',
      code: 'category_required',
    })

    const dashboard = await callRoute(dashboardLoader, '/dashboard', { headers: { Cookie: cookie } })
    const { events: cards } = (await dashboard.json()) as {
      events: { eventID: number; categoryNeeded: boolean }[]
    }
    expect(cards.find((card) => card.eventID === id)?.categoryNeeded).toBe(true)

    // Chosen in the edit form, the category makes it payable.
    await db
      .update(events)
      .set({ category: ['Concert'] })
      .where(eq(events.eventID, id))
    expect((await pay()).status).toBe(200)
  })

  test('the older fields are checked like any other ad', async () => {
    const before = await eventCount()
    for (const [change, message] of [
      [{ eventTitle: '' }, 'Title is required'],
      [{ eventDate: '2026-13-45' }, 'Please enter a valid date'],
      [{ eventDate: addDaysIso(today, -1) }, 'The event date cannot be in the past'],
      [{ eventDate: undefined }, 'Please choose at least one display date'],
      [{ contactEmail: 'not an email' }, 'Please enter a valid email address'],
    ] as const) {
      const response = await post({ ...olderFormFields(), ...change })
      expect(response.status, JSON.stringify(change)).toBe(400)
      expect(((await response.json()) as { message: string }).message).toBe(message)
    }
    expect(await eventCount()).toBe(before)
  })
})

describe('POST /api/events through the built app (the router, not only the action)', () => {
  let request: Awaited<ReturnType<typeof builtRequestHandler>>

  beforeAll(async () => {
    request = await builtRequestHandler()
  }, BUILD_TIMEOUT_MS)

  function send(body: string, headers: HeadersInit = {}) {
    return request('/api/events', {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json', Cookie: cookie, ...headers },
    })
  }

  test('is answered by the route: 201 {id}, then 400/401 JSON for bad input or no session, never 405 or 500', async () => {
    const created = await send(JSON.stringify(validFields()))
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: number }
    const [row] = await db.select().from(events).where(eq(events.eventID, id))
    expect(row).toMatchObject({ businessID: owner.businessID, paymentStatus: 'pending' })

    const bad = await send(JSON.stringify({ ...validFields(), eventDate: '2026-13-45' }))
    expect(bad.status).toBe(400)
    expect(bad.headers.get('Content-Type')).toMatch(/application\/json/)
    expect(((await bad.json()) as { message: string }).message).toBe('Please enter a valid date')

    const signedOut = await send(JSON.stringify(validFields()), { Cookie: '' })
    expect(signedOut.status).toBe(401)
    expect(await signedOut.json()).toEqual({ message: 'Unauthorized' })
  })
})
