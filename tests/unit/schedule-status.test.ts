import { describe, expect, test } from 'vitest'
import {
  BACK_ON,
  CANCELLED_IS_FINAL_MESSAGE,
  hidesTickets,
  isOff,
  isScheduleChoice,
  NOT_LIVE_SCHEDULE_MESSAGE,
  SAME_SCHEDULE_STATUS_MESSAGE,
  scheduleChangeProblem,
  scheduleChoices,
  scheduleStatusOf,
} from '#app/models/ads/schedule-status.ts'

const today = '2026-11-27'

function ad(overrides: Partial<Parameters<typeof scheduleChangeProblem>[0]> = {}) {
  return {
    eventStatus: 'approved',
    paymentStatus: 'paid',
    lastShowDate: '2026-11-29',
    scheduleStatus: null,
    ...overrides,
  }
}

describe('scheduleChangeProblem', () => {
  test.each(['cancelled', 'postponed', 'sold_out'] as const)('a live ad that is on can be marked %s', (status) => {
    expect(scheduleChangeProblem(ad(), status, today)).toBeNull()
  })

  test.each(['postponed', 'sold_out'])('an ad %s can be put back on, or cancelled', (status) => {
    expect(scheduleChangeProblem(ad({ scheduleStatus: status }), BACK_ON, today)).toBeNull()
    expect(scheduleChangeProblem(ad({ scheduleStatus: status }), 'cancelled', today)).toBeNull()
  })

  test.each([BACK_ON, 'postponed', 'sold_out', 'cancelled'] as const)(
    'a cancelled ad cannot become %s',
    (choice) => {
      expect(scheduleChangeProblem(ad({ scheduleStatus: 'cancelled' }), choice, today)).toBe(
        CANCELLED_IS_FINAL_MESSAGE,
      )
    },
  )

  test('the same status again is refused', () => {
    expect(scheduleChangeProblem(ad({ scheduleStatus: 'postponed' }), 'postponed', today)).toBe(
      SAME_SCHEDULE_STATUS_MESSAGE,
    )
    expect(scheduleChangeProblem(ad(), BACK_ON, today)).toBe(SAME_SCHEDULE_STATUS_MESSAGE)
  })

  test.each([
    ['an unpaid draft', ad({ eventStatus: 'pending', paymentStatus: 'pending' })],
    ['an ad awaiting review', ad({ eventStatus: 'pending' })],
    ['a rejected ad', ad({ eventStatus: 'rejected', paymentStatus: 'refunded' })],
    ['an ended ad', ad({ lastShowDate: '2026-11-26' })],
  ])('%s cannot take a status', (_why, event) => {
    expect(scheduleChangeProblem(event, 'cancelled', today)).toBe(NOT_LIVE_SCHEDULE_MESSAGE)
  })
})

describe('what a status means', () => {
  test('cancelled and postponed are off; sold out is on but hides the tickets', () => {
    expect([isOff('cancelled'), isOff('postponed'), isOff('sold_out'), isOff(null)]).toEqual([
      true,
      true,
      false,
      false,
    ])
    expect([hidesTickets('cancelled'), hidesTickets('sold_out'), hidesTickets(null)]).toEqual([
      true,
      true,
      false,
    ])
  })

  test('an unknown stored value reads as no status', () => {
    expect(scheduleStatusOf('deleted')).toBeNull()
    expect(isOff('CANCELLED')).toBe(false)
  })

  test('the choices offered leave out the current status, and none once cancelled', () => {
    expect(scheduleChoices(null)).toEqual(['cancelled', 'postponed', 'sold_out'])
    expect(scheduleChoices('postponed')).toEqual(['cancelled', 'sold_out', BACK_ON])
    expect(scheduleChoices('cancelled')).toEqual([])
  })

  test('only the known choices are accepted from a form', () => {
    expect(['cancelled', 'on', 'sold_out'].every(isScheduleChoice)).toBe(true)
    expect([undefined, '', 'deleted', ['cancelled'], 1].some(isScheduleChoice)).toBe(false)
  })
})
