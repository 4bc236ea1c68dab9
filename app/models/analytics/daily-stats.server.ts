import { and, asc, eq, gt, gte, lte, or, sql, type AnyColumn, type SQL } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { eventDailyStats, events } from '#db/schema.ts'

/** One ad's figures on one day. */
export interface DailyStats {
  eventID: number
  date: string
  views: number
  clicks: number
  bounces: number
}

/** The sum of a count over the rows (0 for none). */
export function sumOf(column: AnyColumn) {
  return sql<number>`coalesce(sum(${column}), 0)`.mapWith(Number)
}

/** Views counted by one server since its last batch: per ad and day. */
export interface ViewIncrement {
  eventID: number
  day: string
  views: number
}

/**
 * Adds views to each ad's day in one statement, so servers counting at the same time add to the same rows without
 * losing each other's counts. Views of an ad deleted meanwhile are dropped.
 */
export async function addDailyViews(increments: readonly ViewIncrement[]): Promise<void> {
  if (increments.length === 0) return
  const values = sql.join(
    increments.map((i) => sql`(${i.eventID}::integer, ${i.day}::date, ${i.views}::integer)`),
    sql`, `,
  )
  await db.execute(sql`
    INSERT INTO ${eventDailyStats} ("eventID", "businessID", "day", "views")
    SELECT e."eventID", e."businessID", v.day, v.views
    FROM (VALUES ${values}) AS v(event_id, day, views)
    JOIN ${events} e ON e."eventID" = v.event_id
    ORDER BY e."eventID", v.day
    ON CONFLICT ("eventID", "day") DO UPDATE SET "views" = ${eventDailyStats}."views" + EXCLUDED."views"`)
}

/** Adds appearances in a Sponsored slot (`views` of each increment) to each ad's day, like `addDailyViews`. */
export async function addDailySlotViews(increments: readonly ViewIncrement[]): Promise<void> {
  if (increments.length === 0) return
  const values = sql.join(
    increments.map((i) => sql`(${i.eventID}::integer, ${i.day}::date, ${i.views}::integer)`),
    sql`, `,
  )
  await db.execute(sql`
    INSERT INTO ${eventDailyStats} ("eventID", "businessID", "day", "slotViews")
    SELECT e."eventID", e."businessID", v.day, v.views
    FROM (VALUES ${values}) AS v(event_id, day, views)
    JOIN ${events} e ON e."eventID" = v.event_id
    ORDER BY e."eventID", v.day
    ON CONFLICT ("eventID", "day") DO UPDATE SET "slotViews" = ${eventDailyStats}."slotViews" + EXCLUDED."slotViews"`)
}

const hasActivity = or(
  gt(eventDailyStats.views, 0),
  gt(eventDailyStats.clicks, 0),
  gt(eventDailyStats.bounces, 0),
)

const dailyColumns = {
  eventID: eventDailyStats.eventID,
  date: eventDailyStats.day,
  views: eventDailyStats.views,
  clicks: eventDailyStats.clicks,
  bounces: eventDailyStats.bounces,
}

function dailyStatsWhere(scope: SQL | undefined, { from, to }: { from: string; to: string }) {
  return db
    .select(dailyColumns)
    .from(eventDailyStats)
    .where(and(scope, gte(eventDailyStats.day, from), lte(eventDailyStats.day, to), hasActivity))
}

/** Every ad of the business, one row per ad and day with any activity in [from, to], by date then ad. */
export function dailyStatsForBusiness(
  businessID: number,
  range: { from: string; to: string },
): Promise<DailyStats[]> {
  return dailyStatsWhere(eq(eventDailyStats.businessID, businessID), range).orderBy(
    asc(eventDailyStats.day),
    asc(eventDailyStats.eventID),
  )
}

/** One ad's figures on one day, with those of its Sponsored slots apart and the scans of its QR code. */
export interface AdDailyStats extends DailyStats {
  /** Of the views, appearances in a Sponsored slot; of the clicks, those from one. */
  slotViews: number
  slotClicks: number
  /** Visits through its QR code (not among the clicks). */
  scans: number
}

/** One ad's days with any activity in [from, to], oldest first. */
export function dailyStatsForEvent(
  eventID: number,
  { from, to }: { from: string; to: string },
): Promise<AdDailyStats[]> {
  return db
    .select({
      ...dailyColumns,
      slotViews: eventDailyStats.slotViews,
      slotClicks: eventDailyStats.slotClicks,
      scans: eventDailyStats.scans,
    })
    .from(eventDailyStats)
    .where(
      and(
        eq(eventDailyStats.eventID, eventID),
        gte(eventDailyStats.day, from),
        lte(eventDailyStats.day, to),
        or(hasActivity, gt(eventDailyStats.slotViews, 0), gt(eventDailyStats.scans, 0)),
      ),
    )
    .orderBy(asc(eventDailyStats.day))
}
