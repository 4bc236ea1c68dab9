import { MAX_DISPLAY_DATES } from '#app/constants.ts'
import { AppError } from './app-error.ts'

/** Price tiers in cents by the highest number of display days they cover. */
export const PRICE_TIERS: ReadonlyArray<{ upToDays: number; cents: number }> = [
  { upToDays: 7, cents: 2900 },
  { upToDays: 14, cents: 4900 },
  { upToDays: MAX_DISPLAY_DATES, cents: 6900 },
]

/** The charge in cents for an ad shown on `days` dates; a count that has no price is a 400. */
export function chargeCentsForDays(days: number): number {
  if (!Number.isInteger(days) || days < 0) {
    throw new AppError('Number of days must be a whole number of 0 or more', 'invalid')
  }
  if (days > MAX_DISPLAY_DATES) {
    throw new AppError(`Max number for any event or special is ${MAX_DISPLAY_DATES} days`, 'invalid')
  }
  if (days === 0) return 0
  const tier = PRICE_TIERS.find((t) => days <= t.upToDays)
  if (!tier) throw new AppError('No price for that number of days', 'invalid')
  return tier.cents
}

export const TOTAL_MISMATCH_MESSAGE =
  'The total does not match the price of the chosen dates. Please review your ad.'

/** Whether a total the browser sent (in dollars) is the price in cents; no total sent claims nothing. */
export function claimedTotalMatches(claimedDollars: number | null | undefined, cents: number): boolean {
  if (claimedDollars === undefined || claimedDollars === null) return true
  return Number.isFinite(claimedDollars) && Math.round(claimedDollars * 100) === cents
}

export function centsToDollars(cents: number): number {
  return Math.round(cents) / 100
}

export function formatDollars(cents: number): string {
  return centsToDollars(cents).toFixed(2)
}
