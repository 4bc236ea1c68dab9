import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { MAX_DATES_MESSAGE, lastBookableDate } from '#app/models/ads/event-rules.ts'
import { REPEAT_KIND_MESSAGE, REPEAT_WEEKS_MESSAGE } from '#app/models/ads/repeat-rules.ts'
import { action as editAction } from '#app/routes/dashboard.events.$id.edit.tsx'
import { action as newEventAction } from '#app/routes/dashboard.events.new.tsx'
import { action as previewAction, loader as previewLoader } from '#app/routes/dashboard.events.preview.tsx'
import { chargeCentsFor, DEFAULT_PRICE_LIST } from '#app/models/payments/price-list.ts'
import { formatDollars } from '#app/utils/pricing.ts'
import { expandRepeatRule } from '#app/utils/repeat-dates.ts'
import { weekdayOf } from '#app/utils/time.ts'
import { addDaysIso } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { events, type Business } from '#db/schema.ts'
import { sessionCookieFor } from '#tests/support/auth.ts'
import { days, plainEventForm, today, useUploadFolder } from '#tests/support/ad-submission.ts'
import { insertTestEvent } from '#tests/support/events.ts'
import { callRoute } from '#tests/support/routes.ts'

useUploadFolder('repeat-dates-it')

let owner: Business
let cookie: string

beforeAll(async () => {
  owner = await insertBusiness(db, { businessName: 'Jazz Cellar' })
  cookie = await sessionCookieFor({ business: owner })
})

function form(repeat: Record<string, string | string[]>, showAdDates: string[] = [], title = 'Friday Jazz') {
  return plainEventForm({
    eventTitle: title,
    eventDescription: 'Live jazz every Friday from eight.',
    eventCategory: ['Nightlife'],
    showAdDates,
    eventDate: '',
    ...repeat,
  })
}

function postTo(handler: Parameters<typeof callRoute>[0], url: string, body: FormData, id?: number) {
  return callRoute(handler, url, {
    method: 'POST',
    body,
    headers: { Cookie: cookie },
    ...(id === undefined ? {} : { params: { id: String(id) } }),
  })
}

async function preview() {
  const res = await callRoute(previewLoader, '/dashboard/events/preview', { headers: { Cookie: cookie } })
  return (await res.json()) as { dates: string[]; cost: string }
}

const bookingWindow = () => ({ today: today(), lastDate: lastBookableDate(today()) })
const fridays = (weeks: number, from = today()) =>
  expandRepeatRule({ kind: 'weekly', from, weekdays: [5], weeks }, bookingWindow())

describe('repeat dates posted without JavaScript', () => {
  test('a weekly rule is expanded by the server: the preview lists its dates, the price follows them', async () => {
    const single = addDaysIso(today(), 2)
    const res = await postTo(
      newEventAction,
      '/dashboard/events/new',
      form({ repeat: 'weekly', repeatWeekday: ['5'], repeatFrom: today(), repeatWeeks: '6' }, [single]),
    )
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/dashboard/events/preview')
    const expected = [...new Set([single, ...fridays(6)])].sort()
    const shown = await preview()
    expect(shown.dates).toEqual(expected)
    expect(shown.cost).toBe(formatDollars(chargeCentsFor(expected.length, DEFAULT_PRICE_LIST)))

    const approve = new FormData()
    approve.set('intent', 'approve')
    const saved = await postTo(previewAction, '/dashboard/events/preview', approve)
    expect(saved.headers.get('Location')).toBe('/checkout')
    const [row] = await db.select().from(events).where(eq(events.eventTitle, 'Friday Jazz'))
    expect(row).toMatchObject({ showAdOnDates: expected, daysOrdered: expected.length })
  })

  test('a monthly rule gives the nth weekday of each month, from today up to the horizon', async () => {
    const res = await postTo(
      newEventAction,
      '/dashboard/events/new',
      form(
        {
          repeat: 'monthly',
          repeatNth: '-1',
          repeatMonthWeekday: '6',
          repeatFrom: today(),
          repeatMonths: '4',
        },
        [],
        'Last Saturday Market',
      ),
    )
    expect(res.status).toBe(302)
    const { dates } = await preview()
    expect(dates).toHaveLength(4)
    for (const date of dates) {
      expect(weekdayOf(date)).toBe(6)
      expect(addDaysIso(date, 7).slice(5, 7)).not.toBe(date.slice(5, 7))
    }
    expect(new Set(dates.map((d) => d.slice(0, 7))).size).toBe(4)
  })

  test('past the 21-date limit: a 400 with the alert text at the rule, and the form keeps what was typed', async () => {
    const repeat = { repeat: 'weekly', repeatWeekday: ['1', '3', '5'], repeatFrom: today(), repeatWeeks: '8' }
    const res = await postTo(newEventAction, '/dashboard/events/new', form(repeat, days(1)))
    expect(res.status).toBe(400)
    const { result } = (await res.json()) as {
      result: {
        error: Record<string, string[]>
        initialValue: { showAdDates: string[]; repeat: Record<string, unknown> }
      }
    }
    expect(result.error).toEqual({ repeat: [MAX_DATES_MESSAGE] })
    expect(result.initialValue.showAdDates).toEqual(days(1))
    expect(result.initialValue.repeat).toMatchObject({ ...repeat, repeatWeekday: ['1', '3', '5'] })
  })

  test.each([
    [{ repeat: 'hourly' }, { repeat: [REPEAT_KIND_MESSAGE] }],
    [
      { repeat: 'weekly', repeatWeekday: ['5'], repeatFrom: today(), repeatWeeks: '9'.repeat(5000) },
      { repeatWeeks: [REPEAT_WEEKS_MESSAGE] },
    ],
    [
      { repeat: 'weekly', repeatWeekday: ['5'], repeatFrom: '9999-12-31', repeatWeeks: '4' },
      { repeat: [expect.stringMatching(/^None of these dates can be booked/) as unknown as string] },
    ],
    [
      { repeat: 'weekly', repeatWeekday: ['5'], repeatFrom: '<script>', repeatWeeks: '4' },
      { repeatFrom: ['Please enter a valid date'] },
    ],
  ])('hostile or impossible rules are a 400 naming the field: %j', async (repeat, errors) => {
    const res = await postTo(newEventAction, '/dashboard/events/new', form(repeat, days(1)))
    expect(res.status).toBe(400)
    expect(((await res.json()) as { result: { error: unknown } }).result.error).toEqual(errors)
  })

  test('the edit form of an unpaid ad expands the rule the same way', async () => {
    const ad = await insertTestEvent(owner, {
      eventStatus: 'pending',
      paymentStatus: 'pending',
      showAdOnDates: days(1),
    })
    const res = await postTo(
      editAction,
      `/dashboard/events/${ad.eventID}/edit`,
      form(
        { repeat: 'weekly', repeatWeekday: ['5'], repeatFrom: today(), repeatWeeks: '3' },
        days(1),
        'Edited',
      ),
      ad.eventID,
    )
    expect(res.status).toBe(302)
    expect((await preview()).dates).toEqual([...new Set([...days(1), ...fridays(3)])].sort())
  })

  test('a paid ad keeps its dates: a rule posted to its edit is refused', async () => {
    const ad = await insertTestEvent(owner, { eventStatus: 'pending', showAdOnDates: days(2) })
    const res = await postTo(
      editAction,
      `/dashboard/events/${ad.eventID}/edit`,
      form(
        { repeat: 'weekly', repeatWeekday: ['5'], repeatFrom: today(), repeatWeeks: '3' },
        days(2),
        'Paid',
      ),
      ad.eventID,
    )
    expect(res.status).toBe(400)
  })
})
