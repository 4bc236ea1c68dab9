import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { DATE_HORIZON_DAYS, DESCRIPTION_MAX, MAX_DISPLAY_DATES, TITLE_MAX } from '#app/constants.ts'
import { DISPLAY_DATE_HORIZON_MESSAGE, EVENT_DATE_HORIZON_MESSAGE } from '#app/models/ads/event-schema.ts'
import { action as approveEvent } from '#app/routes/api.approve-event.ts'
import { action as businessEvent } from '#app/routes/api.business-event.ts'
import { action as newEventAction, loader as newEventLoader } from '#app/routes/dashboard.events.new.tsx'
import { action as previewAction, loader as previewLoader } from '#app/routes/dashboard.events.preview.tsx'
import { action as confirmAd } from '#app/routes/event.$id.tsx'
import { getEventPaymentData } from '#app/services/payments/payment-data.server.ts'
import { TOTAL_MISMATCH_MESSAGE } from '#app/utils/pricing.ts'
import { sessionStorage } from '#app/services/http/session.server.ts'
import { PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { eventMedia, events, type Business } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import {
  approveBody,
  days,
  plainEventForm,
  solidPng,
  today,
  useUploadFolder,
} from '#tests/support/ad-submission.ts'
import { callRoute } from '#tests/support/routes.ts'

useUploadFolder('events-it')

let owner: Business
let other: Business
let cookie: string
let png: Buffer

beforeAll(async () => {
  owner = await insertBusiness(db, { businessName: 'Lakeside Grill' })
  other = await insertBusiness(db)
  cookie = await sessionCookieFor({ business: owner })
  png = await solidPng(64, 48, '#e11')
})

function post(
  handler: Parameters<typeof callRoute>[0],
  url: string,
  body: FormData | string,
  extra: HeadersInit = {},
) {
  return callRoute(handler, url, { method: 'POST', body, headers: { Cookie: cookie, ...extra } })
}

async function countEvents() {
  return (await db.select({ id: events.eventID }).from(events).where(eq(events.businessID, owner.businessID)))
    .length
}

describe('POST /api/approve-event (multipart)', () => {
  test('saves the ad pending/pending with its photo and remembers the payment data in the session', async () => {
    const res = await post(
      approveEvent,
      '/api/approve-event',
      approveBody({ totalAmount: '29.00', image: new Blob([new Uint8Array(png)]) }),
    )
    expect(res.status).toBe(200)
    const { eventID } = (await res.json()) as { eventID: number }
    const [row] = await db.select().from(events).where(eq(events.eventID, eventID))
    expect(row).toMatchObject({
      businessID: owner.businessID,
      businessName: 'Lakeside Grill',
      eventStatus: 'pending',
      paymentStatus: 'pending',
      category: ['Food & Drink'],
      showAdOnDates: days(3),
      daysOrdered: 3,
      totalCost: 29,
      approvedDateByBusiness: today(),
      firstShowDate: days(3)[0],
      lastShowDate: days(3)[2],
      contactEmail: owner.businessEmail,
    })
    expect(row!.stillPhotoURL).toMatch(/^\/api\/media\/\d{4}-\d{2}-\d{2}_\d+\.webp/)
    const media = await db.select().from(eventMedia).where(eq(eventMedia.eventID, eventID))
    expect(media.map((m) => m.mediaType)).toEqual(['photo'])

    const session = await sessionStorage.getSession(res.headers.get('Set-Cookie'))
    expect(getEventPaymentData(session)).toMatchObject({
      businessID: owner.businessID,
      eventID,
      totalAmount: 29,
      selectedDates: days(3),
    })
  })

  test('the business comes from the session: a businessID in the payload changes nothing', async () => {
    const res = await post(
      approveEvent,
      '/api/approve-event',
      approveBody({ eventData: { businessID: other.businessID } }),
    )
    const { eventID } = (await res.json()) as { eventID: number }
    const [row] = await db.select().from(events).where(eq(events.eventID, eventID))
    expect(row?.businessID).toBe(owner.businessID)
  })

  test('a total that differs from the price of the dates is refused and nothing is saved', async () => {
    const before = await countEvents()
    const res = await post(approveEvent, '/api/approve-event', approveBody({ totalAmount: '1.00' }))
    expect(res.status).toBe(400)
    expect(((await res.json()) as { message: string }).message).toBe(TOTAL_MISMATCH_MESSAGE)
    expect(await countEvents()).toBe(before)
  })

  test.each([
    [{ eventTitle: 'x'.repeat(TITLE_MAX) }, 200, null],
    [{ eventTitle: 'x'.repeat(TITLE_MAX + 1) }, 400, 'Title must be at most 250 characters'],
    [{ eventDescription: 'd'.repeat(DESCRIPTION_MAX) }, 200, null],
    [
      { eventDescription: 'd'.repeat(DESCRIPTION_MAX + 1) },
      400,
      'Description must be at most 500 characters',
    ],
    [{ eventTitle: '   ' }, 400, 'Title is required'],
    [{ eventCategory: [] }, 400, 'Please choose a category'],
    [{ eventCategory: ['Not A Category'] }, 400, 'Please choose a category from the list'],
    [{ eventDate: addDaysIso(today(), -1) }, 400, 'The event date cannot be in the past'],
  ])('field limits: %j → %i', async (eventData, status, message) => {
    const res = await post(approveEvent, '/api/approve-event', approveBody({ eventData }))
    expect(res.status).toBe(status)
    if (message) expect(((await res.json()) as { message: string }).message).toBe(message)
  })

  test.each([
    [MAX_DISPLAY_DATES, 200],
    [MAX_DISPLAY_DATES + 1, 400],
  ])('%i display dates → %i', async (n, status) => {
    const res = await post(approveEvent, '/api/approve-event', approveBody({ selectedDates: days(n, 0) }))
    expect(res.status).toBe(status)
    if (status === 400) {
      expect(((await res.json()) as { message: string }).message).toBe(
        'Max number for any event or special is 21 days',
      )
    }
  })

  test(`display dates and the event date must lie within ${DATE_HORIZON_DAYS} days of today`, async () => {
    const before = await countEvents()
    for (const dates of [['9999-12-31'], [addDaysIso(today(), DATE_HORIZON_DAYS + 1)]]) {
      const res = await post(approveEvent, '/api/approve-event', approveBody({ selectedDates: dates }))
      expect(res.status).toBe(400)
      expect(((await res.json()) as { message: string }).message).toBe(DISPLAY_DATE_HORIZON_MESSAGE)
    }
    const farEvent = await post(
      approveEvent,
      '/api/approve-event',
      approveBody({ eventData: { eventDate: addDaysIso(today(), DATE_HORIZON_DAYS + 1) } }),
    )
    expect(farEvent.status).toBe(400)
    expect(((await farEvent.json()) as { message: string }).message).toBe(EVENT_DATE_HORIZON_MESSAGE)
    expect(await countEvents()).toBe(before)
    const lastDay = addDaysIso(today(), DATE_HORIZON_DAYS)
    const edge = await post(
      approveEvent,
      '/api/approve-event',
      approveBody({ selectedDates: [lastDay], eventData: { eventDate: lastDay } }),
    )
    expect(edge.status).toBe(200)
  })

  test('past display dates are refused', async () => {
    const res = await post(
      approveEvent,
      '/api/approve-event',
      approveBody({ selectedDates: [addDaysIso(today(), -1)] }),
    )
    expect(res.status).toBe(400)
  })

  test('a renamed executable as the photo is refused and leaves nothing behind', async () => {
    const before = await countEvents()
    const elf = new Blob([Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.alloc(512, 1)])])
    const res = await post(approveEvent, '/api/approve-event', approveBody({ image: elf }))
    expect(res.status).toBe(415)
    expect(((await res.json()) as { message: string }).message).toBe('Please select an image file')
    expect(await countEvents()).toBe(before)
  })

  test('malformed JSON fields are a 400, signed out a 401', async () => {
    const body = approveBody()
    body.set('eventData', '{nope')
    expect((await post(approveEvent, '/api/approve-event', body)).status).toBe(400)
    const res = await callRoute(approveEvent, '/api/approve-event', { method: 'POST', body: approveBody() })
    expect(res.status).toBe(401)
  })

  test('the older JSON use approves an event the business owns, and only that', async () => {
    const res = await post(approveEvent, '/api/approve-event', approveBody())
    const { eventID } = (await res.json()) as { eventID: number }
    const ok = await post(approveEvent, '/api/approve-event', JSON.stringify({ eventID, tempFiles: {} }), {
      'Content-Type': 'application/json',
    })
    expect(await ok.json()).toEqual({ success: true, eventID })
    const [foreign] = await db
      .insert(events)
      .values({ businessID: other.businessID, eventTitle: 'Theirs', eventDescription: 'x' })
      .returning()
    const refused = await post(
      approveEvent,
      '/api/approve-event',
      JSON.stringify({ eventID: foreign!.eventID }),
      {
        'Content-Type': 'application/json',
      },
    )
    expect(refused.status).toBe(404)
  })

  test('a paid ad is approved again by neither door: the JSON call refuses it as the page does', async () => {
    const approvedBefore = addDaysIso(today(), -3)
    const [paid] = await db
      .insert(events)
      .values({
        businessID: owner.businessID,
        eventTitle: 'Paid already',
        eventDescription: 'x',
        paymentStatus: 'paid',
        approvedDateByBusiness: approvedBefore,
      })
      .returning()
    const eventID = paid!.eventID
    const approvedDate = async () =>
      (await db.select().from(events).where(eq(events.eventID, eventID)))[0]!.approvedDateByBusiness

    const page = await callRoute(confirmAd, `/event/${eventID}`, {
      method: 'POST',
      params: { id: String(eventID) },
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
      body: new URLSearchParams({ intent: 'confirm' }).toString(),
    })
    expect(page.headers.get('Location')).toBe(`/event/${eventID}?viewMode=true`)
    expect(await approvedDate()).toBe(approvedBefore)

    const json = await post(approveEvent, '/api/approve-event', JSON.stringify({ eventID }), {
      'Content-Type': 'application/json',
    })
    expect(json.status).toBe(409)
    expect(((await json.json()) as { message: string }).message).toBe(PAYMENT_TEXT.alreadyPaid.description)
    expect(await approvedDate()).toBe(approvedBefore)
  })
})

describe('the plain-form flow (no JavaScript)', () => {
  function planForm(extra: Array<[string, string | Blob, string?]> = []) {
    const fields = {
      eventTitle: 'Quiz Night',
      eventDescription: 'Teams of four, prizes for the top three.',
      eventCategory: ['Nightlife', 'Community'],
      showAdDates: days(8),
      eventDate: '',
    }
    return plainEventForm(fields, extra)
  }

  test('preview keeps the draft and the photo on the server; approve saves it and goes to checkout', async () => {
    const page = await callRoute(newEventLoader, '/dashboard/events/new', { headers: { Cookie: cookie } })
    expect(page.status).toBe(200)

    const res = await post(
      newEventAction,
      '/dashboard/events/new',
      planForm([['image', new Blob([new Uint8Array(png)]), 'quiz.png']]),
    )
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/dashboard/events/preview')
    const draftCookie = res.headers.get('Set-Cookie')!.split(';')[0]!
    expect(draftCookie.split('=')[1]).toBe(cookie.split('=')[1])

    const preview = await callRoute(previewLoader, '/dashboard/events/preview', {
      headers: { Cookie: cookie },
    })
    const data = (await preview.json()) as {
      cost: string
      photoFileName: string
      card: { eventTitle: string }
    }
    expect(data.cost).toBe('49.00')
    expect(data.photoFileName).toBe('quiz.png')
    expect(data.card.eventTitle).toBe('Quiz Night')

    const unknown = new FormData()
    unknown.set('intent', 'publish')
    const refused = await post(previewAction, '/dashboard/events/preview', unknown)
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { result: { error: unknown } }).result.error).toEqual({
      intent: ['Unknown intent'],
    })
    const cancel = new FormData()
    cancel.set('intent', 'cancel')
    const back = await post(previewAction, '/dashboard/events/preview', cancel)
    expect(back.status).toBe(302)
    expect(back.headers.get('Location')).toBe('/dashboard/events/new')

    const approve = new FormData()
    approve.set('intent', 'approve')
    const done = await post(previewAction, '/dashboard/events/preview', approve)
    expect(done.status).toBe(302)
    expect(done.headers.get('Location')).toBe('/checkout')
    const [saved] = await db.select().from(events).where(eq(events.eventTitle, 'Quiz Night'))
    expect(saved).toMatchObject({ totalCost: 49, daysOrdered: 8, category: ['Nightlife', 'Community'] })
    expect(saved!.stillPhotoURL).toMatch(/\.webp/)
  })

  test('22 checked dates re-render the form with the spec message and with everything that was typed', async () => {
    const body = planForm()
    for (const d of days(14, 9)) body.append('showAdDates', d)
    const res = await post(newEventAction, '/dashboard/events/new', body)
    expect(res.status).toBe(400)
    const { result } = (await res.json()) as {
      result: { error: unknown; initialValue: Record<string, unknown> }
    }
    expect(result.error).toEqual({ showAdDates: ['Max number for any event or special is 21 days'] })
    expect(result.initialValue).toMatchObject({
      eventTitle: 'Quiz Night',
      eventDescription: 'Teams of four, prizes for the top three.',
      eventCategory: ['Nightlife', 'Community'],
      showAdDates: [...days(8), ...days(14, 9)],
    })
  })

  test('a display date past the horizon re-renders the form with its message; the picker stops at the horizon', async () => {
    const body = planForm()
    body.append('showAdDates', '9999-12-31')
    const res = await post(newEventAction, '/dashboard/events/new', body)
    expect(res.status).toBe(400)
    expect(((await res.json()) as { result: { error: unknown } }).result.error).toEqual({
      showAdDates: [DISPLAY_DATE_HORIZON_MESSAGE],
    })

    const page = await callRoute(newEventLoader, '/dashboard/events/new', { headers: { Cookie: cookie } })
    const { lastDate, months } = (await page.json()) as {
      lastDate: string
      months: Array<{ days: Array<{ date: string; unavailable: boolean }> }>
    }
    expect(lastDate).toBe(addDaysIso(today(), DATE_HORIZON_DAYS))
    const offered = months.flatMap((m) => m.days).filter((d) => !d.unavailable)
    expect(offered.every((d) => d.date >= today() && d.date <= lastDate)).toBe(true)
  })

  test('signed out, the form sends the visitor to sign in', async () => {
    const res = await callRoute(newEventLoader, '/dashboard/events/new')
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toMatch(/^\/login\?redirectTo=/)
  })
})

describe('POST /api/business-event (demo page)', () => {
  test('creates an event for the signed-in business', async () => {
    const body = new FormData()
    body.set('businessID', String(owner.businessID))
    body.set('eventTitle', 'Demo Sale')
    body.set('eventDescription', 'Everything 20% off.')
    body.set('eventCategory', 'Special')
    const res = await post(businessEvent, '/api/business-event', body)
    expect(res.status).toBe(201)
    expect(await res.json()).toEqual({ eventID: expect.any(Number), message: 'Event created successfully' })
  })

  test("another business's id is refused", async () => {
    const body = new FormData()
    body.set('businessID', String(other.businessID))
    body.set('eventTitle', 'Sneaky')
    body.set('eventDescription', 'x')
    const res = await post(businessEvent, '/api/business-event', body)
    expect(res.status).toBe(403)
  })
})
