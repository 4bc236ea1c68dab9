import { describe, expect, test } from 'vitest'
import { MAX_DISPLAY_DATES } from '#app/constants.ts'
import { MAX_DATES_MESSAGE } from '#app/models/ads/event-rules.ts'
import {
  datesWithRepeat,
  NO_REPEAT,
  REPEAT_KIND_MESSAGE,
  REPEAT_MONTHS_MESSAGE,
  REPEAT_NO_DATES_MESSAGE,
  REPEAT_WEEKDAY_MESSAGE,
  REPEAT_WEEKS_MESSAGE,
  type RepeatFormValues,
} from '#app/models/ads/repeat-rules.ts'
import { expandRepeatRule, nthWeekdayOfMonth } from '#app/utils/repeat-dates.ts'
import { weekdayOf } from '#app/utils/time.ts'
import { todayInZone } from '#app/utils/time.ts'

const window = { today: '2026-01-05', lastDate: '2027-01-05' }

describe('weekly rule', () => {
  test('every Tuesday and Friday from a Monday for 2 weeks', () => {
    expect(
      expandRepeatRule({ kind: 'weekly', from: '2026-01-05', weekdays: [2, 5], weeks: 2 }, window),
    ).toEqual(['2026-01-06', '2026-01-09', '2026-01-13', '2026-01-16'])
  })

  test('weeks that cross the daylight-saving changes of America/New_York keep their weekday', () => {
    const spring = expandRepeatRule({ kind: 'weekly', from: '2026-03-01', weekdays: [0], weeks: 3 }, window)
    expect(spring).toEqual(['2026-03-01', '2026-03-08', '2026-03-15'])
    const autumn = expandRepeatRule(
      { kind: 'weekly', from: '2026-10-25', weekdays: [0, 6], weeks: 2 },
      window,
    )
    expect(autumn).toEqual(['2026-10-25', '2026-10-31', '2026-11-01', '2026-11-07'])
    expect([...spring, ...autumn].map(weekdayOf)).toEqual([0, 0, 0, 0, 6, 0, 6])
  })

  test("today is the platform's: late on Oct 31 in New York is still the 31st there, though Nov 1 in UTC", () => {
    const today = todayInZone('America/New_York', new Date('2026-11-01T03:30:00Z'))
    expect(today).toBe('2026-10-31')
    const dates = expandRepeatRule(
      { kind: 'weekly', from: '2026-10-24', weekdays: [6], weeks: 2 },
      { today, lastDate: '2027-10-31' },
    )
    expect(dates).toEqual(['2026-10-31'])
  })

  test('dates before today and after the horizon are left out', () => {
    expect(
      expandRepeatRule(
        { kind: 'weekly', from: '2025-12-29', weekdays: [1], weeks: 52 },
        { today: '2026-01-05', lastDate: '2026-01-26' },
      ),
    ).toEqual(['2026-01-05', '2026-01-12', '2026-01-19', '2026-01-26'])
  })
})

describe('monthly rule', () => {
  test('the nth and the last weekday of a month', () => {
    expect(nthWeekdayOfMonth(2026, 1, 1, 5)).toBe('2026-01-02')
    expect(nthWeekdayOfMonth(2026, 1, 2, 2)).toBe('2026-01-13')
    expect(nthWeekdayOfMonth(2026, 1, -1, 5)).toBe('2026-01-30')
    expect(nthWeekdayOfMonth(2026, 2, -1, 6)).toBe('2026-02-28')
    expect(nthWeekdayOfMonth(2028, 2, 4, 2)).toBe('2028-02-22')
  })

  test('N months are the first N dates on or after the start, across the year end, up to the horizon', () => {
    expect(
      expandRepeatRule({ kind: 'monthly', from: '2026-11-20', nth: 2, weekday: 2, months: 3 }, window),
    ).toEqual(['2026-12-08'])
    expect(
      expandRepeatRule(
        { kind: 'monthly', from: '2026-11-20', nth: 2, weekday: 2, months: 3 },
        { today: '2026-11-20', lastDate: '2027-11-20' },
      ),
    ).toEqual(['2026-12-08', '2027-01-12', '2027-02-09'])
    expect(
      expandRepeatRule({ kind: 'monthly', from: '2026-01-01', nth: -1, weekday: 5, months: 2 }, window),
    ).toEqual(['2026-01-30', '2026-02-27'])
  })
})

describe('the form fields', () => {
  const weekly = (overrides: Partial<RepeatFormValues>): RepeatFormValues => ({
    ...NO_REPEAT,
    repeat: 'weekly',
    repeatWeekday: ['5'],
    repeatFrom: '2026-01-05',
    ...overrides,
  })
  const today = '2026-01-05'

  test('no repeat leaves the chosen dates alone', () => {
    expect(datesWithRepeat(NO_REPEAT, ['2026-02-01'], { today })).toEqual({ dates: ['2026-02-01'] })
  })

  test("the rule's dates join the chosen ones, once each and in order", () => {
    expect(datesWithRepeat(weekly({ repeatWeeks: '2' }), ['2026-01-16', '2026-01-06'], { today })).toEqual({
      dates: ['2026-01-06', '2026-01-09', '2026-01-16'],
    })
  })

  test('more than 21 dates in all is refused with the alert text', () => {
    expect(MAX_DISPLAY_DATES).toBe(21)
    expect(datesWithRepeat(weekly({ repeatWeeks: '21' }), [], { today })).toEqual({
      dates: expect.any(Array) as unknown,
    })
    expect(datesWithRepeat(weekly({ repeatWeeks: '21' }), ['2026-01-06'], { today })).toEqual({
      problems: { repeat: MAX_DATES_MESSAGE },
    })
    expect(MAX_DATES_MESSAGE).toBe('Max number for any event or special is 21 days')
  })

  test.each([
    [{ repeat: 'daily' }, { repeat: REPEAT_KIND_MESSAGE }],
    [{ repeatWeekday: [] }, { repeatWeekday: REPEAT_WEEKDAY_MESSAGE }],
    [{ repeatWeekday: ['7'] }, { repeatWeekday: REPEAT_WEEKDAY_MESSAGE }],
    [{ repeatWeeks: '0' }, { repeatWeeks: REPEAT_WEEKS_MESSAGE }],
    [{ repeatWeeks: '53' }, { repeatWeeks: REPEAT_WEEKS_MESSAGE }],
    [{ repeatWeeks: '9'.repeat(400) }, { repeatWeeks: REPEAT_WEEKS_MESSAGE }],
    [{ repeatWeeks: '2.5' }, { repeatWeeks: REPEAT_WEEKS_MESSAGE }],
    [{ repeatFrom: '2026-02-30' }, { repeatFrom: 'Please enter a valid date' }],
  ])('refused: %j', (overrides, problems) => {
    expect(datesWithRepeat(weekly(overrides), [], { today })).toEqual({ problems })
  })

  test('a monthly count out of range, and a rule with no bookable date, are refused', () => {
    const monthly = { ...NO_REPEAT, repeat: 'monthly', repeatFrom: '2026-01-05' }
    expect(datesWithRepeat({ ...monthly, repeatMonths: '13' }, [], { today })).toEqual({
      problems: { repeatMonths: REPEAT_MONTHS_MESSAGE },
    })
    expect(datesWithRepeat(weekly({ repeatFrom: '2030-01-01' }), [], { today })).toEqual({
      problems: { repeat: `${REPEAT_NO_DATES_MESSAGE} 2027-01-05.` },
    })
  })
})
