/**
 * Free community listings: the host lists categories free on /admin/pricing (audited with the prices), an ad all of
 * whose categories are free is sent without a card through the same form and preview, within its limits and the
 * day's caps, to the review queue (or live for a trusted business), and on to the public calendar.
 */
import { and, desc, eq, like } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { getLiveEventsPage } from '#app/models/calendar/cached-listing.server.ts'
import { EMPTY_CALENDAR_FILTERS } from '#app/models/calendar/calendar-filters.ts'
import {
  FREE_CATEGORY_MESSAGE,
  FREE_DATES_MESSAGE,
  FREE_NO_PHOTO_MESSAGE,
  FREE_NO_VIDEO_MESSAGE,
  FREE_TICK_MESSAGE,
  freeListingSentPath,
  tooManyFreeDatesMessage,
} from '#app/models/payments/free-listing.ts'
import { action as reviewAction } from '#app/routes/admin.tsx'
import * as pricingRoute from '#app/routes/admin_.pricing.tsx'
import { action as approveEvent } from '#app/routes/api.approve-event.ts'
import { action as checkoutAction, loader as checkoutLoader } from '#app/routes/checkout.tsx'
import { action as newEventAction, loader as newEventLoader } from '#app/routes/dashboard.events.new.tsx'
import { action as previewAction, loader as previewLoader } from '#app/routes/dashboard.events.preview.tsx'
import * as sentRoute from '#app/routes/dashboard_.events.$id_.submitted.tsx'
import { changeTrust } from '#app/services/moderation/trust.server.ts'
import { sessionStorage } from '#app/services/http/session.server.ts'
import {
  FREE_LISTINGS_PER_ADDRESS_MESSAGE,
  freeListingsPerBusinessMessage,
} from '#app/services/payments/free-listing.server.ts'
import { NO_PROVIDER } from '#app/services/payments/free-payment.server.ts'
import { getEnv } from '#app/services/platform/env.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { authAttempts, categoryList, events, payments, priceLists, type User } from '#db/schema.ts'
import { approveBody, days, plainEventForm, solidPng, useUploadFolder } from '#tests/support/ad-submission.ts'
import { businessSessionCopy, sessionCookieFor } from '#tests/support/auth.ts'
import { toastOf } from '#tests/support/cookie-jar.ts'
import { browse, textOf } from '#tests/support/document-request.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { postForm } from '#tests/support/moderation.ts'
import { mp4Bytes } from '#tests/support/media.ts'
import { callRoute } from '#tests/support/routes.ts'
import { useTestPaymentProvider } from '#tests/support/stripe-checkout.ts'

useUploadFolder('free-listings')
useTestPaymentProvider()

const PARALLEL = 30
let admin: User
let adminCookie: string
let community: number
let library: number
let png: Buffer

beforeAll(async () => {
  admin = await insertUser(db, { roles: ['admin'] })
  adminCookie = await sessionCookieFor({ user: admin })
  const rows = await db.select().from(categoryList)
  community = rows.find((c) => c.categoryName === 'Community')!.categoryID
  const [added] = await db
    .insert(categoryList)
    .values({ categoryName: 'Library' })
    .onConflictDoNothing()
    .returning()
  library = added?.categoryID ?? rows.find((c) => c.categoryName === 'Library')!.categoryID
  png = await solidPng(40, 30, '#2a6')
  // Community is free with the defaults (7 dates, a photo, no video); Library with 2 dates and neither.
  await setPrices({
    [`free${community}`]: 'on',
    [`freeDates${community}`]: '7',
    [`freePhoto${community}`]: 'on',
    [`free${library}`]: 'on',
    [`freeDates${library}`]: '2',
  })
})

const PRICING_PAGE = [{ path: '/admin/pricing', ...pricingRoute }]

/** A full price list form at the first prices, with `fields`. */
const pricesForm = (fields: Record<string, string> = {}) => ({
  upToDays1: '7',
  price1: '29',
  upToDays2: '14',
  price2: '49',
  upToDays3: '21',
  price3: '69',
  sponsoredPerDay: '5',
  sponsoredSlots: '2',
  ...fields,
})

const postPrices = (fields: Record<string, string>) =>
  postForm(pricingRoute.action, '/admin/pricing', fields, { cookie: adminCookie })

async function setPrices(fields: Record<string, string>) {
  const res = await postPrices(pricesForm(fields))
  expect(res.status).toBe(302)
}

async function newOwner() {
  const owner = await insertBusiness(db)
  return { owner, cookie: await sessionCookieFor({ business: owner }) }
}

let address = 0
/** An address of its own for each test, so the caps of one do not reach another. */
const nextAddress = () => `203.0.113.${++address}`

function approve(cookie: string, ip: string, options: Parameters<typeof approveBody>[0] = {}, video?: Blob) {
  const body = approveBody({ totalAmount: '0.00', ...options })
  if (video) body.set('video', video, 'clip.mp4')
  return callRoute(approveEvent, '/api/approve-event', {
    method: 'POST',
    headers: { Cookie: cookie, 'X-Forwarded-For': ip },
    body,
  })
}

const communityAd = (title: string, extra: Record<string, unknown> = {}) => ({
  eventData: { eventTitle: title, eventCategory: ['Community'], ...extra },
})

async function eventRow(eventID: number) {
  return (await db.select().from(events).where(eq(events.eventID, eventID)))[0]!
}

const adsTitled = (title: string) => db.select().from(events).where(eq(events.eventTitle, title))

describe('the host lists categories free on /admin/pricing', () => {
  test('the page shows what a free listing includes, the history says who changed it, and the form starts from the defaults', async () => {
    const [newest] = await db.select().from(priceLists).orderBy(desc(priceLists.id)).limit(1)
    expect(newest).toMatchObject({
      changedByUserId: admin.id,
      freeListings: [
        { categoryID: community, maxDates: 7, photo: true, video: false },
        { categoryID: library, maxDates: 2, photo: false, video: false },
      ],
    })
    const shown = (await browse(PRICING_PAGE, '/admin/pricing', { headers: { Cookie: adminCookie } })).at(-1)!
    expect(shown.status).toBe(200)
    const text = textOf(shown.html)
    expect(text).toContain(
      'Free listings: Community (up to 7 dates, photo, no video); Library (up to 2 dates, no photo, no video).',
    )
    expect(text).toContain('Free listing in Community: up to 7 dates, photo, no video')
    expect(text).toContain(admin.email)
    // A category not free starts from the defaults: 7 dates, photo ticked, video not.
    const concert = (await db.select().from(categoryList).where(eq(categoryList.categoryName, 'Concert')))[0]!
    expect(shown.html).toMatch(new RegExp(`name="freeDates${concert.categoryID}"[^>]*value="7"`))
    expect(shown.html).toMatch(new RegExp(`name="freePhoto${concert.categoryID}"[^>]*checked`))
    expect(shown.html).not.toMatch(new RegExp(`name="freeVideo${concert.categoryID}"[^>]*checked`))
  })

  const refusals: Array<[string, () => Record<string, string>, () => string, string]> = [
    [
      'an unknown category',
      () => ({ free99999: 'on', freeDates99999: '7' }),
      () => 'free99999',
      FREE_CATEGORY_MESSAGE,
    ],
    [
      'a negative date count',
      () => ({ [`free${community}`]: 'on', [`freeDates${community}`]: '-1' }),
      () => `freeDates${community}`,
      FREE_DATES_MESSAGE,
    ],
    [
      'a huge date count',
      () => ({ [`free${community}`]: 'on', [`freeDates${community}`]: '100000' }),
      () => `freeDates${community}`,
      FREE_DATES_MESSAGE,
    ],
    [
      'a tampered box',
      () => ({ [`free${community}`]: 'yes', [`freeDates${community}`]: '7' }),
      () => `free${community}`,
      FREE_TICK_MESSAGE,
    ],
  ]
  test.each(refusals)(
    '%s is refused with 400 and the message at its field; no new version',
    async (_, fields, field, message) => {
      const before = await db.select().from(priceLists)
      const res = await postPrices(pricesForm(fields()))
      expect(res.status).toBe(400)
      const { result } = (await res.json()) as { result: { error: Record<string, string[]> } }
      expect(result.error[field()]).toEqual([message])
      expect(await db.select().from(priceLists)).toHaveLength(before.length)
    },
  )

  test('a hidden category cannot become free', async () => {
    const [hidden] = await db
      .insert(categoryList)
      .values({ categoryName: 'Hidden Free', hidden: true })
      .returning()
    const res = await postPrices(
      pricesForm({ [`free${hidden!.categoryID}`]: 'on', [`freeDates${hidden!.categoryID}`]: '7' }),
    )
    expect(res.status).toBe(400)
    const { result } = (await res.json()) as { result: { error: Record<string, string[]> } }
    expect(result.error[`free${hidden!.categoryID}`]).toEqual([FREE_CATEGORY_MESSAGE])
  })
})

describe('a free listing with JavaScript', () => {
  test('every category free: saved at $0 with no payment intent, in the review queue; the confirmation page says so', async () => {
    const { owner, cookie } = await newOwner()
    const res = await approve(cookie, nextAddress(), communityAd('Story Time'))
    expect(res.status).toBe(200)
    const { eventID, free } = (await res.json()) as { eventID: number; free: boolean }
    expect(free).toBe(true)
    expect(await eventRow(eventID)).toMatchObject({
      paymentStatus: 'paid',
      eventStatus: 'pending',
      totalCost: 0,
      promoCodeId: null,
    })
    const rows = await db.select().from(payments).where(eq(payments.eventID, eventID))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ amount_due_cents: 0, amount_paid_cents: 0, payment_status: 'paid' })
    expect(rows[0]!.payment_intent_id).toMatch(/^free_/)
    expect((rows[0]!.metadata as { provider: string }).provider).toBe(NO_PROVIDER)

    const page = await callRoute(sentRoute.loader, freeListingSentPath(eventID), {
      headers: { Cookie: cookie },
      params: { id: String(eventID) },
    })
    expect(page.status).toBe(200)
    expect(await page.json()).toMatchObject({ eventID, eventTitle: 'Story Time', live: false })
    // Someone else's ad is not theirs to see; a paid ad is not a free listing.
    const other = await newOwner()
    const refused = await callRoute(sentRoute.loader, freeListingSentPath(eventID), {
      headers: { Cookie: other.cookie },
      params: { id: String(eventID) },
    })
    expect(refused.status).toBe(403)
    const paid = await insertTestEvent(owner, { totalCost: 29 })
    const notFree = await callRoute(sentRoute.loader, freeListingSentPath(paid.eventID), {
      headers: { Cookie: cookie },
      params: { id: String(paid.eventID) },
    })
    expect(notFree.status).toBe(404)

    // An administrator approves it from the same queue, and it is on the public calendar.
    const review = await postForm(
      reviewAction,
      '/admin',
      { intent: 'approve', eventID: String(eventID), reason: '' },
      { cookie: adminCookie },
    )
    expect(review.status).toBe(302)
    const live = await getLiveEventsPage(EMPTY_CALENDAR_FILTERS, { today: platformToday(), limit: 100 })
    expect(live.map((e) => e.eventID)).toContain(eventID)
  })

  test('one category that is not free: the ad is paid, at the list price, through checkout', async () => {
    const { cookie } = await newOwner()
    const free = await approve(cookie, nextAddress(), {
      eventData: { eventTitle: 'Mixed Night', eventCategory: ['Community', 'Concert'] },
    })
    expect(free.status).toBe(400)
    const res = await approve(cookie, nextAddress(), {
      eventData: { eventTitle: 'Mixed Night', eventCategory: ['Community', 'Concert'] },
      totalAmount: '29.00',
    })
    expect(res.status).toBe(200)
    const { eventID, free: isFree } = (await res.json()) as { eventID: number; free?: boolean }
    expect(isFree).toBeUndefined()
    expect(await eventRow(eventID)).toMatchObject({ paymentStatus: 'pending', totalCost: 29 })
  })

  test('a trusted business’s free listing is live at once, and its confirmation says so', async () => {
    const { owner, cookie } = await newOwner()
    await changeTrust(owner.businessID, { granted: true, reason: 'The town library', adminId: admin.id })
    const res = await approve(cookie, nextAddress(), communityAd('Library Open Day'))
    const { eventID } = (await res.json()) as { eventID: number }
    expect(await eventRow(eventID)).toMatchObject({ paymentStatus: 'paid', eventStatus: 'approved' })
    const page = await callRoute(sentRoute.loader, freeListingSentPath(eventID), {
      headers: { Cookie: cookie },
      params: { id: String(eventID) },
    })
    expect(await page.json()).toMatchObject({ live: true })
  })

  test.each([
    [
      'more dates than its free listing',
      communityAd('Too Long'),
      undefined,
      'showAdDates',
      tooManyFreeDatesMessage(7),
      days(8),
    ],
    [
      'a photo where it has none',
      { eventData: { eventTitle: 'Photo', eventCategory: ['Library'] } },
      'photo',
      'image',
      FREE_NO_PHOTO_MESSAGE,
      days(2),
    ],
    ['a video (none by default)', communityAd('Video'), 'video', 'video', FREE_NO_VIDEO_MESSAGE, days(3)],
    [
      'the fewest dates of its free categories',
      { eventData: { eventTitle: 'Both', eventCategory: ['Community', 'Library'] } },
      undefined,
      'showAdDates',
      tooManyFreeDatesMessage(2),
      days(3),
    ],
  ])(
    '%s is refused with 400 at its field, nothing saved or counted',
    async (_, options, media, field, message, selectedDates) => {
      const { owner, cookie } = await newOwner()
      const title = (options.eventData as { eventTitle: string }).eventTitle
      const res = await approve(
        cookie,
        nextAddress(),
        { ...options, selectedDates, image: media === 'photo' ? png : undefined },
        media === 'video' ? new Blob([new Uint8Array(mp4Bytes())], { type: 'video/mp4' }) : undefined,
      )
      expect(res.status).toBe(400)
      const body = (await res.json()) as { message: string; errors: Record<string, string[]> }
      expect(body.message).toBe(message)
      expect(body.errors[field]).toEqual([message])
      expect((await adsTitled(title)).filter((e) => e.businessID === owner.businessID)).toHaveLength(0)
      const counted = await db
        .select()
        .from(authAttempts)
        .where(eq(authAttempts.key, `free-listing-business:${owner.businessID}`))
      expect(counted.every((row) => row.failures === 0)).toBe(true)
    },
  )
})

describe('a free listing without JavaScript', () => {
  async function postForm(
    handler: Parameters<typeof callRoute>[0],
    path: string,
    cookie: string,
    ip: string,
    body: FormData,
  ) {
    return callRoute(handler, path, {
      method: 'POST',
      headers: { Cookie: cookie, 'X-Forwarded-For': ip },
      body,
    })
  }

  test('the form, the preview ("Submit for review", $0), then the confirmation page; no checkout', async () => {
    const { cookie } = await newOwner()
    const ip = nextAddress()
    const form = await callRoute(newEventLoader, '/dashboard/events/new', { headers: { Cookie: cookie } })
    expect(((await form.json()) as { freeListings: Record<string, unknown> }).freeListings).toMatchObject({
      Community: { maxDates: 7, photo: true, video: false },
    })
    const fields = {
      eventTitle: 'Church Supper',
      eventDescription: 'Soup, bread and pie for everyone.',
      eventCategory: ['Community'],
      showAdDates: days(3),
      eventDate: '',
    }
    const tooMany = await postForm(
      newEventAction,
      '/dashboard/events/new',
      cookie,
      ip,
      plainEventForm({ ...fields, showAdDates: days(8) }),
    )
    expect(tooMany.status).toBe(400)
    expect(((await tooMany.json()) as { result: { error: Record<string, string[]> } }).result.error).toEqual({
      showAdDates: [tooManyFreeDatesMessage(7)],
    })

    const staged = await postForm(newEventAction, '/dashboard/events/new', cookie, ip, plainEventForm(fields))
    expect(staged.headers.get('Location')).toBe('/dashboard/events/preview')
    const preview = (await (
      await callRoute(previewLoader, '/dashboard/events/preview', { headers: { Cookie: cookie } })
    ).json()) as {
      cost: string
      free: boolean
    }
    expect(preview).toMatchObject({ cost: '0.00', free: true })
    const approveForm = new FormData()
    approveForm.set('intent', 'approve')
    const done = await postForm(previewAction, '/dashboard/events/preview', cookie, ip, approveForm)
    expect(done.status).toBe(302)
    const [saved] = await adsTitled('Church Supper')
    expect(done.headers.get('Location')).toBe(freeListingSentPath(saved!.eventID))
    expect(saved).toMatchObject({ paymentStatus: 'paid', eventStatus: 'pending', totalCost: 0 })

    const pages = await browse(
      [{ path: '/dashboard/events/:id/submitted', ...sentRoute }],
      freeListingSentPath(saved!.eventID),
      {
        headers: { Cookie: cookie },
      },
    )
    const text = textOf(pages.at(-1)!.html)
    expect(text).toContain('Your free listing was sent for review')
    expect(text).toContain('is a free listing: there is nothing to pay and no card was needed.')
    expect(text).toContain('An administrator reviews every listing before it appears on the public calendar.')
  })
})

describe('checkout of a $0 free listing', () => {
  test('an unpaid free listing at checkout is confirmed without a card, no longer "no display dates to pay for"', async () => {
    const { owner } = await newOwner()
    const draft = await insertTestEvent(owner, {
      eventTitle: 'Saved Before',
      category: ['Community'],
      paymentStatus: 'pending',
      eventStatus: 'pending',
      totalCost: 0,
      showAdOnDates: days(2),
      approvedDateByBusiness: platformToday(),
    })
    const session = await sessionStorage.getSession()
    session.set('business', businessSessionCopy(owner))
    session.set('eventPaymentData', {
      businessID: owner.businessID,
      selectedDates: draft.showAdOnDates,
      eventData: { eventTitle: 'Saved Before', showAdDates: draft.showAdOnDates },
      totalAmount: 0,
      eventID: draft.eventID,
    })
    const cookie = (await sessionStorage.commitSession(session)).split(';')[0]!
    const page = await callRoute(checkoutLoader, '/checkout', { headers: { Cookie: cookie } })
    expect(await page.json()).toMatchObject({
      free: true,
      freeListing: true,
      setupError: null,
      summary: { total: '0.00' },
    })
    const confirmed = await callRoute(checkoutAction, '/checkout', {
      method: 'POST',
      headers: { Cookie: cookie, 'X-Forwarded-For': nextAddress() },
      body: new URLSearchParams({
        intent: 'confirm-free',
        eventID: String(draft.eventID),
        totalAmount: '0.00',
      }),
    })
    expect(confirmed.status).toBe(302)
    expect(await toastOf(confirmed)).toMatchObject({ title: expect.any(String) })
    expect(await eventRow(draft.eventID)).toMatchObject({ paymentStatus: 'paid', totalCost: 0 })
  })
})

describe('the day’s caps of free listings', () => {
  test(`${PARALLEL} at once from one business: exactly its cap gets through, the rest are refused with 429`, async () => {
    const { owner, cookie } = await newOwner()
    const max = getEnv().FREE_LISTINGS_PER_BUSINESS_PER_DAY
    expect(max).toBe(5)
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        approve(cookie, nextAddress(), communityAd(`Burst ${owner.businessID} ${i}`)),
      ),
    )
    expect(answers.filter((r) => r.status === 200)).toHaveLength(max)
    const refused = answers.filter((r) => r.status === 429)
    expect(refused).toHaveLength(PARALLEL - max)
    for (const answer of refused) {
      expect(Number(answer.headers.get('Retry-After'))).toBeGreaterThan(0)
      expect(((await answer.json()) as { message: string }).message).toBe(freeListingsPerBusinessMessage(max))
    }
    const sent = await db
      .select()
      .from(events)
      .where(and(eq(events.businessID, owner.businessID), like(events.eventTitle, 'Burst %')))
    expect(sent).toHaveLength(max)
    expect(sent.every((e) => e.paymentStatus === 'paid')).toBe(true)
  })

  test(`${PARALLEL} at once from one address, each business its own: exactly the address’s cap gets through`, async () => {
    const max = getEnv().FREE_LISTINGS_PER_ADDRESS_PER_DAY
    expect(max).toBe(10)
    const owners = await Promise.all(Array.from({ length: PARALLEL }, () => newOwner()))
    const ip = nextAddress()
    const answers = await Promise.all(
      owners.map(({ cookie }, i) => approve(cookie, ip, communityAd(`Address Burst ${i}`))),
    )
    expect(answers.filter((r) => r.status === 200)).toHaveLength(max)
    const refused = answers.filter((r) => r.status === 429)
    expect(refused).toHaveLength(PARALLEL - max)
    expect(((await refused[0]!.json()) as { message: string }).message).toBe(
      FREE_LISTINGS_PER_ADDRESS_MESSAGE,
    )
    const sent = await db.select().from(events).where(like(events.eventTitle, 'Address Burst %'))
    expect(sent).toHaveLength(max)
    // The businesses refused by the address's cap were not counted against their own.
    const ownCounts = await db
      .select()
      .from(authAttempts)
      .where(like(authAttempts.key, 'free-listing-business:%'))
    const refusedOwners = owners
      .filter((_, i) => answers[i]!.status === 429)
      .map((o) => `free-listing-business:${o.owner.businessID}`)
    expect(
      ownCounts.filter((row) => refusedOwners.includes(row.key)).every((row) => row.failures === 0),
    ).toBe(true)
  })
})
