import { and, desc, eq, sql } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { adReports, events } from '#db/schema.ts'
import { HIDDEN_BY_REPORTS } from './report-rules.ts'

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
