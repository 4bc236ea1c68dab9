import { describe, expect, test } from 'vitest'
import { MAX_DISPLAY_DATES } from '#app/constants.ts'
import {
  chargeCentsFor,
  DAYS_MESSAGE,
  DAYS_NOT_INCREASING,
  DEFAULT_PRICE_LIST,
  DOLLARS_MESSAGE,
  LAST_TIER_MESSAGE,
  NO_TIERS_MESSAGE,
  parseDollarsToCents,
  priceListChanges,
  priceListFormValues,
  priceTableRows,
  readPriceListForm,
  SLOTS_MESSAGE,
  SPONSORED_TOO_HIGH,
  tierPriceTooHigh,
  TOO_LONG_MESSAGE,
  TOO_MANY_TIERS_MESSAGE,
} from '#app/models/payments/price-list.ts'
import { AppError } from '#app/utils/app-error.ts'
import { centsToDollars, formatDollars, totalChangedMessage } from '#app/utils/pricing.ts'

describe('chargeCentsFor', () => {
  test.each([
    [0, 0],
    [1, 2900],
    [7, 2900],
    [8, 4900],
    [14, 4900],
    [15, 6900],
    [21, 6900],
  ])('%i days cost %i cents at the default prices', (days, cents) => {
    expect(chargeCentsFor(days, DEFAULT_PRICE_LIST)).toBe(cents)
  })

  test('follows the list it is given', () => {
    const list = {
      tiers: [
        { upToDays: 1, cents: 500 },
        { upToDays: 21, cents: 0 },
      ],
    }
    expect(chargeCentsFor(1, list)).toBe(500)
    expect(chargeCentsFor(2, list)).toBe(0)
  })

  test('more than the maximum number of dates is refused with the spec text', () => {
    expect(() => chargeCentsFor(MAX_DISPLAY_DATES + 1, DEFAULT_PRICE_LIST)).toThrow(
      new AppError('Max number for any event or special is 21 days'),
    )
  })

  test.each([-1, 1.5, Number.NaN])('%s is not a number of days', (days) => {
    expect(() => chargeCentsFor(days, DEFAULT_PRICE_LIST)).toThrow(AppError)
  })
})

describe('parseDollarsToCents', () => {
  test.each([
    ['29', 2900],
    ['29.00', 2900],
    ['29.5', 2950],
    ['0', 0],
    [' 7.05 ', 705],
  ])('%s is %i cents', (text, cents) => expect(parseDollarsToCents(text)).toBe(cents))

  test.each(['-1', 'abc', '1e3', '29.999', '', '.5', '29.', '$29', '0x10', 'Infinity'])(
    '%s is refused',
    (text) => expect(parseDollarsToCents(text)).toBeNull(),
  )
})

const valid = {
  upToDays1: '7',
  price1: '29',
  upToDays2: '14',
  price2: '49.5',
  upToDays3: '21',
  price3: '69.00',
  sponsoredPerDay: '5',
  sponsoredSlots: '2',
}

describe('readPriceListForm', () => {
  test('reads the tiers, the surcharge and the slots in cents', () => {
    expect(readPriceListForm({ ...valid, note: ' summer ' })).toEqual({
      problems: null,
      list: {
        tiers: [
          { upToDays: 7, cents: 2900 },
          { upToDays: 14, cents: 4950 },
          { upToDays: 21, cents: 6900 },
        ],
        sponsoredCentsPerDay: 500,
        sponsoredSlots: 2,
        freeListings: [],
        categoryTiers: {},
        note: 'summer',
      },
    })
  })

  test('a price may be lower for more days, and an empty row in between is skipped', () => {
    const read = readPriceListForm({ ...valid, upToDays2: '', price2: '', price3: '10' })
    expect(read.list?.tiers).toEqual([
      { upToDays: 7, cents: 2900 },
      { upToDays: 21, cents: 1000 },
    ])
  })

  test.each([
    [{ price1: '-1' }, 'price1', DOLLARS_MESSAGE],
    [{ price1: 'abc' }, 'price1', DOLLARS_MESSAGE],
    [{ price1: '1e3' }, 'price1', DOLLARS_MESSAGE],
    [{ price1: '29.999' }, 'price1', DOLLARS_MESSAGE],
    [{ price1: '10000.01' }, 'price1', tierPriceTooHigh],
    [{ upToDays2: '7' }, 'upToDays2', DAYS_NOT_INCREASING],
    [{ upToDays2: '6' }, 'upToDays2', DAYS_NOT_INCREASING],
    [{ upToDays2: '2.5' }, 'upToDays2', DAYS_MESSAGE],
    [{ upToDays1: '0' }, 'upToDays1', DAYS_MESSAGE],
    [{ upToDays3: '22' }, 'upToDays3', DAYS_MESSAGE],
    [{ upToDays3: '', price3: '' }, 'upToDays2', LAST_TIER_MESSAGE],
    [{ sponsoredPerDay: '1000.01' }, 'sponsoredPerDay', SPONSORED_TOO_HIGH],
    [{ sponsoredPerDay: '-5' }, 'sponsoredPerDay', DOLLARS_MESSAGE],
    [{ sponsoredSlots: '11' }, 'sponsoredSlots', SLOTS_MESSAGE],
    [{ sponsoredSlots: '1.5' }, 'sponsoredSlots', SLOTS_MESSAGE],
    [{ price2: 'x'.repeat(1_000_000) }, 'price2', TOO_LONG_MESSAGE],
  ])('%o is refused at %s', (change, field, message) => {
    const read = readPriceListForm({ ...valid, ...change })
    expect(read.list).toBeNull()
    expect(read.problems?.[field]).toBe(message)
  })

  test('a gap: tiers ending at 14 leave 15–21 days without a price', () => {
    const read = readPriceListForm({
      upToDays1: '7',
      price1: '29',
      upToDays2: '14',
      price2: '49',
      sponsoredPerDay: '5',
      sponsoredSlots: '2',
    })
    expect(read.problems).toEqual({ upToDays2: LAST_TIER_MESSAGE })
  })

  test('no tier, or more than ten, is refused as the form’s own problem', () => {
    expect(readPriceListForm({ sponsoredPerDay: '5', sponsoredSlots: '2' }).problems).toEqual({
      '': NO_TIERS_MESSAGE,
    })
    const eleven: Record<string, string> = { sponsoredPerDay: '5', sponsoredSlots: '2' }
    for (let n = 1; n <= 11; n++) {
      eleven[`upToDays${n}`] = String(n + 10)
      eleven[`price${n}`] = '1'
    }
    expect(readPriceListForm(eleven).problems?.['']).toBe(TOO_MANY_TIERS_MESSAGE)
  })

  test('a missing half of a row is named at its field', () => {
    const read = readPriceListForm({ ...valid, price2: '' })
    expect(read.problems).toEqual({ price2: 'Enter the price of this tier' })
  })
})

test('the form values and the price table of a list', () => {
  expect(readPriceListForm(priceListFormValues(DEFAULT_PRICE_LIST)).list).toEqual({
    ...DEFAULT_PRICE_LIST,
    note: '',
  })
  expect(
    priceTableRows({
      tiers: [
        { upToDays: 1, cents: 100 },
        { upToDays: 21, cents: 200 },
      ],
    }),
  ).toEqual([
    { label: '1 day', cents: 100 },
    { label: '2–21 days', cents: 200 },
  ])
})

test('what changed between two lists, old → new', () => {
  const after = { ...DEFAULT_PRICE_LIST, tiers: [{ upToDays: 21, cents: 3500 }], sponsoredSlots: 3 }
  expect(priceListChanges(DEFAULT_PRICE_LIST, after)).toEqual([
    'Prices: 1–7 days: $29.00, 8–14 days: $49.00, 15–21 days: $69.00 → 1–21 days: $35.00',
    'Sponsored slots: 2 → 3',
  ])
  expect(priceListChanges(DEFAULT_PRICE_LIST, DEFAULT_PRICE_LIST)).toEqual([])
})

test('money helpers', () => {
  expect(centsToDollars(4900)).toBe(49)
  expect(formatDollars(0)).toBe('0.00')
  expect(formatDollars(6900)).toBe('69.00')
  expect(totalChangedMessage(3500)).toMatch(/total does not match.*now \$35\.00/)
})
