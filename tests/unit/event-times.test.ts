import { describe, expect, test } from 'vitest'
import {
  END_BEFORE_START_MESSAGE,
  END_EQUALS_START_MESSAGE,
  END_WITHOUT_START_MESSAGE,
  endDateOf,
  endsAfterMidnight,
  ENDS_NEXT_DAY_WITHOUT_LATE_END_MESSAGE,
  eventTimesOf,
  eventTimesProblems,
  formatEventWhen,
  formatTimeOfDay,
  formatTimeRange,
  INVALID_TIME_MESSAGE,
  parseTimeOfDay,
  withTimesOfDay,
} from '#app/models/ads/event-times.ts'
import { eventFormProblems } from '#app/models/ads/event-rules.ts'

describe('parseTimeOfDay', () => {
  test.each([
    ['19:30', '19:30'],
    ['7:05', '07:05'],
    ['00:00', '00:00'],
    ['23:59', '23:59'],
    ['19:30:00', '19:30'],
    ['19:30:00.000', '19:30'],
    ['7:30 PM', '19:30'],
    ['7:30pm', '19:30'],
    ['7:30 p.m.', '19:30'],
    ['12:00 AM', '00:00'],
    ['12:15 PM', '12:15'],
    [' 9:00 am ', '09:00'],
  ])('reads %j as %j', (typed, stored) => {
    expect(parseTimeOfDay(typed)).toBe(stored)
  })

  test.each([[''], ['   '], [null], [undefined]])('an empty value %j is no time', (value) => {
    expect(parseTimeOfDay(value)).toBeNull()
  })

  test.each([
    ['25:00'],
    ['24:00'],
    ['7:60'],
    ['abc'],
    ['13:00 PM'],
    ['0:30 AM'],
    ['19'],
    ['19:3'],
    ['19:30:61'],
    ['x'.repeat(10_000)],
    [['19:30']],
    [1930],
    [{ hours: 19 }],
    [true],
  ])('refuses %j', (value) => {
    expect(parseTimeOfDay(value)).toBeUndefined()
  })
})

describe('eventTimesOf and withTimesOfDay', () => {
  test('stored times read as hh:mm, and an end without a start is dropped', () => {
    expect(eventTimesOf({ startTime: '19:30:00', endTime: '22:00:00' })).toEqual({
      startTime: '19:30',
      endTime: '22:00',
    })
    expect(eventTimesOf({ startTime: null, endTime: '22:00:00' })).toEqual({ startTime: null, endTime: null })
    expect(eventTimesOf({})).toEqual({ startTime: null, endTime: null })
  })

  test('a row keeps its other fields; one without times is left as it is', () => {
    const row = { eventID: 3, startTime: '10:00:00', endTime: null }
    expect(withTimesOfDay(row)).toEqual({ eventID: 3, startTime: '10:00', endTime: null })
    expect(row.startTime).toBe('10:00:00')
    const other: { eventID: number; startTime?: string } = { eventID: 4 }
    expect(withTimesOfDay(other)).toBe(other)
  })
})

describe('eventTimesProblems', () => {
  test('no times, a start alone, and a start with a later end are fine', () => {
    expect(eventTimesProblems('', '')).toEqual({})
    expect(eventTimesProblems(undefined, undefined)).toEqual({})
    expect(eventTimesProblems('19:30', '')).toEqual({})
    expect(eventTimesProblems('19:30', '22:00')).toEqual({})
    expect(eventTimesProblems('7:30 PM', '10:00 PM')).toEqual({})
  })

  test('a time that is not one is refused at its field', () => {
    expect(eventTimesProblems('25:00', '')).toEqual({ startTime: INVALID_TIME_MESSAGE })
    expect(eventTimesProblems('19:00', '7:60')).toEqual({ endTime: INVALID_TIME_MESSAGE })
    expect(eventTimesProblems(['19:00'], 'abc')).toEqual({
      startTime: INVALID_TIME_MESSAGE,
      endTime: INVALID_TIME_MESSAGE,
    })
  })

  test('an end before the start needs "Ends after midnight"; with it, the end must be earlier', () => {
    expect(eventTimesProblems('22:00', '01:00')).toEqual({ endTime: END_BEFORE_START_MESSAGE })
    expect(eventTimesProblems('22:00', '01:00', true)).toEqual({})
    expect(eventTimesProblems('19:00', '22:00', true)).toEqual({
      endTime: ENDS_NEXT_DAY_WITHOUT_LATE_END_MESSAGE,
    })
  })

  test('an end without a start, or equal to it, is refused', () => {
    expect(eventTimesProblems('', '22:00')).toEqual({ endTime: END_WITHOUT_START_MESSAGE })
    expect(eventTimesProblems('19:00', '19:00')).toEqual({ endTime: END_EQUALS_START_MESSAGE })
  })

  test('the browser check of the form says the same (its "Ends after midnight" is a ticked box)', () => {
    const check = (values: Record<string, string>) =>
      eventFormProblems(
        { eventTitle: 'T', eventDescription: 'D', ...values },
        { eventCategory: ['Music'] },
        { today: '2026-11-01', paid: true },
      )
    expect(check({ startTime: '22:00', endTime: '01:00' })).toEqual({ endTime: END_BEFORE_START_MESSAGE })
    expect(check({ startTime: '22:00', endTime: '01:00', endsNextDay: 'on' })).toEqual({})
    expect(check({ startTime: '', endTime: '10:00' })).toEqual({ endTime: END_WITHOUT_START_MESSAGE })
    expect(check({})).toEqual({})
  })
})

describe('formats', () => {
  test.each([
    ['19:30', '7:30 PM'],
    ['22:00', '10 PM'],
    ['12:00', '12 PM'],
    ['00:00', '12 AM'],
    ['09:05', '9:05 AM'],
  ])('%s reads %s', (time, text) => {
    expect(formatTimeOfDay(time)).toBe(text)
  })

  test('a range, one after midnight, a start alone and all day', () => {
    expect(formatTimeRange({ startTime: '19:30', endTime: '22:00' })).toBe('7:30 PM – 10 PM')
    expect(formatTimeRange({ startTime: '22:00', endTime: '01:00' })).toBe('10 PM – 1 AM (next day)')
    expect(formatTimeRange({ startTime: '16:00', endTime: null })).toBe('4 PM')
    expect(formatTimeRange({ startTime: null, endTime: null })).toBeNull()
  })

  test('the date and time of one day', () => {
    expect(formatEventWhen('2026-11-28', { startTime: '19:30', endTime: '22:00' })).toBe(
      'Sat, Nov 28 · 7:30 PM – 10 PM',
    )
    expect(formatEventWhen('2026-11-28', { startTime: null, endTime: null })).toBe('Sat, Nov 28')
  })

  test('after midnight the event ends the next day', () => {
    const late = { startTime: '22:00', endTime: '01:00' }
    expect(endsAfterMidnight(late)).toBe(true)
    expect(endsAfterMidnight({ startTime: '19:00', endTime: '22:00' })).toBe(false)
    expect(endDateOf('2026-12-31', late)).toBe('2027-01-01')
    expect(endDateOf('2026-12-31', { startTime: '19:00', endTime: '22:00' })).toBe('2026-12-31')
  })
})
