import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import { db, type Transaction } from '#db/client.server.ts'
import { adReports, business, events } from '#db/schema.ts'
import { isLive, LIVE_STATUSES, type EventStatusFields } from '#app/models/ads/event-status.ts'
import type { ComposedMail } from '#app/models/mail/mail-templates.ts'
import { recordModerationDecision } from '#app/models/moderation/moderation-audit.server.ts'
import { enqueueMessage } from '#app/models/mail/outbox.server.ts'
import { announcePublicPagesChanged } from '#app/models/calendar/public-pages-changes.server.ts'
import { HIDDEN_BY_REPORTS, TAKEN_DOWN } from '#app/models/moderation/report-rules.ts'

/**
 * An ad visitors may report: a live one, or one hidden by reports while an administrator decides (its reports still
 * count, and whoever reports it is told nothing of its being hidden).
 */
export function takesReports(event: EventStatusFields, today: string): boolean {
  const shownStatus = event.eventStatus === HIDDEN_BY_REPORTS ? LIVE_STATUSES.eventStatus : event.eventStatus
  return isLive({ ...event, eventStatus: shownStatus }, today)
}

/** The ads with open reports, most reported first (at most `limit`), and how many such ads there are in all. */
export async function adsWithOpenReports(limit: number) {
  const rows = await db
    .select({
      eventID: events.eventID,
      eventTitle: events.eventTitle,
      businessName: events.businessName,
      eventStatus: events.eventStatus,
      reports: sql<number>`count(*)`.mapWith(Number),
      firstReportedAt: sql<Date>`min(${adReports.createdAt})`.mapWith(adReports.createdAt),
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(adReports)
    .innerJoin(events, eq(events.eventID, adReports.eventID))
    .where(eq(adReports.status, 'open'))
    .groupBy(events.eventID)
    .orderBy(desc(sql`count(*)`), sql`min(${adReports.createdAt})`)
    .limit(limit)
  return {
    ads: rows.map(({ total: _total, ...ad }) => ({ ...ad, hidden: ad.eventStatus === HIDDEN_BY_REPORTS })),
    total: rows[0]?.total ?? 0,
  }
}

/** The open reports of one ad, newest first. */
export function openReportsOf(eventID: number) {
  return db
    .select()
    .from(adReports)
    .where(and(eq(adReports.eventID, eventID), eq(adReports.status, 'open')))
    .orderBy(desc(adReports.createdAt), desc(adReports.id))
}

interface ReportedAd {
  eventID: number
  eventTitle: string
  businessID: number
  businessEmail: string
}

type MailFor = (ad: ReportedAd) => ComposedMail

async function lockAd(tx: Transaction, eventID: number, statuses: string[]) {
  const [ad] = await tx
    .select({
      eventID: events.eventID,
      eventTitle: events.eventTitle,
      businessID: events.businessID,
      businessEmail: business.businessEmail,
      eventStatus: events.eventStatus,
      paymentStatus: events.paymentStatus,
      lastShowDate: events.lastShowDate,
    })
    .from(events)
    .innerJoin(business, eq(business.businessID, events.businessID))
    .where(and(eq(events.eventID, eventID), inArray(events.eventStatus, statuses)))
    .limit(1)
    .for('update', { of: events })
  return ad ?? null
}

export type FiledReport = 'filed' | 'hidden' | 'repeat' | 'not_live'

/**
 * Files a visitor's report of a live ad, or of one already hidden by reports (counted, nothing else changes); a
 * visitor's second open report of the same ad is a 'repeat' and changes nothing. When `hideAt` distinct visitors
 * have open reports, the ad is hidden from the public pages at once (every server told, as an approval does) and its
 * advertiser is emailed.
 */
export async function fileReport(
  report: { eventID: number; reporterKey: string; reason: string; details: string },
  { hideAt, today, hiddenMail }: { hideAt: number; today: string; hiddenMail: MailFor },
): Promise<FiledReport> {
  return db.transaction(async (tx) => {
    const ad = await lockAd(tx, report.eventID, [LIVE_STATUSES.eventStatus, HIDDEN_BY_REPORTS])
    if (!ad || !takesReports(ad, today)) return 'not_live'
    const inserted = await tx
      .insert(adReports)
      .values(report)
      .onConflictDoNothing()
      .returning({ id: adReports.id })
    if (inserted.length === 0) return 'repeat'
    if (ad.eventStatus === HIDDEN_BY_REPORTS) return 'filed'
    const [counted] = await tx
      .select({ visitors: sql<number>`count(distinct ${adReports.reporterKey})`.mapWith(Number) })
      .from(adReports)
      .where(and(eq(adReports.eventID, report.eventID), eq(adReports.status, 'open')))
    if ((counted?.visitors ?? 0) < hideAt) return 'filed'
    await tx.update(events).set({ eventStatus: HIDDEN_BY_REPORTS }).where(eq(events.eventID, ad.eventID))
    await enqueueMessage(tx, { kind: 'ad-hidden', to: ad.businessEmail, ...hiddenMail(ad) })
    await announcePublicPagesChanged(tx)
    return 'hidden'
  })
}

async function resolveOpenReports(
  tx: Transaction,
  eventID: number,
  status: 'dismissed' | 'upheld',
  adminId: string,
) {
  const rows = await tx
    .update(adReports)
    .set({ status, resolvedAt: new Date(), resolvedByUserId: adminId })
    .where(and(eq(adReports.eventID, eventID), eq(adReports.status, 'open')))
    .returning({ id: adReports.id })
  return rows.length
}

/**
 * Dismisses an ad's open reports; a hidden ad returns to the public pages (every server told) and its advertiser is
 * emailed. Recorded in the audit trail. Null when the ad has no open reports.
 */
export async function dismissReports(
  eventID: number,
  { adminId, restoredMail }: { adminId: string; restoredMail: MailFor },
) {
  return db.transaction(async (tx) => {
    const ad = await lockAd(tx, eventID, [LIVE_STATUSES.eventStatus, HIDDEN_BY_REPORTS])
    const dismissed = ad ? await resolveOpenReports(tx, eventID, 'dismissed', adminId) : 0
    if (!ad || dismissed === 0) return null
    const restored = ad.eventStatus === HIDDEN_BY_REPORTS
    if (restored) {
      await tx
        .update(events)
        .set({ eventStatus: LIVE_STATUSES.eventStatus })
        .where(eq(events.eventID, eventID))
      await enqueueMessage(tx, { kind: 'ad-restored', to: ad.businessEmail, ...restoredMail(ad) })
      await announcePublicPagesChanged(tx)
    }
    await recordModerationDecision(tx, {
      action: 'reports_dismissed',
      actorUserId: adminId,
      eventID,
      businessID: ad.businessID,
      reason: `${dismissed} report${dismissed === 1 ? '' : 's'} dismissed`,
    })
    return { eventTitle: ad.eventTitle, businessID: ad.businessID, dismissed, restored }
  })
}

/**
 * Takes a shown (or hidden) paid ad down for good with the administrator's reason: off the public pages (every
 * server told), its open reports upheld, the advertiser emailed, the decision in the audit trail. Not refunded
 * (docs/decisions/027). Null when the ad is not one that is shown or hidden.
 */
export async function takeDownAd(
  eventID: number,
  { adminId, reason, takenDownMail }: { adminId: string; reason: string; takenDownMail: MailFor },
) {
  return db.transaction(async (tx) => {
    const ad = await lockAd(tx, eventID, [LIVE_STATUSES.eventStatus, HIDDEN_BY_REPORTS])
    if (!ad || ad.paymentStatus !== LIVE_STATUSES.paymentStatus) return null
    await tx
      .update(events)
      .set({
        eventStatus: TAKEN_DOWN,
        rejectionReason: reason,
        checkPendingSince: null,
        reviewedByUserId: adminId,
        reviewedAt: new Date(),
      })
      .where(eq(events.eventID, eventID))
    const upheld = await resolveOpenReports(tx, eventID, 'upheld', adminId)
    await recordModerationDecision(tx, {
      action: 'takedown',
      actorUserId: adminId,
      eventID,
      businessID: ad.businessID,
      reason,
    })
    await enqueueMessage(tx, { kind: 'ad-taken-down', to: ad.businessEmail, ...takenDownMail(ad) })
    await announcePublicPagesChanged(tx)
    return { eventTitle: ad.eventTitle, businessID: ad.businessID, upheld }
  })
}
