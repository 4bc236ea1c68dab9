/**
 * Making a live ad sponsored after it was paid: the surcharge for the display days it has left (today included), paid
 * as a payment of its own (`purpose: 'sponsorship'` in the payment's metadata) that, once paid, makes the ad sponsored.
 */
import { isOff } from '#app/models/ads/schedule-status.ts'
import { isLive, type EventStatusFields } from '#app/models/ads/event-status.ts'

/** The payment metadata's `purpose` of a sponsorship bought for a live ad. */
export const SPONSORSHIP_PURPOSE = 'sponsorship'

/** Whether a payment (by its metadata) paid for a live ad's sponsorship rather than for the ad. */
export function isSponsorshipPayment(metadata: unknown): boolean {
  return (metadata as { purpose?: unknown } | null)?.purpose === SPONSORSHIP_PURPOSE
}

export const SPONSOR_LIVE_TEXT = {
  alreadySponsored: 'This ad is already sponsored.',
  notLive: 'Only a live ad can be made sponsored.',
  off: 'A cancelled or postponed ad cannot be made sponsored.',
  noDaysLeft: 'This ad has no display days left to sponsor.',
  done: { title: 'Your ad is sponsored', description: 'It takes turns in the Sponsored slots from now on.' },
} as const

/** The display days a live ad has left from `today` (today included): what a sponsorship bought now covers. */
export function sponsorDaysLeft(showAdOnDates: readonly string[], today: string): string[] {
  return showAdOnDates.filter((date) => date >= today).sort()
}

/**
 * Why this ad cannot be made sponsored now (one of SPONSOR_LIVE_TEXT's messages), or null when it can: it must be live,
 * on (not cancelled or postponed), not sponsored yet, and shown on a day from today.
 */
export function sponsorLiveProblem(
  event: EventStatusFields & { sponsored: boolean; scheduleStatus: string | null; showAdOnDates: string[] },
  today: string,
): string | null {
  if (event.sponsored) return SPONSOR_LIVE_TEXT.alreadySponsored
  if (!isLive(event, today)) return SPONSOR_LIVE_TEXT.notLive
  if (isOff(event.scheduleStatus)) return SPONSOR_LIVE_TEXT.off
  if (sponsorDaysLeft(event.showAdOnDates, today).length === 0) return SPONSOR_LIVE_TEXT.noDaysLeft
  return null
}

/** The display days a sponsorship payment covers (from its metadata), or null for a payment of the ad itself. */
export function sponsoredDatesOf(metadata: unknown): string[] | null {
  if (!isSponsorshipPayment(metadata)) return null
  const dates = (metadata as { sponsoredDates?: unknown }).sponsoredDates
  return Array.isArray(dates) ? dates.filter((date): date is string => typeof date === 'string') : []
}
