import {
  analyticsRangeOrThisMonth,
  clickThroughRate,
  daysOf,
  parseAnalyticsRange,
  type DateRange,
} from '#app/models/analytics/analytics-range.ts'
import {
  dailyStatsForBusiness,
  dailyStatsForEvent,
  type AdDailyStats,
  type DailyStats,
} from '#app/models/analytics/daily-stats.server.ts'
import { getEventForOwnerPage } from '#app/models/ads/event.server.ts'
import { eventStatusLabel, ownerEditKind } from '#app/models/ads/event-status.ts'
import { latestRevisions, ownerReviewNotice } from '#app/models/ads/event-revision.server.ts'
import { canRunAgain, runAgainPath } from '#app/models/ads/copied-ad.server.ts'
import { isLive } from '#app/models/ads/event-status.ts'
import { scheduleStatusOf } from '#app/models/ads/schedule-status.ts'
import { scheduleChangesOf } from '#app/models/moderation/moderation-audit.server.ts'
import { isoDateInZone } from '#app/utils/time.ts'
import { AppError } from '#app/utils/app-error.ts'
import { toCsv } from '#app/utils/csv.ts'
import type { BusinessSessionCopy } from '../http/auth.server.ts'
import { getEnv } from '../platform/env.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import { listPaidSponsorshipPayments } from '#app/models/payments/payment.server.ts'
import { formatDollars } from '#app/utils/pricing.ts'
import { sponsorOfferFor } from '../payments/sponsor-live.server.ts'

export const AD_NOT_FOUND_MESSAGE = 'No ad with this id'
export const AD_NOT_YOURS_MESSAGE = 'That ad belongs to another business.'

/** GET /api/business/{id}/analytics: one row per ad and day with any activity in the range. */
export function businessAnalytics(
  business: BusinessSessionCopy,
  query: URLSearchParams,
): Promise<DailyStats[]> {
  return dailyStatsForBusiness(business.businessID, parseAnalyticsRange(query))
}

/** The signed-in business's ad with this id: not found when there is none, forbidden when it is another business's. */
export async function requireOwnAd(business: BusinessSessionCopy, id: string | undefined) {
  const eventID = parseId(id)
  const ad = eventID ? await getEventForOwnerPage(eventID) : null
  if (!ad) throw new AppError(AD_NOT_FOUND_MESSAGE, 'not_found')
  if (ad.event.businessID !== business.businessID) throw new AppError(AD_NOT_YOURS_MESSAGE, 'forbidden')
  return ad
}

/** Every day of the range with the ad's figures (zeros on days without activity). */
export async function adDailyFigures(eventID: number, range: DateRange): Promise<AdDailyStats[]> {
  const byDay = new Map((await dailyStatsForEvent(eventID, range)).map((row) => [row.date, row]))
  return daysOf(range).map(
    (date) =>
      byDay.get(date) ?? {
        eventID,
        date,
        views: 0,
        clicks: 0,
        bounces: 0,
        slotViews: 0,
        slotClicks: 0,
        scans: 0,
      },
  )
}

/** The range asked for on the ad's page (this month by default), or the invalid AppError saying what is wrong with it. */
export function adPageRange(query: URLSearchParams): DateRange {
  return analyticsRangeOrThisMonth(query, platformToday())
}

/**
 * The ad's figures as CSV: a header, then one line per day of the range; for a sponsored ad, with its Sponsored
 * slots' views and clicks apart (`withSlots`); last, the scans of its QR code.
 */
export function analyticsCsv(rows: readonly AdDailyStats[], { withSlots = false } = {}): string {
  const slotHeaders = withSlots ? ['sponsored_slot_views', 'sponsored_slot_clicks'] : []
  const lines = [['date', 'views', 'clicks', 'bounces', 'click_through_rate', ...slotHeaders, 'qr_scans']]
  for (const row of rows) {
    const slots = withSlots ? [String(row.slotViews), String(row.slotClicks)] : []
    lines.push([
      row.date,
      String(row.views),
      String(row.clicks),
      String(row.bounces),
      clickThroughRate(row),
      ...slots,
      String(row.scans),
    ])
  }
  return toCsv(lines)
}

/** Whether the ad's figures show its Sponsored slots apart: it is or was sponsored. */
export const showsSlotFigures = (event: { sponsored: boolean }) => event.sponsored

export interface TimelineStep {
  label: string
  /** yyyy-mm-dd, or null for a step not reached. */
  date: string | null
}

const UNSET_DATE = '1989-01-01'

/** The ad's page for its owner: where it stands, why, its receipt, and its figures over the range asked for. */
export async function adPageData(
  business: BusinessSessionCopy,
  id: string | undefined,
  query: URLSearchParams,
) {
  const { event, payment } = await requireOwnAd(business, id)
  const today = platformToday()
  const range = adPageRange(query)
  const days = await adDailyFigures(event.eventID, range)
  const zone = getEnv().APP_TIME_ZONE
  const dayOf = (instant: Date | null) => (instant ? isoDateInZone(instant, zone) : null)
  const approved = event.eventStatus === 'approved'
  const rejected = event.eventStatus === 'rejected'
  const shownFrom = approved && event.paymentStatus !== 'pending' ? event.firstShowDate : null
  const timeline: TimelineStep[] = [
    { label: 'Created', date: dayOf(event.createdDate) },
    {
      label: 'Confirmed for payment',
      date: event.approvedDateByBusiness === UNSET_DATE ? null : event.approvedDateByBusiness,
    },
    { label: 'Paid', date: dayOf(payment?.paidAt ?? payment?.datePaid ?? null) },
    { label: rejected ? 'Rejected' : 'Reviewed', date: event.reviewedAt ? dayOf(event.reviewedAt) : null },
    { label: 'Live', date: shownFrom && shownFrom <= today ? shownFrom : null },
    {
      label: 'Ended',
      date: approved && event.lastShowDate && event.lastShowDate < today ? event.lastShowDate : null,
    },
  ]
  // Each change of the schedule status, oldest first, from the moderation audit.
  for (const change of await scheduleChangesOf(event.eventID))
    timeline.push({
      label: change.reason ? `${change.label} — ${change.reason}` : change.label,
      date: dayOf(change.occurredAt),
    })
  const notice = ownerReviewNotice(event, (await latestRevisions([event.eventID])).get(event.eventID), today)
  const sponsorOffer = await sponsorOfferFor(event, today)
  const totals = days.reduce(
    (sum, day) => ({
      views: sum.views + day.views,
      clicks: sum.clicks + day.clicks,
      bounces: sum.bounces + day.bounces,
      slotViews: sum.slotViews + day.slotViews,
      slotClicks: sum.slotClicks + day.slotClicks,
      scans: sum.scans + day.scans,
    }),
    { views: 0, clicks: 0, bounces: 0, slotViews: 0, slotClicks: 0, scans: 0 },
  )
  return {
    eventID: event.eventID,
    eventTitle: event.eventTitle,
    statusLabel: eventStatusLabel(event, today),
    timeline,
    reviewReason: notice.reviewReason,
    receiptHref: payment ? `/dashboard/receipts/${payment.paymentID}` : null,
    editHref: ownerEditKind(event, today) ? `/dashboard/events/${event.eventID}/edit` : null,
    runAgainHref: canRunAgain(event) ? runAgainPath(event.eventID) : null,
    schedule: {
      status: scheduleStatusOf(event.scheduleStatus),
      note: event.scheduleNote,
      /** The status form is shown while the ad is live (once cancelled, only the status and note). */
      live: isLive(event, today),
    },
    sponsored: showsSlotFigures(event),
    sponsorOffer: sponsorOffer
      ? {
          href: `/dashboard/events/${event.eventID}/sponsor`,
          days: sponsorOffer.days.length,
          total: formatDollars(sponsorOffer.cents),
        }
      : null,
    sponsorshipReceipts: (await listPaidSponsorshipPayments(event.eventID)).map((paid) => ({
      href: `/dashboard/receipts/${paid.paymentID}`,
      total: formatDollars(paid.amountPaidCents),
    })),
    range,
    days,
    totals: { ...totals, clickThroughRate: clickThroughRate(totals) },
  }
}
