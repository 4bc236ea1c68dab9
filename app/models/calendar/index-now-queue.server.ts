/**
 * The live ads IndexNow is to be told of (`index_now_queue`): the database queues an ad with every change visitors see
 * of it while it is (or was) live (db/migrations/0031_visible_changes.sql); the ads that ended by their last date are
 * queued once a day here. A row leaves only once a ping that named it was accepted, and a change meanwhile moves its
 * time on, so it stays for the next ping.
 */
import { and, asc, eq, lt, sql } from 'drizzle-orm'
import { db, rowsOf } from '#db/client.server.ts'
import { events, indexNowQueue } from '#db/schema.ts'
import { isApprovedAndPaid } from '#app/models/calendar/calendar-filter-sql.server.ts'

export interface QueuedListing {
  eventID: number
  eventTitle: string
  /** Its title when it was queued (its address then), if it has changed since. */
  previousTitle: string | null
  /** As the database has it (to the microsecond), for taking off exactly this row. */
  queuedAt: string
}

/** Queues the live ads whose last date was `day` (they left the public pages when it ended). */
export async function queueEndedListings(day: string) {
  const rows = await db
    .insert(indexNowQueue)
    .select(
      db
        .select({
          eventID: events.eventID,
          queuedAt: sql`now()`.as('queued_at'),
          previousTitle: sql`null`.as('previous_title'),
        })
        .from(events)
        .where(and(isApprovedAndPaid, eq(events.lastShowDate, day))),
    )
    .onConflictDoUpdate({ target: indexNowQueue.eventID, set: { queuedAt: sql`excluded.queued_at` } })
    .returning({ eventID: indexNowQueue.eventID })
  return rows.length
}

/** Takes off the rows queued before `before` without a ping: news that old is the sitemap's to tell. */
export async function dropQueuedBefore(before: Date) {
  const rows = await db
    .delete(indexNowQueue)
    .where(lt(indexNowQueue.queuedAt, before))
    .returning({ eventID: indexNowQueue.eventID })
  return rows.length
}

/** The oldest `limit` queued ads, with their title now. */
export async function queuedListings(limit: number): Promise<QueuedListing[]> {
  const rows = await db
    .select({
      eventID: indexNowQueue.eventID,
      eventTitle: events.eventTitle,
      previousTitle: indexNowQueue.previousTitle,
      queuedAt: sql<string>`${indexNowQueue.queuedAt}::text`,
    })
    .from(indexNowQueue)
    .innerJoin(events, eq(events.eventID, indexNowQueue.eventID))
    .orderBy(asc(indexNowQueue.queuedAt), asc(indexNowQueue.eventID))
    .limit(limit)
  return rows.map((row) => ({
    ...row,
    previousTitle: row.previousTitle !== row.eventTitle ? row.previousTitle : null,
  }))
}

/** Takes these rows off the queue, unless queued again since they were read. */
export async function removeQueued(rows: ReadonlyArray<Pick<QueuedListing, 'eventID' | 'queuedAt'>>) {
  if (rows.length === 0) return 0
  const done = sql.join(
    rows.map((row) => sql`(${row.eventID}::integer, ${row.queuedAt}::timestamptz)`),
    sql`, `,
  )
  const removed = await db.execute(
    sql`DELETE FROM ${indexNowQueue} AS q USING (VALUES ${done}) AS done(event_id, queued_at)
      WHERE q.event_id = done.event_id AND q.queued_at = done.queued_at RETURNING q.event_id`,
  )
  return rowsOf(removed).length
}

/** How many ads wait for a ping. */
export async function queuedCount() {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(indexNowQueue)
  return row?.n ?? 0
}
