import { describe, expect, test } from 'vitest'
import { MAX_DISPLAY_DATES } from '#app/constants.ts'
import { AppError } from '#app/utils/app-error.ts'
import { centsToDollars, chargeCentsForDays, formatDollars } from '#app/utils/pricing.ts'

describe('chargeCentsForDays', () => {
  test.each([
    [0, 0],
    [1, 2900],
    [7, 2900],
    [8, 4900],
    [14, 4900],
    [15, 6900],
    [21, 6900],
  ])('%i days cost %i cents', (days, cents) => {
    expect(chargeCentsForDays(days)).toBe(cents)
  })

  test('more than the maximum number of dates is refused with the spec text', () => {
    expect(() => chargeCentsForDays(MAX_DISPLAY_DATES + 1)).toThrow(
      new AppError('Max number for any event or special is 21 days'),
    )
  })

  test.each([-1, 1.5, Number.NaN])('%s is not a number of days', (days) => {
    expect(() => chargeCentsForDays(days)).toThrow(AppError)
  })
})

test('money helpers', () => {
  expect(centsToDollars(4900)).toBe(49)
  expect(formatDollars(0)).toBe('0.00')
  expect(formatDollars(6900)).toBe('69.00')
})
