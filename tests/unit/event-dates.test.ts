import { describe, expect, test } from 'vitest'
import { UNSET_DATE } from '#app/constants.ts'
import { eventDates, hasOwnDate, nextEventDate } from '#app/models/ads/event-dates.ts'

describe('when an event happens', () => {
  test('its own date, when it has one: the display dates are only when its ad runs', () => {
    expect(eventDates('2026-12-18', ['2026-12-13', '2026-12-14'])).toEqual(['2026-12-18'])
    expect(nextEventDate({ eventDate: '2026-12-18', showAdOnDates: ['2026-12-13'] }, '2026-12-10')).toBe(
      '2026-12-18',
    )
  })

  test('the unset marker means the display dates are the dates (sorted, once each)', () => {
    expect(hasOwnDate(UNSET_DATE)).toBe(false)
    expect(eventDates(UNSET_DATE, ['2026-12-14', '2026-12-13', '2026-12-14'])).toEqual([
      '2026-12-13',
      '2026-12-14',
    ])
    expect(
      nextEventDate({ eventDate: UNSET_DATE, showAdOnDates: ['2026-12-13', '2026-12-15'] }, '2026-12-14'),
    ).toBe('2026-12-15')
  })

  test('a card shows the last date once all are past, and nothing without dates', () => {
    expect(
      nextEventDate({ eventDate: UNSET_DATE, showAdOnDates: ['2026-12-01', '2026-12-02'] }, '2026-12-20'),
    ).toBe('2026-12-02')
    expect(nextEventDate({ eventDate: '2026-12-01', showAdOnDates: ['2026-12-20'] }, '2026-12-20')).toBe(
      '2026-12-01',
    )
    expect(nextEventDate({ eventDate: UNSET_DATE, showAdOnDates: [] }, '2026-12-20')).toBeNull()
    expect(eventDates(null, [])).toEqual([])
  })
})
