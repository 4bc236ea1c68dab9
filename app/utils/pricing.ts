/** Money as the screens and the browser's claims show it; the prices themselves are the price list's (models/payments). */

export const TOTAL_MISMATCH_MESSAGE =
  'The total does not match the price of the chosen dates. Please review your ad.'

/** The refusal of a payment claiming another total than the ad's price now (the prices changed since it was shown). */
export function totalChangedMessage(cents: number) {
  return `${TOTAL_MISMATCH_MESSAGE} The total is now $${formatDollars(cents)}.`
}

/** Whether a total the browser sent (in dollars) is the price in cents; no total sent claims nothing. */
export function claimedTotalMatches(claimedDollars: number | null | undefined, cents: number): boolean {
  if (claimedDollars === undefined || claimedDollars === null) return true
  return Number.isFinite(claimedDollars) && Math.round(claimedDollars * 100) === cents
}

/** Whether the total the payer was shown (dollars, as the page sent it) is the price in cents; none sent is not. */
export function shownTotalMatches(shownDollars: number | null | undefined, cents: number): boolean {
  return shownDollars !== undefined && shownDollars !== null && claimedTotalMatches(shownDollars, cents)
}

export function centsToDollars(cents: number): number {
  return Math.round(cents) / 100
}

export function formatDollars(cents: number): string {
  return centsToDollars(cents).toFixed(2)
}
