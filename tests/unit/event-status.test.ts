import { describe, expect, test } from 'vitest'
import { eventStatusLabel, isLive, type EventStatusFields } from '#app/models/ads/event-status.ts'

const today = '2026-05-15'

function event(overrides: Partial<EventStatusFields>): EventStatusFields {
  return { eventStatus: 'pending', paymentStatus: 'pending', lastShowDate: '2026-05-20', ...overrides }
}

describe('isLive', () => {
  test('approved, paid and a show date today or later', () => {
    expect(isLive(event({ eventStatus: 'approved', paymentStatus: 'paid' }), today)).toBe(true)
    expect(
      isLive(event({ eventStatus: 'approved', paymentStatus: 'paid', lastShowDate: today }), today),
    ).toBe(true)
  })

  test.each([
    ['not approved yet', event({ paymentStatus: 'paid' })],
    ['not paid', event({ eventStatus: 'approved' })],
    ['rejected', event({ eventStatus: 'rejected', paymentStatus: 'refunded' })],
    ['refunded', event({ eventStatus: 'approved', paymentStatus: 'refunded' })],
    [
      'its last date has passed',
      event({ eventStatus: 'approved', paymentStatus: 'paid', lastShowDate: '2026-05-14' }),
    ],
    ['it has no dates', event({ eventStatus: 'approved', paymentStatus: 'paid', lastShowDate: null })],
  ])('not live when %s', (_why, e) => {
    expect(isLive(e, today)).toBe(false)
  })
})

describe('eventStatusLabel', () => {
  test.each<[string, Partial<EventStatusFields>, string]>([
    ['unpaid', { paymentStatus: 'pending' }, 'Awaiting payment'],
    ['a failed payment', { paymentStatus: 'failed' }, 'Awaiting payment'],
    ['paid, not reviewed', { paymentStatus: 'paid', eventStatus: 'pending' }, 'Awaiting review'],
    ['approved and running', { paymentStatus: 'paid', eventStatus: 'approved' }, 'Live'],
    [
      'approved, last day today',
      { paymentStatus: 'paid', eventStatus: 'approved', lastShowDate: today },
      'Live',
    ],
    [
      'approved and over',
      { paymentStatus: 'paid', eventStatus: 'approved', lastShowDate: '2026-05-14' },
      'Ended',
    ],
    [
      'approved without dates',
      { paymentStatus: 'paid', eventStatus: 'approved', lastShowDate: null },
      'Ended',
    ],
    ['rejected (and refunded)', { paymentStatus: 'refunded', eventStatus: 'rejected' }, 'Rejected'],
    ['rejected before payment', { paymentStatus: 'pending', eventStatus: 'rejected' }, 'Rejected'],
    ['refunded', { paymentStatus: 'refunded', eventStatus: 'approved' }, 'Refunded'],
    ['refunded before review', { paymentStatus: 'refunded', eventStatus: 'pending' }, 'Refunded'],
  ])('%s → %s', (_why, overrides, label) => {
    expect(eventStatusLabel(event(overrides), today)).toBe(label)
  })
})
