/**
 * A business's public page: whether it has one (it shows its page and has a live ad), what the page shows (the
 * business, its upcoming live ads, how many of its events are past), and the pages the sitemap lists.
 */
import { and, asc, eq, gte, lt, sql, type SQL } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { business, events } from '#db/schema.ts'
import type { CardBusiness } from '#app/models/ads/card-business.ts'
import { businessPublicColumns } from '#app/models/ads/event.server.ts'
import { LIVE_STATUSES } from '#app/models/ads/event-status.ts'
import { isApprovedAndPaid } from '#app/models/calendar/calendar-filter-sql.server.ts'
import { liveEventColumns } from '#app/models/calendar/calendar-listing.server.ts'
import { parseId } from '#app/models/platform/input-rules.ts'

/** A page lists at most this many upcoming ads (a business has a handful at a time). */
export const BUSINESS_PAGE_EVENTS_LIMIT = 100

/** Whether the business (the `business` row of the query) has a live ad: a probe of its ads by business. */
function hasLiveAd(today: string) {
  return sql<boolean>`EXISTS (SELECT 1 FROM ${events} AS ${sql.identifier('page_event')}
    WHERE page_event."businessID" = ${business.businessID}
      AND page_event."eventStatus" = ${sql.raw(`'${LIVE_STATUSES.eventStatus}'`)}
      AND page_event."paymentStatus" = ${sql.raw(`'${LIVE_STATUSES.paymentStatus}'`)}
      AND page_event."lastShowDate" >= ${today}::date)`
}

/**
 * A business has a public page while its advertiser shows it ("Show my business page") and it has a live ad: an ad
 * taken down, refused or over is not live, so a business with none of those left has no page.
 */
export function hasBusinessPage(today: string): SQL[] {
  return [eq(business.showBusinessPage, true), hasLiveAd(today)]
}

/** The ad was live once and its last date is past: the page's "past events". */
function pastEventConditions(today: string): SQL[] {
  return [
    eq(events.eventStatus, LIVE_STATUSES.eventStatus),
    eq(events.paymentStatus, LIVE_STATUSES.paymentStatus),
    lt(events.lastShowDate, today),
  ]
}

export interface BusinessPageBusiness extends CardBusiness {
  businessID: number
  pastEvents: number
}

/** The business of a public page, with the number of its past events; null when it has no page today. */
export async function getPublishedBusiness(
  businessID: number,
  today: string,
): Promise<BusinessPageBusiness | null> {
  const pastEvents = db
    .select({ n: sql<number>`count(*)` })
    .from(events)
    .where(and(eq(events.businessID, business.businessID), ...pastEventConditions(today)))
  const [row] = await db
    .select({
      businessID: business.businessID,
      businessName: business.businessName,
      ...businessPublicColumns,
      pastEvents: sql<number>`(${pastEvents})`.mapWith(Number),
    })
    .from(business)
    .where(and(eq(business.businessID, businessID), ...hasBusinessPage(today)))
    .limit(1)
  return row ?? null
}

/**
 * The business's live ads, soonest first by their first date: at most BUSINESS_PAGE_EVENTS_LIMIT, with what cards,
 * feeds and structured data read.
 */
export async function listBusinessLiveAds(businessID: number, today: string) {
  const rows = await db
    .select(liveEventColumns)
    .from(events)
    .innerJoin(business, eq(business.businessID, events.businessID))
    .where(and(eq(events.businessID, businessID), isApprovedAndPaid, gte(events.lastShowDate, today)))
    .orderBy(asc(events.firstShowDate), asc(events.eventID))
    .limit(BUSINESS_PAGE_EVENTS_LIMIT)
  return rows.map((row) => ({ ...row, stillPhotoPath: row.stillPhotoURL, videoPath: row.videoURL }))
}

export type BusinessLiveAd = Awaited<ReturnType<typeof listBusinessLiveAds>>[number]

/** Whether the business shows its page (its ads being live is for the caller to know). */
export async function showsBusinessPage(businessID: number) {
  const [row] = await db
    .select({ show: business.showBusinessPage })
    .from(business)
    .where(eq(business.businessID, businessID))
    .limit(1)
  return row?.show ?? false
}

/** The businesses that turned their page off (few): a card links to its business's page unless it is one of them. */
export async function listBusinessIdsWithPageOff(): Promise<number[]> {
  const rows = await db
    .select({ id: business.businessID })
    .from(business)
    .where(eq(business.showBusinessPage, false))
  return rows.map((row) => row.id)
}

/** "Show my business page" on or off. */
export async function setShowBusinessPage(businessID: number, show: boolean) {
  await db.update(business).set({ showBusinessPage: show }).where(eq(business.businessID, businessID))
}

/** Every business page there is today, by id: for the sitemap. */
export async function listBusinessPages({ today, limit }: { today: string; limit: number }) {
  return db
    .select({ businessID: business.businessID, businessName: business.businessName })
    .from(business)
    .where(and(...hasBusinessPage(today)))
    .orderBy(asc(business.businessID))
    .limit(limit)
}

/**
 * The id and slug of a business page's path segment: `12-blue-door-cafe`, or `12` alone (slug null); null when the
 * segment does not start with an id.
 */
export function parseBusinessSegment(segment: string | undefined) {
  const match = /^(\d{1,10})(?:-(.*))?$/.exec(segment ?? '')
  const businessID = match ? parseId(match[1]) : null
  return businessID === null ? null : { businessID, slug: match?.[2] ?? null }
}
