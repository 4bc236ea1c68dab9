import {
  adsWithOpenReports,
  dismissReports,
  fileReport,
  openReportsOf,
  takeDownAd,
} from '#app/models/moderation/ad-report.server.ts'
import { hashVisitorIp, isBotVisitor } from '#app/models/analytics/click.server.ts'
import { getEventView } from '#app/models/ads/event.server.ts'
import { isLive } from '#app/models/ads/event-status.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import { REPORT_REASON_LABELS, type ReportReason } from '#app/models/moderation/report-rules.ts'
import { AppError } from '#app/utils/app-error.ts'
import { linkOrigin } from '../http/site-url.server.ts'
import { getEnv } from '../platform/env.server.ts'
import { adReportsFiled } from '../platform/metrics.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import { checkLimit, clientIp, recordFailure } from '../platform/rate-limit.server.ts'
import { adHiddenMail, adRestoredMail, adTakenDownMail } from './moderation-mail.server.ts'
import { NEUTRAL_REFUSAL } from './robot-guard.server.ts'

/** Reports one address may file in a quarter of an hour. */
export const REPORTS_PER_ADDRESS = 10
const REPORT_WINDOW_MS = 15 * 60 * 1000
export const REPORT_THANKS = 'Thank you. An administrator will look at your report.'
export const REPORT_REPEAT = 'You have already reported this ad; an administrator will look at it.'
export const AD_NOT_REPORTABLE = 'This ad is not shown on the site, so it cannot be reported.'

/** The live ad a visitor may report (404 for anything not shown to the public). */
export async function reportableAd(idParam: string | undefined) {
  const eventID = parseId(idParam ?? '')
  const event = eventID === null ? null : await getEventView(eventID)
  if (!event || !isLive(event, platformToday())) throw new AppError(AD_NOT_REPORTABLE, 'not_found')
  return { eventID: event.eventID, eventTitle: event.eventTitle }
}

/**
 * Files a visitor's report: robots (by User-Agent, or by the form's honeypot and fill time, checked by the caller)
 * are refused without a reason, an address past REPORTS_PER_ADDRESS in 15 minutes gets 429, and one visitor counts
 * once per ad. Returns what the visitor is told.
 */
export async function reportAd(
  request: Request,
  eventID: number,
  report: { reason: ReportReason; details?: string },
): Promise<{ message: string; hidden: boolean }> {
  if (isBotVisitor(request.headers.get('User-Agent'))) throw new AppError(NEUTRAL_REFUSAL, 'invalid')
  const { sessionSecrets, REPORTS_TO_HIDE } = getEnv()
  const visitor = hashVisitorIp(clientIp(request), sessionSecrets[0]!)
  const limitKey = `report:${visitor}`
  const limit = await checkLimit(limitKey, { max: REPORTS_PER_ADDRESS, windowMs: REPORT_WINDOW_MS })
  if (limit.limited) {
    throw new AppError('Too many reports from your address. Please try again later.', 'too_many_requests', {
      retryAfterSeconds: limit.retryAfterSeconds,
    })
  }
  await recordFailure(limitKey, { windowMs: REPORT_WINDOW_MS })
  const origin = linkOrigin(request)
  const filed = await fileReport(
    { eventID, reporterKey: visitor, reason: report.reason, details: report.details ?? '' },
    { hideAt: REPORTS_TO_HIDE, today: platformToday(), hiddenMail: (ad) => adHiddenMail({ ...ad, origin }) },
  )
  if (filed === 'not_live') throw new AppError(AD_NOT_REPORTABLE, 'not_found')
  adReportsFiled.inc({ outcome: filed })
  return { message: filed === 'repeat' ? REPORT_REPEAT : REPORT_THANKS, hidden: filed === 'hidden' }
}

/** /admin/reports: the ads with open reports, most reported first, each with its reports. */
export async function reportsPage() {
  const { ads, total } = await adsWithOpenReports(200)
  const withReports = await Promise.all(
    ads.map(async (ad) => ({
      ...ad,
      firstReportedAt: ad.firstReportedAt.toISOString(),
      reports: (await openReportsOf(ad.eventID)).map((r) => ({
        id: r.id,
        createdAt: r.createdAt.toISOString(),
        reason: REPORT_REASON_LABELS[r.reason as ReportReason] ?? r.reason,
        details: r.details,
      })),
    })),
  )
  return { ads: withReports, total }
}

const NO_OPEN_REPORTS = 'This ad has no open reports (someone may have decided already).'

/** Dismisses an ad's reports (a hidden ad returns): the toast to show. 409 without open reports. */
export async function dismissAdReports(eventID: number, adminId: string, origin: string) {
  const done = await dismissReports(eventID, {
    adminId,
    restoredMail: (ad) => adRestoredMail({ ...ad, origin }),
  })
  if (!done) throw new AppError(NO_OPEN_REPORTS, 'conflict')
  return {
    title: 'Reports dismissed',
    description: `"${done.eventTitle}": ${done.dismissed} report${done.dismissed === 1 ? '' : 's'} dismissed${done.restored ? '; the ad is shown again' : ''}.`,
  }
}

/** Takes an ad down with a reason: the toast to show. 409 when the ad is not shown or hidden. */
export async function takeDown(eventID: number, adminId: string, reason: string, origin: string) {
  const done = await takeDownAd(eventID, {
    adminId,
    reason,
    takenDownMail: (ad) => adTakenDownMail({ ...ad, reason, origin }),
  })
  if (!done)
    throw new AppError('Only an ad that is shown, or hidden by reports, can be taken down.', 'conflict')
  return {
    title: 'Ad taken down',
    description: `"${done.eventTitle}" left the public pages; its advertiser is told.`,
  }
}
