/**
 * The price list's rules, for the server and the administrators' form alike: what an ad costs by its number of
 * display days and its categories (a category may have its own tiers; an ad in several pays the highest of their
 * prices), and what a list must be to be saved. Money in whole cents.
 */
import { MAX_DISPLAY_DATES } from '#app/constants.ts'
import { AppError } from '#app/utils/app-error.ts'
import { freeListingChanges, readFreeListingsForm, type FreeListing } from './free-listing.ts'

export interface PriceTier {
  /** The highest number of display days this price covers. */
  upToDays: number
  cents: number
}

export interface PriceList {
  tiers: PriceTier[]
  sponsoredCentsPerDay: number
  sponsoredSlots: number
  /** The categories listed free (free-listing.ts). */
  freeListings: FreeListing[]
  /** The categories priced apart, by category id (`String(categoryID)`): their own tiers; any other has `tiers`. */
  categoryTiers: Record<string, PriceTier[]>
}

/** The tiers of the categories priced apart, by category name; any other category is priced by the default tiers. */
export type TiersByName = Readonly<Record<string, readonly PriceTier[]>>

export const MAX_PRICE_TIERS = 10
export const MAX_TIER_CENTS = 1_000_000
export const MAX_SPONSORED_CENTS_PER_DAY = 100_000
export const MAX_SPONSORED_SLOTS = 10

/** The prices the code had before they could be set: the first version of the list (migration 0026). */
export const DEFAULT_PRICE_LIST: PriceList = {
  tiers: [
    { upToDays: 7, cents: 2900 },
    { upToDays: 14, cents: 4900 },
    { upToDays: MAX_DISPLAY_DATES, cents: 6900 },
  ],
  sponsoredCentsPerDay: 500,
  sponsoredSlots: 2,
  freeListings: [],
  categoryTiers: {},
}

export const DAYS_NOT_WHOLE_MESSAGE = 'Number of days must be a whole number of 0 or more'
export const TOO_MANY_DAYS_MESSAGE = `Max number for any event or special is ${MAX_DISPLAY_DATES} days`
export const NO_PRICE_MESSAGE = 'No price for that number of days'

/** The charge in cents for an ad shown on `days` dates under `list`; a count that has no price is refused. */
export function chargeCentsFor(days: number, list: { tiers: readonly PriceTier[] }): number {
  if (!Number.isInteger(days) || days < 0) throw new AppError(DAYS_NOT_WHOLE_MESSAGE, 'invalid')
  if (days > MAX_DISPLAY_DATES) throw new AppError(TOO_MANY_DAYS_MESSAGE, 'invalid')
  if (days === 0) return 0
  const tier = list.tiers.find((t) => days <= t.upToDays)
  if (!tier) throw new AppError(NO_PRICE_MESSAGE, 'invalid')
  return tier.cents
}

/** The tiers each of `categories` is priced by: its own (`tiersByName`), or else the default ones; none: the default. */
function tiersOfCategories(
  categories: readonly string[],
  list: Pick<PriceList, 'tiers'>,
  tiersByName: TiersByName,
): Array<readonly PriceTier[]> {
  if (categories.length === 0) return [list.tiers]
  return [...new Set(categories)].map((name) =>
    Object.hasOwn(tiersByName, name) ? tiersByName[name]! : list.tiers,
  )
}

/**
 * The rule of the categories: an ad pays, for its `days`, the highest of the prices of its `categories` (each by its
 * own tiers, or else the default ones); an ad without a category, the default price. In cents; a count that has
 * no price is refused as by `chargeCentsFor`.
 */
export function adChargeCentsFor(
  days: number,
  categories: readonly string[],
  list: Pick<PriceList, 'tiers'>,
  tiersByName: TiersByName,
): number {
  return Math.max(
    ...tiersOfCategories(categories, list, tiersByName).map((tiers) => chargeCentsFor(days, { tiers })),
  )
}

/** Whether `categories` are priced by different tables, so the highest of their prices applies (the forms say so). */
export function categoriesPricedApart(
  categories: readonly string[],
  list: Pick<PriceList, 'tiers'>,
  tiersByName: TiersByName,
): boolean {
  const tables = tiersOfCategories(categories, list, tiersByName).map((tiers) =>
    tiers.map((t) => `${t.upToDays}:${t.cents}`).join(','),
  )
  return new Set(tables).size > 1
}

export const HIGHEST_PRICE_NOTE = 'An ad in several categories pays the highest of their prices.'

/** The sponsored surcharge in cents for `days` display days under `list`: the price per day times the days. */
export function sponsoredSurchargeCentsFor(days: number, list: Pick<PriceList, 'sponsoredCentsPerDay'>) {
  return Math.max(0, days) * list.sponsoredCentsPerDay
}

/** The table the event form shows: "1–7 days" and its price in dollars. */
export function priceTableRows(list: { tiers: readonly PriceTier[] }) {
  let from = 1
  return list.tiers.map((tier) => {
    const label =
      from === tier.upToDays ? `${from} day${from === 1 ? '' : 's'}` : `${from}–${tier.upToDays} days`
    from = tier.upToDays + 1
    return { label, cents: tier.cents }
  })
}

/* The administrators' form ------------------------------------------------------------------------------------ */

/** A dollar amount as typed: digits, and at most two after a point ("29", "29.00", "29.5"). */
const DOLLARS = /^\d{1,9}(\.\d{1,2})?$/
const WHOLE = /^\d{1,3}$/

export const DOLLARS_MESSAGE = 'Enter an amount in dollars, such as 29 or 29.50'
export const tierPriceTooHigh = `A price can be at most $${MAX_TIER_CENTS / 100}`
export const SPONSORED_TOO_HIGH = `The sponsored surcharge can be at most $${MAX_SPONSORED_CENTS_PER_DAY / 100} a day`
export const SLOTS_MESSAGE = `Enter a whole number of slots from 0 to ${MAX_SPONSORED_SLOTS}`
export const DAYS_MESSAGE = `Enter a whole number of days from 1 to ${MAX_DISPLAY_DATES}`
export const DAYS_NOT_INCREASING = 'Each tier must cover more days than the one before'
export const PRICE_REQUIRED = 'Enter the price of this tier'
export const DAYS_REQUIRED = 'Enter the highest number of days this tier covers'
export const NO_TIERS_MESSAGE = 'Enter at least one price tier'
export const TOO_MANY_TIERS_MESSAGE = `A price list has at most ${MAX_PRICE_TIERS} tiers`
export const LAST_TIER_MESSAGE = `The last tier must go up to ${MAX_DISPLAY_DATES} days, so every number of days has a price`
export const TOO_LONG_MESSAGE = 'This value is too long'
export const NOTE_MAX = 500
export const NOTE_TOO_LONG = `A note can be at most ${NOTE_MAX} characters`

/** A dollar amount typed in the form, in cents; null when it is not one ("-1", "abc", "1e3", "29.999"). */
export function parseDollarsToCents(value: string): number | null {
  const text = value.trim()
  if (!DOLLARS.test(text)) return null
  const [whole, fraction = ''] = text.split('.')
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'))
}

/** The form's field names: tier `n` (1-based) is `upToDays{n}` and `price{n}`. */
export const tierDaysField = (n: number) => `upToDays${n}`
export const tierPriceField = (n: number) => `price${n}`
export const SPONSORED_FIELD = 'sponsoredPerDay'
export const SLOTS_FIELD = 'sponsoredSlots'
export const NOTE_FIELD = 'note'
/** Category `id` priced apart: its box ("on"), and its tier `n` as `cat{id}UpToDays{n}` and `cat{id}Price{n}`. */
export const ownPricesField = (id: number) => `ownPrices${id}`
export const categoryDaysField = (id: number, n: number) => `cat${id}UpToDays${n}`
export const categoryPriceField = (id: number, n: number) => `cat${id}Price${n}`

const TIER_FIELD = /^(upToDays|price)(\d+)$/
const CATEGORY_FIELD = /^(?:ownPrices(\d{1,9})|cat(\d{1,9})(?:UpToDays|Price)(\d+))$/
/** Longer than any acceptable value of a number field: refused before it is read. */
const NUMBER_FIELD_MAX = 20
const TICKED = 'on'

export const OWN_PRICES_TICK_MESSAGE = 'A box is ticked ("on") or not sent'
export const CATEGORY_NO_TIERS_MESSAGE =
  'Enter at least one price tier for this category, or untick it to use the default prices'
export const PRICED_CATEGORY_MESSAGE = 'That category does not exist or is hidden'

export type PriceListForm = Record<string, string | undefined>
export type PriceListProblems = Record<string, string>

/**
 * One table of tiers read from the form: the rows (`rowOf` a field's name, null for another table's field) with a
 * value in either field, in order, an empty row between two skipped; each problem at its field, the table's own at
 * `tableField`.
 */
function readTiers(
  form: PriceListForm,
  problems: PriceListProblems,
  table: {
    rowOf: (name: string) => number | null
    days: (n: number) => string
    price: (n: number) => string
    tableField: string
    noTiersMessage: string
  },
): PriceTier[] {
  const rows = new Set<number>()
  for (const [name, value] of Object.entries(form)) {
    const n = table.rowOf(name)
    if (n === null || value === undefined || value.trim() === '') continue
    if (n < 1 || n > MAX_PRICE_TIERS) problems[table.tableField] = TOO_MANY_TIERS_MESSAGE
    else rows.add(n)
  }
  const tiers: PriceTier[] = []
  let previous = 0
  for (const n of [...rows].sort((a, b) => a - b)) {
    const daysName = table.days(n)
    const priceName = table.price(n)
    const daysText = form[daysName]?.trim() ?? ''
    const priceText = form[priceName]?.trim() ?? ''
    let days: number | null = null
    if (problems[daysName]) days = null
    else if (daysText === '') problems[daysName] = DAYS_REQUIRED
    else if (!WHOLE.test(daysText) || Number(daysText) < 1 || Number(daysText) > MAX_DISPLAY_DATES)
      problems[daysName] = DAYS_MESSAGE
    else if (Number(daysText) <= previous) problems[daysName] = DAYS_NOT_INCREASING
    else days = Number(daysText)
    if (days !== null) previous = days

    let cents: number | null = null
    if (problems[priceName]) cents = null
    else if (priceText === '') problems[priceName] = PRICE_REQUIRED
    else if ((cents = parseDollarsToCents(priceText)) === null) problems[priceName] = DOLLARS_MESSAGE
    else if (cents > MAX_TIER_CENTS) {
      problems[priceName] = tierPriceTooHigh
      cents = null
    }
    if (days !== null && cents !== null) tiers.push({ upToDays: days, cents })
  }
  const last = Math.max(0, ...rows)
  if (rows.size === 0) problems[table.tableField] ??= table.noTiersMessage
  else if (!problems[table.days(last)] && Number(form[table.days(last)]?.trim()) !== MAX_DISPLAY_DATES)
    problems[table.days(last)] = LAST_TIER_MESSAGE
  return tiers
}

/** The category ids the form's "priced apart" fields name, in order. */
export function pricedCategoryIDs(form: Readonly<PriceListForm>): number[] {
  const ids = new Set<number>()
  for (const name of Object.keys(form)) {
    const match = CATEGORY_FIELD.exec(name)
    if (match) ids.add(Number(match[1] ?? match[2]))
  }
  return [...ids].sort((a, b) => a - b)
}

/** The categories priced apart, read from the form: a category's tiers count only when its box is ticked. */
function readCategoryTiers(form: PriceListForm, problems: PriceListProblems): Record<string, PriceTier[]> {
  const categoryTiers: Record<string, PriceTier[]> = {}
  for (const id of pricedCategoryIDs(form)) {
    const tick = ownPricesField(id)
    if (form[tick] !== undefined && form[tick] !== TICKED) problems[tick] = OWN_PRICES_TICK_MESSAGE
    if (id < 1) problems[tick] = PRICED_CATEGORY_MESSAGE
    if (form[tick] !== TICKED) continue
    categoryTiers[String(id)] = readTiers(form, problems, {
      rowOf: (name) => {
        const match = CATEGORY_FIELD.exec(name)
        return match?.[2] !== undefined && Number(match[2]) === id ? Number(match[3]) : null
      },
      days: (n) => categoryDaysField(id, n),
      price: (n) => categoryPriceField(id, n),
      tableField: tick,
      noTiersMessage: CATEGORY_NO_TIERS_MESSAGE,
    })
  }
  return categoryTiers
}

/**
 * The administrators' form read into a price list, or the problems by field ('' = the form's own). The tiers are
 * the rows with a value in either field, in order; an empty row between two is skipped. A category ticked to be
 * priced apart has its own tiers, read by the same rules.
 */
export function readPriceListForm(
  form: PriceListForm,
): { list: PriceList & { note: string }; problems: null } | { list: null; problems: PriceListProblems } {
  const problems: PriceListProblems = {}
  for (const [name, value] of Object.entries(form)) {
    if (name !== NOTE_FIELD && value !== undefined && value.length > NUMBER_FIELD_MAX)
      problems[name] = TOO_LONG_MESSAGE
  }
  const tiers = readTiers(form, problems, {
    rowOf: (name) => {
      const match = TIER_FIELD.exec(name)
      return match ? Number(match[2]) : null
    },
    days: tierDaysField,
    price: tierPriceField,
    tableField: '',
    noTiersMessage: NO_TIERS_MESSAGE,
  })
  const categoryTiers = readCategoryTiers(form, problems)

  const sponsoredText = form[SPONSORED_FIELD]?.trim() ?? ''
  let sponsoredCentsPerDay = 0
  if (problems[SPONSORED_FIELD]) sponsoredCentsPerDay = 0
  else if (sponsoredText === '') problems[SPONSORED_FIELD] = DOLLARS_MESSAGE
  else {
    const cents = parseDollarsToCents(sponsoredText)
    if (cents === null) problems[SPONSORED_FIELD] = DOLLARS_MESSAGE
    else if (cents > MAX_SPONSORED_CENTS_PER_DAY) problems[SPONSORED_FIELD] = SPONSORED_TOO_HIGH
    else sponsoredCentsPerDay = cents
  }

  const slotsText = form[SLOTS_FIELD]?.trim() ?? ''
  if (!problems[SLOTS_FIELD] && (!WHOLE.test(slotsText) || Number(slotsText) > MAX_SPONSORED_SLOTS))
    problems[SLOTS_FIELD] = SLOTS_MESSAGE

  const note = form[NOTE_FIELD]?.trim() ?? ''
  if (note.length > NOTE_MAX) problems[NOTE_FIELD] = NOTE_TOO_LONG

  const free = readFreeListingsForm(form)
  for (const [name, message] of Object.entries(free.problems)) problems[name] ??= message

  if (Object.keys(problems).length > 0) return { list: null, problems }
  return {
    list: {
      tiers,
      sponsoredCentsPerDay,
      sponsoredSlots: Number(slotsText),
      freeListings: free.freeListings,
      categoryTiers,
      note,
    },
    problems: null,
  }
}

/** A list's values as the form shows them: `MAX_PRICE_TIERS` rows, the unused ones empty. */
export function priceListFormValues(list: PriceList): Record<string, string> {
  const values: Record<string, string> = {
    [SPONSORED_FIELD]: centsAsDollars(list.sponsoredCentsPerDay),
    [SLOTS_FIELD]: String(list.sponsoredSlots),
  }
  list.tiers.forEach((tier, i) => {
    values[tierDaysField(i + 1)] = String(tier.upToDays)
    values[tierPriceField(i + 1)] = centsAsDollars(tier.cents)
  })
  return values
}

/**
 * The form's values of the "priced apart" rows of `categoryIDs`: a category priced apart ticked with its tiers, any
 * other with the default tiers to start from.
 */
export function categoryTiersFormValues(
  list: Pick<PriceList, 'tiers' | 'categoryTiers'>,
  categoryIDs: readonly number[],
): Record<string, string> {
  const values: Record<string, string> = {}
  for (const id of categoryIDs) {
    const own = Object.hasOwn(list.categoryTiers, String(id)) ? list.categoryTiers[String(id)] : undefined
    if (own) values[ownPricesField(id)] = TICKED
    ;(own ?? list.tiers).forEach((tier, i) => {
      values[categoryDaysField(id, i + 1)] = String(tier.upToDays)
      values[categoryPriceField(id, i + 1)] = centsAsDollars(tier.cents)
    })
  }
  return values
}

/** A table of tiers in words ("1–7 days: $29.00, 8–21 days: $49.00"), for the pages and the history. */
export function describeTiers(tiers: readonly PriceTier[]) {
  return priceTableRows({ tiers })
    .map((row) => `${row.label}: $${centsAsDollars(row.cents)}`)
    .join(', ')
}

/** What changed in the categories priced apart, in words, with each category's name (`nameOf`), for the history. */
function categoryTierChanges(
  before: Readonly<Record<string, PriceTier[]>>,
  after: Readonly<Record<string, PriceTier[]>>,
  nameOf: (categoryID: number) => string,
): string[] {
  const own = (table: Readonly<Record<string, PriceTier[]>>, id: string) =>
    Object.hasOwn(table, id) ? describeTiers(table[id]!) : null
  const ids = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort(
    (a, b) => Number(a) - Number(b),
  )
  const changes: string[] = []
  for (const id of ids) {
    const was = own(before, id)
    const now = own(after, id)
    if (was === now) continue
    changes.push(
      `Prices in ${nameOf(Number(id))}: ${was ?? 'the default prices'} → ${now ?? 'the default prices'}`,
    )
  }
  return changes
}

export function centsAsDollars(cents: number) {
  return (cents / 100).toFixed(2)
}

/** What changed from one list to the next, in words ("1–7 days: $29.00 → $35.00"), for the history. */
export function priceListChanges(
  before: PriceList | null,
  after: PriceList,
  categoryName: (categoryID: number) => string = (id) => `category ${id}`,
): string[] {
  const rows = (list: PriceList) =>
    priceTableRows(list).map((row) => `${row.label}: $${centsAsDollars(row.cents)}`)
  if (!before)
    return [
      ...rows(after),
      ...categoryTierChanges({}, after.categoryTiers, categoryName),
      ...freeListingChanges([], after.freeListings, categoryName),
    ]
  const changes: string[] = []
  const oldTable = rows(before).join(', ')
  const newTable = rows(after).join(', ')
  if (oldTable !== newTable) changes.push(`Prices: ${oldTable} → ${newTable}`)
  if (before.sponsoredCentsPerDay !== after.sponsoredCentsPerDay) {
    changes.push(
      `Sponsored surcharge per day: $${centsAsDollars(before.sponsoredCentsPerDay)} → $${centsAsDollars(after.sponsoredCentsPerDay)}`,
    )
  }
  if (before.sponsoredSlots !== after.sponsoredSlots)
    changes.push(`Sponsored slots: ${before.sponsoredSlots} → ${after.sponsoredSlots}`)
  changes.push(...categoryTierChanges(before.categoryTiers, after.categoryTiers, categoryName))
  changes.push(...freeListingChanges(before.freeListings, after.freeListings, categoryName))
  return changes
}
