/**
 * The listings for print and newsletters in SQL: the grid days of the live ads matching the calendar's filters in a
 * range, one row per ad and day, in date, then time order (all day first), read along the show-date rows' grid index.
 */
import { and, between, eq, gte, sql } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { business, eventShowDates, events } from '#db/schema.ts'
import type { DateRange } from '#app/models/analytics/analytics-range.ts'
import type { CalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import type { ListingEntry } from '#app/models/calendar/listings.ts'
import {
  eventFilterConditions,
  joinBusiness,
  rowCountInText,
  showDateKeys,
} from '#app/models/calendar/calendar-filter-sql.server.ts'

/**
 * The first `limit` entries of the range: each grid day (the ad's own date, or each display date of an ad without
 * one) of an ad still live on `today` (the show-date rows hold approved, paid ads only, so a last date from today on
 * is "live"), filtered as the calendar filters (the category, keyword and "hide cancelled" on the rows themselves).
 */
export async function listingEntries(
  range: DateRange,
  filters: CalendarFilters,
  { today, limit }: { today: string; limit: number },
): Promise<ListingEntry[]> {
  const query = db
    .select({
      date: eventShowDates.showDate,
      eventID: events.eventID,
      eventTitle: events.eventTitle,
      businessName: events.businessName,
      city: sql<string>`coalesce(nullif(${events.venueCity}, ''), ${business.businessCity})`,
      startTime: events.startTime,
      endTime: events.endTime,
      category: events.category,
      scheduleStatus: events.scheduleStatus,
    })
    .from(eventShowDates)
    .innerJoin(events, eq(events.eventID, eventShowDates.eventID))
    .innerJoin(business, eq(business.businessID, events.businessID))
    .$dynamic()
  // The business is joined above for its city; only the distance filter's origin may still be needed.
  joinBusiness(query, { ...filters, zip: '' })
  return query
    .where(
      and(
        sql`${eventShowDates.gridDay}`,
        between(eventShowDates.showDate, range.from, range.to),
        gte(eventShowDates.lastDate, today),
        ...eventFilterConditions(filters, showDateKeys, today),
      ),
    )
    .orderBy(
      eventShowDates.showDate,
      sql`${eventShowDates.startTime} ASC NULLS FIRST`,
      eventShowDates.eventID,
    )
    .limit(rowCountInText(limit))
}
