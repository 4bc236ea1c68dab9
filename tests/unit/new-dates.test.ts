import { describe, expect, test } from 'vitest'
import {
  currentDates,
  newDatesLimit,
  newDatesLimitMessage,
  ONE_NEW_EVENT_DATE_MESSAGE,
  rescheduledDates,
} from '#app/models/ads/new-dates.ts'
import { PAST_DISPLAY_DATE_MESSAGE, PAST_EVENT_DATE_MESSAGE } from '#app/models/ads/event-rules.ts'

const TODAY = '2026-03-01'
const UNSET = '1989-01-01'
const ownDate = { eventDate: '2026-03-05', showAdOnDates: ['2026-02-25', '2026-03-02'], daysOrdered: 2 }
const scattered = {
  eventDate: UNSET,
  showAdOnDates: ['2026-02-27', '2026-03-04', '2026-03-11'],
  daysOrdered: 3,
}

describe('new dates for a postponed ad', () => {
  test('an ad with its own date moves that date; its display dates stay', () => {
    expect(rescheduledDates(ownDate, ['2026-03-19'], TODAY)).toEqual({
      newDates: {
        eventDate: '2026-03-19',
        showAdOnDates: ownDate.showAdOnDates,
        previousStartDate: '2026-03-05',
      },
    })
    expect(rescheduledDates(ownDate, ['2026-03-19', '2026-03-20'], TODAY)).toEqual({
      problem: ONE_NEW_EVENT_DATE_MESSAGE,
    })
    expect(rescheduledDates(ownDate, ['2026-02-28'], TODAY)).toEqual({ problem: PAST_EVENT_DATE_MESSAGE })
  })

  test('an ad of display dates gets new ones for those from today on, the past ones kept, as many as paid for', () => {
    expect(currentDates(scattered, TODAY)).toEqual(['2026-03-04', '2026-03-11'])
    expect(newDatesLimit(scattered)).toBe(3)
    expect(rescheduledDates(scattered, ['2026-03-25', '2026-03-18'], TODAY)).toEqual({
      newDates: {
        eventDate: UNSET,
        showAdOnDates: ['2026-02-27', '2026-03-18', '2026-03-25'],
        previousStartDate: '2026-03-04',
      },
    })
    expect(rescheduledDates(scattered, ['2026-03-18', '2026-03-19', '2026-03-20'], TODAY)).toEqual({
      problem: newDatesLimitMessage(2),
    })
    expect(rescheduledDates(scattered, ['2026-02-28'], TODAY)).toEqual({ problem: PAST_DISPLAY_DATE_MESSAGE })
  })

  test('the dates it has, or none, change nothing (the form starts from them)', () => {
    expect(rescheduledDates(scattered, ['2026-03-11', '2026-03-04', ''], TODAY)).toEqual({ newDates: null })
    expect(rescheduledDates(scattered, [], TODAY)).toEqual({ newDates: null })
    // Its event date already past, sent back as it is: no problem, no change.
    expect(rescheduledDates({ ...ownDate, eventDate: '2026-02-20' }, ['2026-02-20'], TODAY)).toEqual({
      newDates: null,
    })
  })
})
