import { and, asc } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { events } from '#db/schema.ts'
import { liveEventConditions } from '#app/models/calendar/calendar-filter-sql.server.ts'

/** Ids and last change of every live event, for the sitemap. */
export async function listLiveEventIds({ today, limit }: { today: string; limit: number }) {
  return db
    .select({ eventID: events.eventID, approvedDateByAdmin: events.approvedDateByAdmin })
    .from(events)
    .where(and(...liveEventConditions(today)))
    .orderBy(asc(events.eventID))
    .limit(limit)
}
