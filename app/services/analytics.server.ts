import {
  analyticsRangeOrThisMonth,
  daysOf,
  parseAnalyticsRange,
  type DateRange,
} from '#app/models/analytics-range.ts'
import { dailyStatsForBusiness, dailyStatsForEvent, type DailyStats } from '#app/models/analytics.server.ts'
import { getEventForOwnerPage } from '#app/models/event.server.ts'
import { parseIdParam } from '#app/models/format.ts'
import { AppError } from '#app/utils/app-error.ts'
import type { BusinessSessionCopy } from './auth.server.ts'
import { platformToday } from './platform-today.server.ts'

export const AD_NOT_FOUND_MESSAGE = 'No ad with this id'
export const AD_NOT_YOURS_MESSAGE = 'That ad belongs to another business.'

/** GET /api/business/{id}/analytics: one row per ad and day with any activity in the range. */
export function businessAnalytics(
  business: BusinessSessionCopy,
  query: URLSearchParams,
): Promise<DailyStats[]> {
  return dailyStatsForBusiness(business.businessID, parseAnalyticsRange(query))
}

/** The signed-in business's ad with this id: 404 when there is none, 403 when it is another business's. */
export async function requireOwnAd(business: BusinessSessionCopy, id: string | undefined) {
  const eventID = parseIdParam(id)
  const ad = eventID ? await getEventForOwnerPage(eventID) : null
  if (!ad) throw new AppError(AD_NOT_FOUND_MESSAGE, 404)
  if (ad.event.businessID !== business.businessID) throw new AppError(AD_NOT_YOURS_MESSAGE, 403)
  return ad
}

/** Every day of the range with the ad's figures (zeros on days without activity). */
export async function adDailyFigures(eventID: number, range: DateRange): Promise<DailyStats[]> {
  const byDay = new Map((await dailyStatsForEvent(eventID, range)).map((row) => [row.date, row]))
  return daysOf(range).map((date) => byDay.get(date) ?? { eventID, date, views: 0, clicks: 0, bounces: 0 })
}

/** The range asked for on the ad's page (this month by default), or the 400 saying what is wrong with it. */
export function adPageRange(query: URLSearchParams): DateRange {
  return analyticsRangeOrThisMonth(query, platformToday())
}

/** Clicks per view, as a percentage with one decimal ("—" without views). */
export function clickThroughRate({ views, clicks }: { views: number; clicks: number }): string {
  return views > 0 ? `${((clicks / views) * 100).toFixed(1)}%` : '—'
}

function csvField(value: string | number) {
  const text = String(value)
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** The ad's figures as CSV: a header, then one line per day of the range. */
export function analyticsCsv(rows: readonly DailyStats[]): string {
  const lines = [['date', 'views', 'clicks', 'bounces', 'click_through_rate']]
  for (const row of rows)
    lines.push([row.date, String(row.views), String(row.clicks), String(row.bounces), clickThroughRate(row)])
  return `${lines.map((line) => line.map(csvField).join(',')).join('\r\n')}\r\n`
}
