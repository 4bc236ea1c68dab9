import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  CATEGORY_ID_MESSAGE,
  CATEGORY_INTENT_MESSAGE,
  CATEGORY_NAME_MAX,
  CATEGORY_NAME_REQUIRED,
  CATEGORY_NAME_TOO_LONG,
} from '#app/models/ads/category-schema.ts'
import { CATEGORY_NOT_FOUND_MESSAGE, duplicateCategoryMessage } from '#app/models/ads/category.server.ts'
import { action as categoriesAction, loader as categoriesLoader } from '#app/routes/admin_.categories.tsx'
import { action as apiEventsAction } from '#app/routes/api.events._index.ts'
import { loader as calendarLoader } from '#app/routes/calendar.tsx'
import { CATEGORY_MESSAGE } from '#app/services/ads/save.server.ts'
import { loader as editLoader } from '#app/routes/dashboard.events.$id.edit.tsx'
import { loader as newEventLoader } from '#app/routes/dashboard.events.new.tsx'
import { db } from '#db/client.server.ts'
import { insertUser } from '#db/factories.ts'
import { categoryList, eventRevisions, events, type Business } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { toastOf } from '#tests/support/cookie-jar.ts'
import { insertBusiness, insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'

let owner: Business
let adminCookie: string
let clinicianCookie: string
let businessCookie: string

beforeAll(async () => {
  owner = await insertBusiness(db)
  adminCookie = await sessionCookieFor({ user: await insertUser(db, { roles: ['admin'] }) })
  clinicianCookie = await sessionCookieFor({ user: await insertUser(db, { roles: ['clinician'] }) })
  businessCookie = await sessionCookieFor({ business: owner })
})

type Row = { categoryID: number; categoryName: string; hidden: boolean; adCount: number }

async function listed(): Promise<Row[]> {
  const res = await callRoute(categoriesLoader, '/admin/categories', { headers: { Cookie: adminCookie } })
  expect(res.status).toBe(200)
  return ((await res.json()) as { categories: Row[] }).categories
}

async function category(name: string) {
  const found = (await listed()).find((c) => c.categoryName === name)
  expect(found, name).toBeDefined()
  return found!
}

function post(fields: Record<string, string>, cookie: string | null = adminCookie) {
  return callRoute(categoriesAction, '/admin/categories', {
    method: 'POST',
    headers: {
      ...(cookie ? { Cookie: cookie } : {}),
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(fields).toString(),
  })
}

async function expectRefused(fields: Record<string, string>, status: number, message: string) {
  const before = await listed()
  const res = await post(fields)
  expect(res.status).toBe(status)
  expect(((await res.json()) as { message: string }).message).toContain(message)
  expect(await listed()).toEqual(before)
}

async function formCategories(eventID?: number) {
  const res =
    eventID === undefined
      ? await callRoute(newEventLoader, '/dashboard/events/new', { headers: { Cookie: businessCookie } })
      : await callRoute(editLoader, `/dashboard/events/${eventID}/edit`, {
          params: { id: String(eventID) },
          headers: { Cookie: businessCookie },
        })
  expect(res.status).toBe(200)
  return ((await res.json()) as { categories: string[] }).categories
}

async function calendar(query = '') {
  const res = await callRoute(calendarLoader, `/calendar${query}`)
  expect(res.status).toBe(200)
  return (await res.json()) as {
    categories: string[]
    events: Array<{ eventID: number; category: string[] }>
    featured: Array<{ eventID: number; category: string[] }>
  }
}

function inDays(n: number) {
  const d = new Date()
  d.setUTCDate(d.getUTCDate() + n)
  return d.toISOString().slice(0, 10)
}

describe('/admin/categories', () => {
  test('lists every category with how many ads have it', async () => {
    await insertTestEvent(owner, { category: ['Concert', 'Sports'] })
    await insertTestEvent(owner, { category: ['Concert'] })
    const rows = await listed()
    expect(rows.find((c) => c.categoryName === 'Concert')?.adCount).toBe(2)
    expect(rows.find((c) => c.categoryName === 'Sports')?.adCount).toBe(1)
    expect(rows.find((c) => c.categoryName === 'Nightlife')).toMatchObject({ adCount: 0, hidden: false })
  })

  test('adding a category offers it for new ads and in the calendar', async () => {
    const res = await post({ intent: 'add', name: '  Farmers Market  ' })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/admin/categories')
    expect((await toastOf(res))?.title).toBe('Category added')
    expect(await category('Farmers Market')).toMatchObject({ hidden: false, adCount: 0 })
    expect(await formCategories()).toContain('Farmers Market')
    expect((await calendar()).categories).toContain('Farmers Market')
  })

  test('renaming keeps the ads (and their pending edits) on the category', async () => {
    await post({ intent: 'add', name: 'Book Club' })
    const ad = await insertTestEvent(owner, { category: ['Book Club', 'Arts'], showAdOnDates: [inDays(2)] })
    await db.insert(eventRevisions).values({
      eventID: ad.eventID,
      eventTitle: 'Revised',
      eventDescription: 'Revised text.',
      category: ['Book Club'],
    })
    const { categoryID } = await category('Book Club')
    const res = await post({ intent: 'rename', categoryID: String(categoryID), name: 'Reading Circle' })
    expect(res.status).toBe(302)
    expect((await listed()).some((c) => c.categoryName === 'Book Club')).toBe(false)
    expect(await category('Reading Circle')).toMatchObject({ categoryID, adCount: 1 })
    const [saved] = await db.select().from(events).where(eq(events.eventID, ad.eventID))
    expect(saved!.category).toEqual(['Reading Circle', 'Arts'])
    const [revision] = await db.select().from(eventRevisions).where(eq(eventRevisions.eventID, ad.eventID))
    expect(revision!.category).toEqual(['Reading Circle'])
    const filtered = await calendar('?category=Reading%20Circle')
    expect([...filtered.featured, ...filtered.events].map((e) => e.eventID)).toContain(ad.eventID)
    // A change of letter case only is a rename of the same category, not a duplicate.
    expect(
      (await post({ intent: 'rename', categoryID: String(categoryID), name: 'reading circle' })).status,
    ).toBe(302)
    expect(await category('reading circle')).toMatchObject({ categoryID, adCount: 1 })
  })

  test('hiding takes a category out of new ads and the calendar filter; its ads keep and show it; showing brings it back', async () => {
    await post({ intent: 'add', name: 'Pop-up' })
    const { categoryID } = await category('Pop-up')
    const ad = await insertTestEvent(owner, {
      category: ['Pop-up'],
      showAdOnDates: [inDays(3)],
      // Paid and awaiting review: its advertiser may still edit it.
      eventStatus: 'pending',
    })
    const live = await insertTestEvent(owner, { category: ['Pop-up'], showAdOnDates: [inDays(3)] })

    const hide = await post({ intent: 'hide', categoryID: String(categoryID) })
    expect(hide.status).toBe(302)
    expect((await toastOf(hide))?.title).toBe('Category hidden')
    expect(await category('Pop-up')).toMatchObject({ hidden: true, adCount: 2 })
    expect(await formCategories()).not.toContain('Pop-up')
    expect(await formCategories()).toContain('Concert')
    expect((await calendar()).categories).not.toContain('Pop-up')
    // The ad being edited keeps its category as an option, and the live ad still shows (and is found by) it.
    expect(await formCategories(ad.eventID)).toContain('Pop-up')
    const [kept] = await db.select().from(events).where(eq(events.eventID, ad.eventID))
    expect(kept!.category).toEqual(['Pop-up'])
    const filtered = await calendar('?category=Pop-up')
    const shown = [...filtered.featured, ...filtered.events].find((e) => e.eventID === live.eventID)
    expect(shown?.category).toEqual(['Pop-up'])

    // Nor can a hand-made request give a new ad the hidden category.
    const refused = await callRoute(apiEventsAction, '/api/events', {
      method: 'POST',
      headers: { Cookie: businessCookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        eventTitle: 'Hidden pop-up',
        eventDescription: 'A category nobody is offered.',
        eventCategory: ['Pop-up'],
        showAdDates: [inDays(4)],
        eventDate: inDays(4),
      }),
    })
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ message: CATEGORY_MESSAGE })

    const show = await post({ intent: 'show', categoryID: String(categoryID) })
    expect(show.status).toBe(302)
    expect(await category('Pop-up')).toMatchObject({ hidden: false })
    expect(await formCategories()).toContain('Pop-up')
    expect((await calendar()).categories).toContain('Pop-up')
  })

  test('an empty, too long or already used name (any letter case) is a 400 with its message; nothing changes', async () => {
    const { categoryID } = await category('Concert')
    await expectRefused({ intent: 'add', name: '' }, 400, CATEGORY_NAME_REQUIRED)
    await expectRefused({ intent: 'add', name: '    ' }, 400, CATEGORY_NAME_REQUIRED)
    await expectRefused({ intent: 'add' }, 400, CATEGORY_NAME_REQUIRED)
    await expectRefused(
      { intent: 'add', name: 'x'.repeat(CATEGORY_NAME_MAX + 1) },
      400,
      CATEGORY_NAME_TOO_LONG,
    )
    await expectRefused({ intent: 'add', name: 'concert' }, 400, duplicateCategoryMessage('Concert'))
    await expectRefused({ intent: 'add', name: ' SPORTS ' }, 400, duplicateCategoryMessage('Sports'))
    const id = String(categoryID)
    await expectRefused({ intent: 'rename', categoryID: id, name: '' }, 400, CATEGORY_NAME_REQUIRED)
    await expectRefused(
      { intent: 'rename', categoryID: id, name: 'y'.repeat(CATEGORY_NAME_MAX + 1) },
      400,
      CATEGORY_NAME_TOO_LONG,
    )
    await expectRefused(
      { intent: 'rename', categoryID: id, name: 'family' },
      400,
      duplicateCategoryMessage('Family'),
    )
    // The longest allowed name fits the column.
    expect((await post({ intent: 'add', name: 'z'.repeat(CATEGORY_NAME_MAX) })).status).toBe(302)
  })

  test('hostile input: unknown intent, missing or non-numeric id, unknown id, NUL, not a form → 4xx, never a 500', async () => {
    await expectRefused({ intent: 'delete', categoryID: '1' }, 400, CATEGORY_INTENT_MESSAGE)
    await expectRefused({ name: 'No intent' }, 400, CATEGORY_INTENT_MESSAGE)
    for (const intent of ['rename', 'hide', 'show']) {
      await expectRefused({ intent, name: 'Something' }, 400, CATEGORY_ID_MESSAGE)
      for (const categoryID of ['abc', '1.5', '-1', '0', '99999999999', '1e3']) {
        await expectRefused({ intent, categoryID, name: 'Something' }, 400, CATEGORY_ID_MESSAGE)
      }
      await expectRefused(
        { intent, categoryID: '2147483647', name: 'Something' },
        404,
        CATEGORY_NOT_FOUND_MESSAGE,
      )
    }
    expect((await post({ intent: 'add', name: 'Nul\0Name' })).status).toBe(400)
    const notForm = await callRoute(categoriesAction, '/admin/categories', {
      method: 'POST',
      headers: { Cookie: adminCookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({ intent: 'add', name: 'Json' }),
    })
    expect(notForm.status).toBe(415)
    expect((await db.select().from(categoryList).where(eq(categoryList.categoryName, 'Json'))).length).toBe(0)
  })

  test('signed out → sign-in; an advertiser or a clinician → 403, for the page and the changes', async () => {
    const signedOut = await callRoute(categoriesLoader, '/admin/categories')
    expect(signedOut.status).toBe(302)
    expect(signedOut.headers.get('Location')).toMatch(/^\/api\/login\?redirectTo=%2Fadmin%2Fcategories/)
    const signedOutPost = await post({ intent: 'add', name: 'Sneaky' }, null)
    expect(signedOutPost.status).toBe(302)
    expect(signedOutPost.headers.get('Location')).toMatch(/^\/api\/login\?/)
    const { categoryID } = await category('Concert')
    for (const cookie of [businessCookie, clinicianCookie]) {
      const page = await callRoute(categoriesLoader, '/admin/categories', { headers: { Cookie: cookie } })
      expect(page.status).toBe(403)
      expect((await post({ intent: 'add', name: 'Sneaky' }, cookie)).status).toBe(403)
      expect((await post({ intent: 'hide', categoryID: String(categoryID) }, cookie)).status).toBe(403)
      expect(
        (await post({ intent: 'rename', categoryID: String(categoryID), name: 'Taken Over' }, cookie)).status,
      ).toBe(403)
    }
    const rows = await listed()
    expect(rows.some((c) => c.categoryName === 'Sneaky' || c.categoryName === 'Taken Over')).toBe(false)
    expect(rows.find((c) => c.categoryID === categoryID)).toMatchObject({
      categoryName: 'Concert',
      hidden: false,
    })
  })
})
