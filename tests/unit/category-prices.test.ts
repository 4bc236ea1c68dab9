import { describe, expect, test } from 'vitest'
import {
  adChargeCentsFor,
  CATEGORY_NO_TIERS_MESSAGE,
  categoriesPricedApart,
  categoryDaysField,
  categoryPriceField,
  categoryTiersFormValues,
  DAYS_NOT_INCREASING,
  DEFAULT_PRICE_LIST,
  DOLLARS_MESSAGE,
  LAST_TIER_MESSAGE,
  NO_PRICE_MESSAGE,
  OWN_PRICES_TICK_MESSAGE,
  ownPricesField,
  PRICED_CATEGORY_MESSAGE,
  priceListChanges,
  readPriceListForm,
  tierPriceTooHigh,
  TOO_MANY_TIERS_MESSAGE,
  type TiersByName,
} from '#app/models/payments/price-list.ts'
import { AppError } from '#app/utils/app-error.ts'

// Specials are cheaper for a short run and dearer for a long one than the default 29 / 49 / 69.
const special = [
  { upToDays: 7, cents: 1500 },
  { upToDays: 21, cents: 9900 },
]
const concert = [{ upToDays: 21, cents: 4000 }]
const byName: TiersByName = { Special: special, Concert: concert }

describe('adChargeCentsFor: an ad pays the highest of its categories’ prices for its days', () => {
  test.each([
    [3, [], 2900, 'no category: the default price'],
    [3, ['Fundraiser'], 2900, 'a category on the default prices'],
    [3, ['Special'], 1500, 'a category priced apart'],
    [3, ['Special', 'Fundraiser'], 2900, 'the default is the higher for a short run'],
    [10, ['Special', 'Fundraiser'], 9900, 'the special is the higher for a long run'],
    [3, ['Special', 'Concert'], 4000, 'two categories priced apart'],
    [15, ['Special', 'Concert', 'Fundraiser'], 9900, 'three categories'],
    [3, ['Special', 'Special'], 1500, 'a category named twice counts once'],
    [0, ['Special', 'Concert'], 0, 'no days'],
    [3, ['Gone'], 2900, 'a removed category: the default price'],
  ])('%i days in %o: %i cents (%s)', (days, categories, cents) => {
    expect(adChargeCentsFor(days, categories, DEFAULT_PRICE_LIST, byName)).toBe(cents)
  })

  test('a count without a price is refused, whichever category has none', () => {
    const short = { Special: [{ upToDays: 7, cents: 100 }] }
    expect(() => adChargeCentsFor(8, ['Special'], DEFAULT_PRICE_LIST, short)).toThrow(
      new AppError(NO_PRICE_MESSAGE, 'invalid'),
    )
    expect(() => adChargeCentsFor(2.5, ['Special'], DEFAULT_PRICE_LIST, byName)).toThrow(AppError)
  })

  test('a name such as "constructor" is not a table of its own', () => {
    expect(adChargeCentsFor(3, ['constructor', 'toString'], DEFAULT_PRICE_LIST, byName)).toBe(2900)
  })
})

test('categoriesPricedApart: only categories on different tables', () => {
  expect(categoriesPricedApart(['Special', 'Fundraiser'], DEFAULT_PRICE_LIST, byName)).toBe(true)
  expect(categoriesPricedApart(['Special', 'Concert'], DEFAULT_PRICE_LIST, byName)).toBe(true)
  expect(categoriesPricedApart(['Special'], DEFAULT_PRICE_LIST, byName)).toBe(false)
  expect(categoriesPricedApart(['Fundraiser', 'Family'], DEFAULT_PRICE_LIST, byName)).toBe(false)
  expect(categoriesPricedApart([], DEFAULT_PRICE_LIST, byName)).toBe(false)
  const same = { Special: DEFAULT_PRICE_LIST.tiers.map((t) => ({ cents: t.cents, upToDays: t.upToDays })) }
  expect(categoriesPricedApart(['Special', 'Fundraiser'], DEFAULT_PRICE_LIST, same)).toBe(false)
})

const valid = {
  upToDays1: '7',
  price1: '29',
  upToDays2: '14',
  price2: '49',
  upToDays3: '21',
  price3: '69',
  sponsoredPerDay: '5',
  sponsoredSlots: '2',
}

describe('readPriceListForm: a category’s own tiers', () => {
  test('a ticked category is read by the same rules; an unticked one keeps the default prices', () => {
    const read = readPriceListForm({
      ...valid,
      ownPrices4: 'on',
      cat4UpToDays1: '7',
      cat4Price1: '15',
      cat4UpToDays3: '21',
      cat4Price3: '99',
      // Not ticked: its rows are the form's starting values, not prices.
      cat5UpToDays1: '3',
      cat5Price1: 'abc',
    })
    expect(read.problems).toBeNull()
    expect(read.list?.categoryTiers).toEqual({ '4': special.map((t) => ({ ...t })) })
  })

  test.each([
    [{ cat4Price1: '-1' }, categoryPriceField(4, 1), DOLLARS_MESSAGE],
    [{ cat4Price1: '10000.01' }, categoryPriceField(4, 1), tierPriceTooHigh],
    [{ cat4UpToDays2: '7' }, categoryDaysField(4, 2), DAYS_NOT_INCREASING],
    [{ cat4UpToDays2: '14' }, categoryDaysField(4, 2), LAST_TIER_MESSAGE],
    [{ cat4UpToDays11: '21', cat4Price11: '1' }, ownPricesField(4), TOO_MANY_TIERS_MESSAGE],
    [
      { cat4UpToDays1: '', cat4Price1: '', cat4UpToDays2: '', cat4Price2: '' },
      ownPricesField(4),
      CATEGORY_NO_TIERS_MESSAGE,
    ],
    [{ ownPrices4: 'yes' }, ownPricesField(4), OWN_PRICES_TICK_MESSAGE],
    [{ ownPrices0: 'on', cat0UpToDays1: '21', cat0Price1: '1' }, ownPricesField(0), PRICED_CATEGORY_MESSAGE],
  ])('%o is refused at %s', (change, field, message) => {
    const read = readPriceListForm({
      ...valid,
      ownPrices4: 'on',
      cat4UpToDays1: '7',
      cat4Price1: '15',
      cat4UpToDays2: '21',
      cat4Price2: '99',
      ...change,
    })
    expect(read.list).toBeNull()
    expect(read.problems?.[field]).toBe(message)
  })

  test('the form values: a category priced apart ticked with its tiers, any other starting from the default', () => {
    const list = { ...DEFAULT_PRICE_LIST, categoryTiers: { '4': special } }
    const values = categoryTiersFormValues(list, [4, 5])
    expect(values).toMatchObject({
      ownPrices4: 'on',
      cat4UpToDays1: '7',
      cat4Price1: '15.00',
      cat4UpToDays2: '21',
      cat4Price2: '99.00',
      cat5UpToDays3: '21',
      cat5Price3: '69.00',
    })
    expect(values).not.toHaveProperty('ownPrices5')
    expect(readPriceListForm({ ...valid, ...values }).list?.categoryTiers).toEqual({ '4': special })
  })
})

test('the history names the category and its prices, old → new', () => {
  const name = (id: number) => (id === 4 ? 'Special' : `category ${id}`)
  const priced = { ...DEFAULT_PRICE_LIST, categoryTiers: { '4': special } }
  expect(priceListChanges(DEFAULT_PRICE_LIST, priced, name)).toEqual([
    'Prices in Special: the default prices → 1–7 days: $15.00, 8–21 days: $99.00',
  ])
  expect(priceListChanges(priced, { ...priced, categoryTiers: { '4': concert } }, name)).toEqual([
    'Prices in Special: 1–7 days: $15.00, 8–21 days: $99.00 → 1–21 days: $40.00',
  ])
  expect(priceListChanges(priced, DEFAULT_PRICE_LIST, name)).toEqual([
    'Prices in Special: 1–7 days: $15.00, 8–21 days: $99.00 → the default prices',
  ])
  expect(priceListChanges(priced, priced, name)).toEqual([])
})
