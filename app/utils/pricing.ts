import { MAX_DISPLAY_DATES } from '#app/constants.ts'

/** Price tiers in cents by the highest number of display days they cover. */
export const PRICE_TIERS: ReadonlyArray<{ upToDays: number; cents: number }> = [
  { upToDays: 7, cents: 2900 },
  { upToDays: 14, cents: 4900 },
  { upToDays: MAX_DISPLAY_DATES, cents: 6900 },
]

export class PricingError extends Error {}

/** The charge in cents for an ad shown on `days` dates. */
export function chargeCentsForDays(days: number): number {
  if (!Number.isInteger(days) || days < 0) {
    throw new PricingError('Number of days must be a whole number of 0 or more')
  }
  if (days > MAX_DISPLAY_DATES) {
    throw new PricingError(`Max number for any event or special is ${MAX_DISPLAY_DATES} days`)
  }
  if (days === 0) return 0
  const tier = PRICE_TIERS.find((t) => days <= t.upToDays)
  if (!tier) throw new PricingError('No price for that number of days')
  return tier.cents
}

export function centsToDollars(cents: number): number {
  return Math.round(cents) / 100
}

export function formatDollars(cents: number): string {
  return (cents / 100).toFixed(2)
}
