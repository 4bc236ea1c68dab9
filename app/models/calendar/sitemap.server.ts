import { and, asc, gt, lte, sql } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { events } from '#db/schema.ts'
import { liveEventConditions } from '#app/models/calendar/calendar-filter-sql.server.ts'

/**
 * When what visitors see of an ad last changed, or for an ad not written since that is kept (it is null then), its
 * review or status change, whichever is later. Null when there is neither: the day it was approved stands in.
 */
const changedAt = sql`coalesce(${events.visibleChangedAt}, greatest(${events.reviewedAt}, ${events.scheduleChangedAt}))`

const toDate = (value: Date | string | null) => (value === null ? null : new Date(value))

/**
 * Id, title (its address) and last change of the live events with an id in (afterId, throughId], in id order: one
 * sitemap file's, read along the primary key so its cost is that of the range, whatever the number of events.
 */
export async function listLiveEventIds({
  today,
  afterId,
  throughId,
}: {
  today: string
  afterId: number
  throughId: number
}) {
  return db
    .select({
      eventID: events.eventID,
      eventTitle: events.eventTitle,
      approvedDateByAdmin: events.approvedDateByAdmin,
      changedAt: sql<Date | null>`${changedAt}`.mapWith(toDate),
    })
    .from(events)
    .where(and(...liveEventConditions(today), gt(events.eventID, afterId), lte(events.eventID, throughId)))
    .orderBy(asc(events.eventID))
    .limit(throughId - afterId)
}

/**
 * The sitemap files that hold a live event, file n holding ids ((n - 1) × idsPerFile, n × idsPerFile], with the
 * newest last change among them and the newest approval day among those without one. Reads the live events alone
 * (through a partial index of approved, paid ads by last date), never the ads that are over, unpaid or refused, so
 * its cost follows the number of live ads (measured by `npm run bench:sitemap`).
 */
export async function listLiveEventFiles({ today, idsPerFile }: { today: string; idsPerFile: number }) {
  if (!Number.isSafeInteger(idsPerFile) || idsPerFile < 1)
    throw new RangeError('idsPerFile: a positive integer')
  // A literal, so the grouping and the column are the same expression (two parameters would not be).
  const file = sql<number>`((${events.eventID} - 1) / ${sql.raw(String(idsPerFile))} + 1)`
  return db
    .select({
      file: file.mapWith(Number),
      changedAt: sql<Date | null>`max(${changedAt})`.mapWith(toDate),
      approvedDateByAdmin: sql<
        string | null
      >`(max(${events.approvedDateByAdmin}) filter (where ${changedAt} is null))::text`,
    })
    .from(events)
    .where(and(...liveEventConditions(today)))
    .groupBy(file)
    .orderBy(file)
}
