/** What an event's share images are drawn from, and whether it may have them (live), read by the event's id. */
import { and, eq, inArray } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { events } from '#db/schema.ts'
import { isLive } from '#app/models/ads/event-status.ts'
import type { ShareImageSource } from '#app/models/ads/share-images.ts'
import { liveEventConditions } from '#app/models/calendar/calendar-filter-sql.server.ts'

/** The live event's title and photo, or null when there is no such event or it is not live. */
export async function getLiveShareImageSource(
  eventID: number,
  today: string,
): Promise<ShareImageSource | null> {
  const [row] = await db
    .select({
      eventID: events.eventID,
      eventTitle: events.eventTitle,
      stillPhotoPath: events.stillPhotoURL,
      eventStatus: events.eventStatus,
      paymentStatus: events.paymentStatus,
      lastShowDate: events.lastShowDate,
    })
    .from(events)
    .where(eq(events.eventID, eventID))
    .limit(1)
  if (!row || !isLive(row, today)) return null
  return { eventID: row.eventID, eventTitle: row.eventTitle, stillPhotoPath: row.stillPhotoPath }
}

/** Which of these events are live today. */
export async function liveEventIdsAmong(eventIDs: readonly number[], today: string): Promise<Set<number>> {
  if (eventIDs.length === 0) return new Set()
  const rows = await db
    .select({ eventID: events.eventID })
    .from(events)
    .where(and(inArray(events.eventID, [...eventIDs]), ...liveEventConditions(today)))
  return new Set(rows.map((row) => row.eventID))
}
