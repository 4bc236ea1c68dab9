/**
 * Ads that look like another: a title close to it (trigram similarity, pg_trgm) and a display date in common. The
 * advertiser is warned on the preview about their own unpaid, paid or live ad; the moderation queue marks an ad that
 * looks like another business's ad at the same ZIP.
 */
import { and, eq, inArray, ne, sql, type SQL } from 'drizzle-orm'
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core'
import { db } from '#db/client.server.ts'
import { business, events } from '#db/schema.ts'
import { CHANGES_REQUESTED } from '#app/models/ads/event-status.ts'

/**
 * How close two titles must be (pg_trgm's `similarity`, 0 to 1) to be taken for the same event. "Friday Jazz Night"
 * is close to "Friday Jazz Night!" (1), "friday jazz nite" (0.67) and "Jazz Night" (0.61); not to "Friday Night
 * Karaoke" (0.5) nor "Friday Jazz Brunch" (0.48), nor "Harvest Craft Fair" to "Harvest Food Fair" (0.57): at 0.5 the
 * warning would cry wolf over another event of the same place and night.
 */
export const SIMILAR_TITLE = 0.6

/**
 * Unpaid (saved, not yet paid), paid (awaiting review, or sent back for changes) or live: an ad that is or will be
 * shown. A rejected, refunded, hidden or taken-down ad is none of these; an ended one shares no date with a new one.
 */
function shownOrToBeShown(ad: { paymentStatus: AnyPgColumn; eventStatus: AnyPgColumn }): SQL {
  return and(
    inArray(ad.paymentStatus, ['pending', 'paid']),
    inArray(ad.eventStatus, ['pending', CHANGES_REQUESTED, 'approved']),
  )!
}

/** The first display date two ads share. */
const firstSharedDate = (dates: SQL, other: { showAdOnDates: AnyPgColumn }) =>
  sql<string>`(SELECT min(d) FROM unnest(${other.showAdOnDates}) AS d WHERE d = ANY(${dates}))::text`

export interface SimilarAd {
  eventID: number
  eventTitle: string
  /** The first display date the two ads share (yyyy-mm-dd). */
  date: string
}

/**
 * The business's own unpaid, paid or live ad most like an ad being saved (`title`, `dates`; `exceptEventID` is the
 * ad itself when it is an edit), or null. Read from the business's ads (`events_business_idx`).
 */
export async function ownSimilarAd({
  businessID,
  title,
  dates,
  exceptEventID,
}: {
  businessID: number
  title: string
  dates: readonly string[]
  exceptEventID?: number
}): Promise<SimilarAd | null> {
  if (dates.length === 0 || !title.trim()) return null
  const wanted = sql`${`{${dates.join(',')}}`}::date[]`
  const likeness = sql`similarity(${events.eventTitle}, ${title})`
  const [row] = await db
    .select({ eventID: events.eventID, eventTitle: events.eventTitle, date: firstSharedDate(wanted, events) })
    .from(events)
    .where(
      and(
        eq(events.businessID, businessID),
        exceptEventID === undefined ? undefined : ne(events.eventID, exceptEventID),
        shownOrToBeShown(events),
        sql`${events.showAdOnDates} && ${wanted}`,
        sql`${likeness} >= ${SIMILAR_TITLE}`,
      ),
    )
    .orderBy(sql`${likeness} DESC`, events.eventID)
    .limit(1)
  return row ?? null
}

/** Another business's ad an ad looks like. */
export interface PossibleDuplicate {
  eventID: number
  eventTitle: string
  businessName: string
}

const other = alias(events, 'other_ad')
const otherBusiness = alias(business, 'other_business')

/** Where an ad is, as a ZIP's 5 digits: its venue's when it has one, else its business's (decision 039). */
const placeZip = (ad: { venueZip: AnyPgColumn }, owner: { businessZip: AnyPgColumn }) =>
  sql`left(coalesce(nullif(${ad.venueZip}, ''), ${owner.businessZip}), 5)`

/**
 * For each of `eventIDs`, the unpaid, paid or live ad of another business that looks like it most: a display date in
 * common (the GIN index on the dates), the same ZIP, a similar title. One query for them all; the ads with none are
 * left out of the map.
 */
export async function possibleDuplicatesOf(
  eventIDs: readonly number[],
): Promise<Map<number, PossibleDuplicate>> {
  if (eventIDs.length === 0) return new Map()
  const likeness = sql`similarity(${other.eventTitle}, ${events.eventTitle})`
  const match = db
    .select({ eventID: other.eventID, eventTitle: other.eventTitle, businessName: other.businessName })
    .from(other)
    .innerJoin(otherBusiness, eq(otherBusiness.businessID, other.businessID))
    .where(
      and(
        sql`${other.showAdOnDates} && ${events.showAdOnDates}`,
        ne(other.businessID, events.businessID),
        shownOrToBeShown(other),
        sql`${placeZip(other, otherBusiness)} = ${placeZip(events, business)}`,
        sql`${likeness} >= ${SIMILAR_TITLE}`,
      ),
    )
    .orderBy(sql`${likeness} DESC`, other.eventID)
    .limit(1)
    .as('duplicate')
  const rows = await db
    .select({
      of: events.eventID,
      eventID: match.eventID,
      eventTitle: match.eventTitle,
      businessName: match.businessName,
    })
    .from(events)
    .innerJoin(business, eq(business.businessID, events.businessID))
    .innerJoinLateral(match, sql`true`)
    .where(inArray(events.eventID, [...eventIDs]))
  return new Map(rows.map(({ of, ...duplicate }) => [of, duplicate]))
}
