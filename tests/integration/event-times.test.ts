import { eq } from 'drizzle-orm'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { RevisionChanges } from '#app/components/revision-changes.tsx'
import type { RevisionChange } from '#app/models/moderation/moderation-schema.ts'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  END_BEFORE_START_MESSAGE,
  END_WITHOUT_START_MESSAGE,
  ENDS_NEXT_DAY_WITHOUT_LATE_END_MESSAGE,
  INVALID_TIME_MESSAGE,
} from '#app/models/ads/event-times.ts'
import { loader as adminLoader } from '#app/routes/admin.tsx'
import { action as approveEvent } from '#app/routes/api.approve-event.ts'
import { action as reviewApi } from '#app/routes/api.admin.review-event.ts'
import { loader as businessEventsLoader } from '#app/routes/api.business.$id.events.ts'
import { loader as eventByIdLoader } from '#app/routes/api.events.$id.ts'
import { loader as activeEventsLoader } from '#app/routes/api.events.active.ts'
import { loader as eventsLoader } from '#app/routes/api.events._index.ts'
import { loader as publicEventsLoader } from '#app/routes/api.public-events.ts'
import * as editRoute from '#app/routes/dashboard.events.$id.edit.tsx'
import * as newRoute from '#app/routes/dashboard.events.new.tsx'
import { action as previewAction, loader as previewLoader } from '#app/routes/dashboard.events.preview.tsx'
import { action as runAgainAction } from '#app/routes/dashboard_.events.$id_.run-again.tsx'
import { changeTrust } from '#app/services/moderation/trust.server.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness, insertUser } from '#db/factories.ts'
import { eventRevisions, events, type Business } from '#db/schema.ts'
import { approveBody, days, plainEventForm, useUploadFolder } from '#tests/support/ad-submission.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { shownAfter, textOf } from '#tests/support/document-request.ts'
import { callRoute } from '#tests/support/routes.ts'

useUploadFolder('event-times-it')

let owner: Business
let cookie: string
let adminCookie: string

beforeAll(async () => {
  owner = await insertBusiness(db, { businessName: 'Blue Note Cellar' })
  cookie = await sessionCookieFor({ business: owner })
  const admin = await insertUser(db, { roles: ['admin'] })
  adminCookie = await sessionCookieFor({ user: admin })
  // Edits of a trusted business's live ads go live without review; these must wait for one.
  await changeTrust(owner.businessID, { granted: false, reason: 'Edits reviewed', adminId: admin.id })
})

const eventCount = async () => (await db.select({ id: events.eventID }).from(events)).length
const rowOf = async (eventID: number) =>
  (await db.select().from(events).where(eq(events.eventID, eventID)))[0]!

function approve(eventData: Record<string, unknown>, eventID?: number) {
  return callRoute(approveEvent, '/api/approve-event', {
    method: 'POST',
    body: approveBody({ eventData, ...(eventID ? { eventID: String(eventID) } : {}) }),
    headers: { Cookie: cookie },
  })
}

async function approvedID(eventData: Record<string, unknown>, eventID?: number) {
  const res = await approve(eventData, eventID)
  expect(res.status, await res.clone().text()).toBe(200)
  return ((await res.json()) as { eventID: number }).eventID
}

async function makeLive(eventID: number) {
  await db
    .update(events)
    .set({ paymentStatus: 'paid', eventStatus: 'approved' })
    .where(eq(events.eventID, eventID))
}

const getJson = async (loader: Parameters<typeof callRoute>[0], path: string, headers: HeadersInit = {}) => {
  const res = await callRoute(loader, path, { headers, params: { id: path.split('/')[3] ?? '' } })
  expect(res.status).toBe(200)
  return (await res.json()) as unknown
}

type TimedRow = { eventID: number; startTime: string | null; endTime: string | null }

describe('without JavaScript', () => {
  const form = (times: Record<string, string>) =>
    plainEventForm({
      eventTitle: 'Friday Night Jazz Trio',
      eventDescription: 'Standards and originals.',
      eventCategory: 'Food & Drink',
      showAdDates: days(2),
      ...times,
    })

  test('the times go from the form to the preview card, the saved ad and its edit form', async () => {
    const posted = await callRoute(newRoute.action, '/dashboard/events/new', {
      method: 'POST',
      headers: { Cookie: cookie },
      body: form({ startTime: '19:30', endTime: '22:00' }),
    })
    expect(posted.status, await posted.clone().text()).toBe(302)
    const preview = await callRoute(previewLoader, '/dashboard/events/preview', {
      headers: { Cookie: cookie },
    })
    const { card } = (await preview.json()) as { card: { times: unknown } }
    expect(card.times).toEqual({ startTime: '19:30', endTime: '22:00' })

    const body = new FormData()
    body.set('intent', 'approve')
    const done = await callRoute(previewAction, '/dashboard/events/preview', {
      method: 'POST',
      headers: { Cookie: cookie },
      body,
    })
    expect(done.status).toBe(302)
    const [saved] = await db.select().from(events).where(eq(events.eventTitle, 'Friday Night Jazz Trio'))
    expect(saved).toMatchObject({ startTime: '19:30:00', endTime: '22:00:00' })

    const edit = await shownAfter(
      [{ path: '/dashboard/events/:id/edit', ...editRoute }],
      `/dashboard/events/${saved!.eventID}/edit`,
      { headers: { Cookie: cookie } },
    )
    expect(edit.status).toBe(200)
    expect((edit.loaderData as { initial: unknown }).initial).toMatchObject({
      startTime: '19:30',
      endTime: '22:00',
    })
    expect(edit.html).toMatch(/name="startTime"[^>]*value="19:30"|value="19:30"[^>]*name="startTime"/)
    expect(textOf(edit.html)).toContain('Leave empty for an all-day event')
  })

  test('an end before the start comes back with the message at the field and what was typed; nothing is saved', async () => {
    const before = await eventCount()
    const page = await shownAfter([{ path: '/dashboard/events/new', ...newRoute }], '/dashboard/events/new', {
      method: 'POST',
      headers: { Cookie: cookie },
      body: form({ startTime: '22:00', endTime: '01:00' }),
    })
    expect(page.status).toBe(400)
    const { result } = page.actionData as {
      result: { error: Record<string, string[]>; initialValue: Record<string, unknown> }
    }
    expect(result.error).toEqual({ endTime: [END_BEFORE_START_MESSAGE] })
    expect(result.initialValue).toMatchObject({ startTime: '22:00', endTime: '01:00', endsNextDay: false })
    expect(textOf(page.html)).toContain(END_BEFORE_START_MESSAGE)
    expect(page.html).toMatch(/id="endTime"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="endTime"/)
    expect(await eventCount()).toBe(before)
  })

  test('"Ends after midnight" ticked saves a late end', async () => {
    const posted = await callRoute(newRoute.action, '/dashboard/events/new', {
      method: 'POST',
      headers: { Cookie: cookie },
      body: form({ startTime: '22:00', endTime: '01:00', endsNextDay: 'on' }),
    })
    expect(posted.status, await posted.clone().text()).toBe(302)
    const preview = await callRoute(previewLoader, '/dashboard/events/preview', {
      headers: { Cookie: cookie },
    })
    const { card } = (await preview.json()) as { card: { times: unknown } }
    expect(card.times).toEqual({ startTime: '22:00', endTime: '01:00' })
  })
})

describe('with JavaScript (the approval call) and the JSON reads', () => {
  test('times are saved and every GET call returns them as hh:mm, an all-day ad as null', async () => {
    const timed = await approvedID({ startTime: '7:30 PM', endTime: '22:00' })
    const allDay = await approvedID({ eventTitle: 'All-day fair' })
    expect(await rowOf(timed)).toMatchObject({ startTime: '19:30:00', endTime: '22:00:00' })
    expect(await rowOf(allDay)).toMatchObject({ startTime: null, endTime: null })

    const own = (await getJson(eventByIdLoader, `/api/events/${timed}`, { Cookie: cookie })) as TimedRow
    expect(own).toMatchObject({ startTime: '19:30', endTime: '22:00' })
    const mine = (await getJson(businessEventsLoader, `/api/business/${owner.businessID}/events`, {
      Cookie: cookie,
    })) as TimedRow[]
    expect(mine.find((e) => e.eventID === timed)).toMatchObject({ startTime: '19:30', endTime: '22:00' })
    expect(mine.find((e) => e.eventID === allDay)).toMatchObject({ startTime: null, endTime: null })

    await makeLive(timed)
    await makeLive(allDay)
    const visitorOne = (await getJson(eventByIdLoader, `/api/events/${timed}`)) as TimedRow
    expect(visitorOne).toMatchObject({ startTime: '19:30', endTime: '22:00' })
    for (const [loader, path] of [
      [eventsLoader, '/api/events'],
      [activeEventsLoader, '/api/events/active'],
      [publicEventsLoader, '/api/public-events'],
    ] as const) {
      for (const headers of [{}, { Cookie: cookie }] as Array<Record<string, string>>) {
        const list = (await getJson(loader, path, headers)) as TimedRow[]
        expect(
          list.find((e) => e.eventID === timed),
          path,
        ).toMatchObject({
          startTime: '19:30',
          endTime: '22:00',
        })
        expect(
          list.find((e) => e.eventID === allDay),
          path,
        ).toMatchObject({ startTime: null, endTime: null })
      }
    }
  })

  test.each([
    ['a start of 25:00', { startTime: '25:00' }, { startTime: [INVALID_TIME_MESSAGE] }],
    ['abc', { startTime: 'abc', endTime: '22:00' }, { startTime: [INVALID_TIME_MESSAGE] }],
    ['an end of 7:60', { startTime: '19:00', endTime: '7:60' }, { endTime: [INVALID_TIME_MESSAGE] }],
    ['an array', { startTime: ['19:00', '20:00'] }, { startTime: [INVALID_TIME_MESSAGE] }],
    ['an object', { startTime: { hours: 19 } }, { startTime: [INVALID_TIME_MESSAGE] }],
    ['a 10 KB string', { startTime: `19:00${'x'.repeat(10_240)}` }, { startTime: [INVALID_TIME_MESSAGE] }],
    [
      'an end before the start',
      { startTime: '22:00', endTime: '19:00' },
      { endTime: [END_BEFORE_START_MESSAGE] },
    ],
    ['an end without a start', { endTime: '19:00' }, { endTime: [END_WITHOUT_START_MESSAGE] }],
    [
      '"Ends after midnight" with a later end',
      { startTime: '19:00', endTime: '22:00', endsNextDay: true },
      { endTime: [ENDS_NEXT_DAY_WITHOUT_LATE_END_MESSAGE] },
    ],
  ])('%s is a 400 with the message, and nothing is saved', async (_name, eventData, errors) => {
    const before = await eventCount()
    const res = await approve(eventData)
    expect(res.status).toBe(400)
    const body = (await res.json()) as { message: string; errors: Record<string, string[]> }
    expect(body.errors).toEqual(errors)
    expect(body.message).toBe(Object.values(errors)[0]![0])
    expect(await eventCount()).toBe(before)
  })
})

describe('after payment the times stay editable', () => {
  test('a paid ad awaiting review takes new times while its dates stay locked', async () => {
    const eventID = await approvedID({ startTime: '18:00' })
    await db.update(events).set({ paymentStatus: 'paid' }).where(eq(events.eventID, eventID))
    expect(await approvedID({ startTime: '17:00', endTime: '19:00' }, eventID)).toBe(eventID)
    expect(await rowOf(eventID)).toMatchObject({ startTime: '17:00:00', endTime: '19:00:00' })
    const refused = await approve({ startTime: '19:00', endTime: '17:00' }, eventID)
    expect(refused.status).toBe(400)
    expect(await rowOf(eventID)).toMatchObject({ startTime: '17:00:00', endTime: '19:00:00' })
  })

  test('a live ad’s revision carries new times, shown old → new; approving applies them and raises the sequence', async () => {
    const eventID = await approvedID({ startTime: '19:00', endTime: '22:00' })
    await makeLive(eventID)
    const before = await rowOf(eventID)
    expect(await approvedID({ startTime: '19:30', endTime: '23:00' }, eventID)).toBe(eventID)
    expect(await rowOf(eventID)).toMatchObject({ startTime: '19:00:00', endTime: '22:00:00' })
    const [revision] = await db.select().from(eventRevisions).where(eq(eventRevisions.eventID, eventID))
    expect(revision).toMatchObject({ status: 'pending', startTime: '19:30:00', endTime: '23:00:00' })

    const queue = await callRoute(adminLoader, '/admin?date=all', { headers: { Cookie: adminCookie } })
    const item = (
      (await queue.json()) as {
        events: Array<{ eventID: number; changes: unknown[] | null; card: { times: unknown } }>
      }
    ).events.find((e) => e.eventID === eventID && e.changes)
    expect(item!.changes).toEqual([
      { field: 'times', label: 'Time', kind: 'text', old: '7 PM – 10 PM', new: '7:30 PM – 11 PM' },
    ])
    expect(item!.card.times).toEqual({ startTime: '19:30', endTime: '23:00' })
    const shown = textOf(
      renderToStaticMarkup(createElement(RevisionChanges, { changes: item!.changes as RevisionChange[] })),
    )
    expect(shown).toContain('Time 7 PM – 10 PM 7:30 PM – 11 PM')

    const decided = await callRoute(reviewApi, '/api/admin/review-event', {
      method: 'POST',
      headers: { Cookie: adminCookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({ eventID, action: 'approve' }),
    })
    expect(decided.status).toBe(200)
    const after = await rowOf(eventID)
    expect(after).toMatchObject({ startTime: '19:30:00', endTime: '23:00:00' })
    expect(after.calendarSequence).toBeGreaterThan(before.calendarSequence)
  })

  test('a revision to all day reads "All day" for the reviewer', async () => {
    const eventID = await approvedID({ startTime: '22:00', endTime: '01:00', endsNextDay: true })
    await makeLive(eventID)
    await approvedID({ startTime: '', endTime: '' }, eventID)
    const queue = await callRoute(adminLoader, '/admin?date=all', { headers: { Cookie: adminCookie } })
    const item = (
      (await queue.json()) as { events: Array<{ eventID: number; changes: unknown[] | null }> }
    ).events.find((e) => e.eventID === eventID && e.changes)
    expect(item!.changes).toEqual([
      { field: 'times', label: 'Time', kind: 'text', old: '10 PM – 1 AM (next day)', new: 'All day' },
    ])
  })

  test('"Run again" copies the times', async () => {
    const eventID = await approvedID({ startTime: '16:00', endTime: '18:00' })
    await makeLive(eventID)
    const res = await callRoute(runAgainAction, `/dashboard/events/${eventID}/run-again`, {
      method: 'POST',
      params: { id: String(eventID) },
      headers: { Cookie: cookie },
    })
    const copyID = Number(/\/dashboard\/events\/(\d+)\/edit$/.exec(res.headers.get('Location') ?? '')?.[1])
    expect(copyID).toBeGreaterThan(eventID)
    expect(await rowOf(copyID)).toMatchObject({
      startTime: '16:00:00',
      endTime: '18:00:00',
      showAdOnDates: [],
    })
  })
})
