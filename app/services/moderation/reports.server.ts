import {
  adsWithOpenReports,
  dismissReports,
  fileReport,
  openReportsOf,
  takeDownAd,
  takesReports,
} from '#app/models/moderation/ad-report.server.ts'
import { hashVisitorIp, isBotVisitor } from '#app/models/analytics/click.server.ts'
import { getEventView } from '#app/models/ads/event.server.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import { REPORT_REASON_LABELS, type ReportReason } from '#app/models/moderation/report-rules.ts'
import { AppError } from '#app/utils/app-error.ts'
import { getEnv } from '../platform/env.server.ts'
import { adReportsFiled } from '../platform/metrics.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import { giveBackSlot, takeSlot } from '../platform/rate-limit.server.ts'
import { adHiddenMail, adRestoredMail, adTakenDownMail } from './moderation-mail.server.ts'
import { claimFormStamp, NEUTRAL_REFUSAL } from './robot-guard.server.ts'

/** Reports one address may file in a quarter of an hour. */
export const REPORTS_PER_ADDRESS = 10
const REPORT_WINDOW_MS = 15 * 60 * 1000
export const REPORT_THANKS = 'Thank you. An administrator will look at your report.'
export const REPORT_REPEAT = 'You have already reported this ad; an administrator will look at it.'
export const AD_NOT_REPORTABLE = 'This ad is not shown on the site, so it cannot be reported.'

/**
 * The ad a visitor may report: a live one, or one hidden by reports until an administrator decides (not_found for
 * anything else: never shown, taken down, unknown).
 */
export async function reportableAd(idParam: string | undefined) {
  const eventID = parseId(idParam ?? '')
  const event = eventID === null ? null : await getEventView(eventID)
  if (!event || !takesReports(event, platformToday())) throw new AppError(AD_NOT_REPORTABLE, 'not_found')
  return { eventID: event.eventID, eventTitle: event.eventTitle }
}

/** Who files a report: the browser's User-Agent, the client's address, and the origin of the mails' links. */
export interface Reporter {
  userAgent: string | null
  ip: string
  origin: string
  /** The form's stamp, already found genuine (`isHumanPost`): good for one report. */
  stamp: string
}

/**
 * What the visitor is told after a report: `thanks` (whether or not it hid the ad: nothing tells them), or `repeat`
 * for a visitor who had reported the ad already.
 */
export type ReportReceipt = 'thanks' | 'repeat'

/** The text of a receipt; null for anything else (no report was just sent). */
export function receiptMessage(receipt: string | null): string | null {
  return receipt === 'thanks' ? REPORT_THANKS : receipt === 'repeat' ? REPORT_REPEAT : null
}

/**
 * Files a visitor's report: robots (by User-Agent, or by the form's honeypot and fill time, checked by the caller,
 * or by a stamp already used) are refused without a reason, an address past REPORTS_PER_ADDRESS in 15 minutes is
 * refused as too many, and one visitor counts once per ad. Returns what the visitor is told.
 */
export async function reportAd(
  eventID: number,
  report: { reason: ReportReason; details?: string },
  { userAgent, ip, origin, stamp }: Reporter,
): Promise<ReportReceipt> {
  if (isBotVisitor(userAgent)) throw new AppError(NEUTRAL_REFUSAL, 'invalid')
  const { sessionSecrets, REPORTS_TO_HIDE } = getEnv()
  const visitor = hashVisitorIp(ip, sessionSecrets[0]!)
  const limitKey = `report:${visitor}`
  const taken = await takeSlot(limitKey, { max: REPORTS_PER_ADDRESS, windowMs: REPORT_WINDOW_MS })
  if (!taken.allowed) {
    throw new AppError('Too many reports from your address. Please try again later.', 'too_many_requests', {
      retryAfterSeconds: taken.retryAfterSeconds,
    })
  }
  // A used stamp is a robot's post, and it does not count against the address.
  if (!(await claimFormStamp(stamp, 'report'))) {
    await giveBackSlot(taken.slot)
    throw new AppError(NEUTRAL_REFUSAL, 'invalid')
  }
  const filed = await fileReport(
    { eventID, reporterKey: visitor, reason: report.reason, details: report.details ?? '' },
    { hideAt: REPORTS_TO_HIDE, today: platformToday(), hiddenMail: (ad) => adHiddenMail({ ...ad, origin }) },
  )
  if (filed === 'not_live') throw new AppError(AD_NOT_REPORTABLE, 'not_found')
  adReportsFiled.inc({ outcome: filed })
  return filed === 'repeat' ? 'repeat' : 'thanks'
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

/** Dismisses an ad's reports (a hidden ad returns): the toast to show. A conflict without open reports. */
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

/** Takes an ad down with a reason: the toast to show. A conflict when the ad is not shown or hidden. */
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
