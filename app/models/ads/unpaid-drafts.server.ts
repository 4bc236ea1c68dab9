/** Ads saved but never paid for, which the hourly cleanup removes with their media. */
import { and, eq, inArray, lt } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { eventMedia, events } from '#db/schema.ts'

const UNPAID = ['pending', 'failed']

export async function listUnpaidEventsCreatedBefore(cutoff: Date) {
  return db
    .select({
      eventID: events.eventID,
      stillPhotoURL: events.stillPhotoURL,
      videoURL: events.videoURL,
    })
    .from(events)
    .where(and(inArray(events.paymentStatus, UNPAID), lt(events.createdDate, cutoff)))
    .orderBy(events.eventID)
}

export async function listEventMediaUrls(eventID: number) {
  const rows = await db
    .select({ url: eventMedia.mediaUrl })
    .from(eventMedia)
    .where(eq(eventMedia.eventID, eventID))
  return rows.map((r) => r.url)
}

/** Deletes an unpaid draft (its media rows and payment attempts go with it); false if it got paid meanwhile. */
export async function deleteUnpaidEvent(eventID: number, cutoff: Date) {
  const rows = await db
    .delete(events)
    .where(
      and(eq(events.eventID, eventID), inArray(events.paymentStatus, UNPAID), lt(events.createdDate, cutoff)),
    )
    .returning({ eventID: events.eventID })
  return rows.length > 0
}
