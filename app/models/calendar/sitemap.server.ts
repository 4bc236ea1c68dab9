import { and, asc, sql } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { events } from '#db/schema.ts'
import { liveEventConditions } from '#app/models/calendar/calendar-filter-sql.server.ts'

/**
 * Id, title (its address) and last change of every live event, for the sitemap: when what visitors see of it last
 * changed, or for an ad not written since that is kept (it is null then), its review or status change, whichever is
 * later; failing both, the day it was approved.
 */
export async function listLiveEventIds({ today, limit }: { today: string; limit: number }) {
  return db
    .select({
      eventID: events.eventID,
      eventTitle: events.eventTitle,
      approvedDateByAdmin: events.approvedDateByAdmin,
      changedAt:
        sql<Date | null>`coalesce(${events.visibleChangedAt}, greatest(${events.reviewedAt}, ${events.scheduleChangedAt}))`.mapWith(
          (value: Date | string | null) => (value === null ? null : new Date(value)),
        ),
    })
    .from(events)
    .where(and(...liveEventConditions(today)))
    .orderBy(asc(events.eventID))
    .limit(limit)
}
