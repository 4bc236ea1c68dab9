import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DEFAULT_CATEGORIES } from '#app/constants.ts'
import { LINK_TEXT } from '#app/models/ads/link-address-rules.ts'
import { action as newEventAction, loader as newEventLoader } from '#app/routes/dashboard.events.new.tsx'
import { action as previewAction, loader as previewLoader } from '#app/routes/dashboard.events.preview.tsx'
import { linkFillsPerHourMessage } from '#app/services/ads/fill-from-link.server.ts'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { events, type Business } from '#db/schema.ts'
import { plainEventForm, useUploadFolder } from '#tests/support/ad-submission.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { eventPageDates, startEventPageServer, type EventPageServer } from '#tests/support/event-pages.ts'
import { callRoute } from '#tests/support/routes.ts'

useUploadFolder('fill-from-link-it')

const NEW = '/dashboard/events/new'
const { start } = eventPageDates()

let pages: EventPageServer
let owner: Business
let cookie: string

beforeAll(async () => {
  pages = await startEventPageServer({ hostName: 'localhost' })
  process.env.LINK_FETCH_ALLOW_HOSTS = 'localhost'
  resetEnvCache()
  owner = await insertBusiness(db, { businessName: 'Riverside Arts' })
  cookie = await sessionCookieFor({ business: owner })
})
afterAll(async () => {
  delete process.env.LINK_FETCH_ALLOW_HOSTS
  resetEnvCache()
  await pages.close()
})

/** "Fill from a link" as its form posts it (url-encoded); `scripted` as the form's script sends it. */
function fill(linkAddress: string, { scripted = false, intent = 'fill-from-link', who = cookie } = {}) {
  const body = new URLSearchParams({ intent, linkAddress })
  if (scripted) body.set('photoInline', '1')
  return callRoute(newEventAction, NEW, {
    method: 'POST',
    body,
    headers: { Cookie: who, 'Content-Type': 'application/x-www-form-urlencoded' },
  })
}

interface PlainAnswer {
  result: { initialValue: Record<string, unknown>; error: Record<string, string[]> }
  report?: { found: string[]; missing: string[]; sources: string[]; photoName?: string; notes: string[] }
  linkAddress?: string
}

describe('without JavaScript', () => {
  test('the form comes back filled from the page, its photo kept for the preview, nothing saved', async () => {
    const res = await fill(`${pages.origin}/json-ld.html`)
    expect(res.status).toBe(200)
    const answer = (await res.json()) as PlainAnswer
    expect(answer.result.initialValue).toMatchObject({
      eventTitle: 'Jazz on the River',
      eventDescription: 'An evening of live jazz & food trucks by the water.',
      showAdDates: [start],
      eventDate: start,
      startTime: '19:30',
      endTime: '22:00',
      // The business's own contact details stay as the blank form has them.
      contactEmail: owner.businessEmail,
      factFields: expect.objectContaining({
        ticketUrl: 'https://tickets.example.com/jazz',
        venueAddress: '200 River Rd',
        venueCity: 'Springfield',
        venueState: 'IL',
        venueZip: '62701',
      }),
    })
    expect(answer.report).toMatchObject({
      sources: ['json-ld'],
      found: ['title', 'description', 'dates', 'times', 'place', 'ticketUrl', 'photo'],
      missing: [],
      photoName: 'photo.png',
    })
    expect(await db.select().from(events).where(eq(events.businessID, owner.businessID))).toEqual([])

    // The page, read again, says the photo waits for the form's next post.
    const page = await callRoute(newEventLoader, NEW, { headers: { Cookie: cookie } })
    expect(((await page.json()) as { linkPhotoName: string }).linkPhotoName).toBe('photo.png')

    // The advertiser continues as usual: chooses a category, previews (no file chosen) and approves.
    const fields = answer.result.initialValue
    const form = plainEventForm({
      eventTitle: String(fields.eventTitle),
      eventDescription: String(fields.eventDescription),
      eventCategory: [DEFAULT_CATEGORIES[0]],
      showAdDates: [start],
      eventDate: start,
      startTime: '19:30',
      endTime: '22:00',
      ticketUrl: 'https://tickets.example.com/jazz',
      venueAddress: '200 River Rd',
      venueCity: 'Springfield',
      venueState: 'IL',
      venueZip: '62701',
      contactPerson: 'Ann Lee',
      contactPhone: '5551234567',
      contactEmail: 'ann@example.com',
    })
    const staged = await callRoute(newEventAction, NEW, {
      method: 'POST',
      body: form,
      headers: { Cookie: cookie },
    })
    expect(staged.status).toBe(302)
    expect(staged.headers.get('Location')).toBe('/dashboard/events/preview')
    const preview = await callRoute(previewLoader, '/dashboard/events/preview', {
      headers: { Cookie: cookie },
    })
    expect(((await preview.json()) as { photoFileName: string }).photoFileName).toBe('photo.png')
    const again = await callRoute(newEventLoader, NEW, { headers: { Cookie: cookie } })
    expect(((await again.json()) as { linkPhotoName: string | null }).linkPhotoName).toBeNull()

    const approve = new FormData()
    approve.set('intent', 'approve')
    const done = await callRoute(previewAction, '/dashboard/events/preview', {
      method: 'POST',
      body: approve,
      headers: { Cookie: cookie },
    })
    expect(done.status).toBe(302)
    const [saved] = await db.select().from(events).where(eq(events.businessID, owner.businessID))
    expect(saved).toMatchObject({ eventTitle: 'Jazz on the River', venueZip: '62701' })
    expect(saved!.stillPhotoURL).toMatch(/\.webp/)
  })

  test('an .ics file and an Open Graph page fill what they have and name what they lack', async () => {
    const ics = (await (await fill(`${pages.origin}/event.ics`)).json()) as PlainAnswer
    expect(ics.result.initialValue).toMatchObject({ eventTitle: 'Town Hall: Parks Plan', startTime: '20:00' })
    expect(ics.report).toMatchObject({ sources: ['icalendar'], missing: [] })
    const og = (await (await fill(`${pages.origin}/open-graph.html`)).json()) as PlainAnswer
    expect(og.result.initialValue).toMatchObject({ eventTitle: 'Pancake Breakfast', showAdDates: [] })
    expect(og.report).toMatchObject({
      sources: ['open-graph'],
      found: ['title', 'description', 'photo'],
      missing: ['dates', 'times', 'place', 'ticketUrl'],
    })
  })

  test('a refused link comes back as a 400 at the link field, with the address as typed', async () => {
    const res = await fill('http://127.0.0.1/private')
    expect(res.status).toBe(400)
    const answer = (await res.json()) as PlainAnswer
    expect(answer.result.error).toEqual({ linkAddress: [LINK_TEXT.privateAddress] })
    expect(answer.linkAddress).toBe('http://127.0.0.1/private')
    expect(answer.result.initialValue).toMatchObject({ eventTitle: '', contactEmail: owner.businessEmail })

    const nothing = (await (await fill(`${pages.origin}/no-event.html`)).json()) as PlainAnswer
    expect(nothing.result.error).toEqual({ linkAddress: [LINK_TEXT.nothingFound] })
    const empty = await fill('   ')
    expect(empty.status).toBe(400)
    expect(((await empty.json()) as PlainAnswer).result.error).toEqual({ linkAddress: [LINK_TEXT.notALink] })
    const unknown = await fill(`${pages.origin}/json-ld.html`, { intent: 'publish' })
    expect(unknown.status).toBe(400)
  })
})

describe('with JavaScript', () => {
  test('the answer is the fields and the photo’s bytes, for the form to fill in place', async () => {
    const scripted = await sessionCookieFor({ business: await insertBusiness(db) })
    const res = await fill(`${pages.origin}/h-event.html`, { scripted: true, who: scripted })
    expect(res.status).toBe(200)
    const answer = (await res.json()) as {
      filled: { values: Record<string, unknown>; report: { found: string[]; missing: string[] } }
      photo: { name: string; type: string; base64: string }
    }
    expect(answer.filled.values).toMatchObject({
      eventTitle: 'Friends of the Library Book Sale',
      startTime: '09:00',
      venueAddress: '12 Elm St',
      ticketUrl: 'https://library.example.org/book-sale',
    })
    expect(answer.filled.report.missing).toEqual([])
    expect(answer.photo).toMatchObject({ name: 'photo.png', type: 'image/png' })
    expect(Buffer.from(answer.photo.base64, 'base64').subarray(1, 4).toString()).toBe('PNG')
    // Nothing waits in the session: the form's own upload carries the photo.
    const page = await callRoute(newEventLoader, NEW, { headers: { Cookie: scripted } })
    expect(((await page.json()) as { linkPhotoName: string | null }).linkPhotoName).toBeNull()
  })

  test('a refused link is a 400 with its message as JSON', async () => {
    const res = await fill(`${pages.origin}/loop-a`, { scripted: true })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({
      message: LINK_TEXT.redirectLoop,
      code: 'link_refused',
      errors: { linkAddress: [LINK_TEXT.redirectLoop] },
    })
  })
})

test('signed out, the fill is not read: the sign-in page is the answer', async () => {
  const before = pages.hits.length
  const res = await fill(`${pages.origin}/json-ld.html`, { who: '' })
  expect(res.status).toBe(302)
  expect(res.headers.get('Location')).toMatch(/^\/login/)
  expect(pages.hits.length).toBe(before)
})

test('a business has at most LINK_FILLS_PER_BUSINESS_PER_HOUR links read an hour, under 20 at once too', async () => {
  process.env.LINK_FILLS_PER_BUSINESS_PER_HOUR = '3'
  resetEnvCache()
  try {
    const busy = await insertBusiness(db, { businessName: 'Busy Links Hall' })
    const who = await sessionCookieFor({ business: busy })
    const before = pages.hits.length
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => fill(`${pages.origin}/json-ld.html`, { scripted: true, who })),
    )
    const statuses = answers.map((res) => res.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(3)
    expect(statuses.filter((s) => s === 429)).toHaveLength(17)
    const refused = answers.find((res) => res.status === 429)!
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(await refused.json()).toMatchObject({ message: linkFillsPerHourMessage(3) })
    // Only the three allowed fills reached the page's server (each reads the page and its photo).
    expect(pages.hits.slice(before).filter((hit) => hit.endsWith('/json-ld.html'))).toHaveLength(3)
    // Another business is not held back by this one's reads.
    const other = await sessionCookieFor({
      business: await insertBusiness(db, { businessName: 'Quiet Links Hall' }),
    })
    expect((await fill(`${pages.origin}/json-ld.html`, { scripted: true, who: other })).status).toBe(200)
  } finally {
    delete process.env.LINK_FILLS_PER_BUSINESS_PER_HOUR
    resetEnvCache()
  }
})
