/**
 * The advertiser, ad and tracking rows the end-to-end server is started with for the ad page's journey
 * (seeded by tests/e2e/seed-ad-analytics.ts), all relative to today in the platform time zone.
 */
import { addDaysIso, todayInZone } from '#app/utils/time.ts'

export const E2E_TIME_ZONE = 'America/New_York'
const today = todayInZone(E2E_TIME_ZONE)
export const day = (offset: number) => addDaysIso(today, offset)

export const analyticsOwner = {
  businessName: 'Figures Bakery',
  businessEmail: 'figures-bakery@example.com',
  password: 'figures-secret-1',
}

export const analyticsAd = {
  title: 'Figures Bakery Bread Week',
  createdOn: day(-10),
  paidOn: day(-10),
  reviewedOn: day(-9),
  showAdOnDates: Array.from({ length: 11 }, (_, i) => day(i - 7)),
}

/** Views are counted per day in event_daily_stats; each click and each bounce is a clickCount row. */
export const trackedDays = [
  { date: day(-6), views: 12, clicks: 5, bounces: 1 },
  { date: day(-5), views: 8, clicks: 2, bounces: 0 },
  { date: day(-2), views: 20, clicks: 5, bounces: 3 },
]
