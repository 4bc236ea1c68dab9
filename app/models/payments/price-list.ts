/**
 * The price list's rules, for the server and the administrators' form alike: what an ad costs by its number of
 * display days, and what a list must be to be saved. Money in whole cents.
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
}

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
}

export const DAYS_NOT_WHOLE_MESSAGE = 'Number of days must be a whole number of 0 or more'
export const TOO_MANY_DAYS_MESSAGE = `Max number for any event or special is ${MAX_DISPLAY_DATES} days`
export const NO_PRICE_MESSAGE = 'No price for that number of days'

/** The charge in cents for an ad shown on `days` dates under `list`; a count that has no price is refused. */
export function chargeCentsFor(days: number, list: Pick<PriceList, 'tiers'>): number {
  if (!Number.isInteger(days) || days < 0) throw new AppError(DAYS_NOT_WHOLE_MESSAGE, 'invalid')
  if (days > MAX_DISPLAY_DATES) throw new AppError(TOO_MANY_DAYS_MESSAGE, 'invalid')
  if (days === 0) return 0
  const tier = list.tiers.find((t) => days <= t.upToDays)
  if (!tier) throw new AppError(NO_PRICE_MESSAGE, 'invalid')
  return tier.cents
}

/** The sponsored surcharge in cents for `days` display days under `list`: the price per day times the days. */
export function sponsoredSurchargeCentsFor(days: number, list: Pick<PriceList, 'sponsoredCentsPerDay'>) {
  return Math.max(0, days) * list.sponsoredCentsPerDay
}

/** The table the event form shows: "1–7 days" and its price in dollars. */
export function priceTableRows(list: Pick<PriceList, 'tiers'>) {
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

const TIER_FIELD = /^(upToDays|price)(\d+)$/
/** Longer than any acceptable value of a number field: refused before it is read. */
const NUMBER_FIELD_MAX = 20

export type PriceListForm = Record<string, string | undefined>
export type PriceListProblems = Record<string, string>

/**
 * The administrators' form read into a price list, or the problems by field ('' = the form's own). The tiers are
 * the rows with a value in either field, in order; an empty row between two is skipped.
 */
export function readPriceListForm(
  form: PriceListForm,
): { list: PriceList & { note: string }; problems: null } | { list: null; problems: PriceListProblems } {
  const problems: PriceListProblems = {}
  const rows = new Set<number>()
  for (const [name, value] of Object.entries(form)) {
    const match = TIER_FIELD.exec(name)
    if (!match || value === undefined || value.trim() === '') continue
    const n = Number(match[2])
    if (n < 1 || n > MAX_PRICE_TIERS) problems[''] = TOO_MANY_TIERS_MESSAGE
    else rows.add(n)
  }
  for (const [name, value] of Object.entries(form)) {
    if (name !== NOTE_FIELD && value !== undefined && value.length > NUMBER_FIELD_MAX)
      problems[name] = TOO_LONG_MESSAGE
  }

  const tiers: PriceTier[] = []
  let previous = 0
  for (const n of [...rows].sort((a, b) => a - b)) {
    const daysName = tierDaysField(n)
    const priceName = tierPriceField(n)
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
  if (rows.size === 0) problems[''] ??= NO_TIERS_MESSAGE
  else if (!problems[tierDaysField(last)] && Number(form[tierDaysField(last)]?.trim()) !== MAX_DISPLAY_DATES)
    problems[tierDaysField(last)] = LAST_TIER_MESSAGE

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
  if (!before) return [...rows(after), ...freeListingChanges([], after.freeListings, categoryName)]
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
  changes.push(...freeListingChanges(before.freeListings, after.freeListings, categoryName))
  return changes
}
