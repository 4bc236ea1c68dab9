import { and, asc, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm'
import { db, preparedQuery, type Transaction } from '#db/client.server.ts'
import { business, eventDailyStats, eventMedia, events, payments, type Event } from '#db/schema.ts'
import type { MediaType } from '#app/constants.ts'
import { sumOf } from '#app/models/analytics/daily-stats.server.ts'
import { showDateBounds } from '#app/models/ads/event-dates.ts'
import { isLive } from '#app/models/ads/event-status.ts'
import type { EventInput } from '#app/models/ads/event-schema.ts'
import { practicalFactsOf } from '#app/models/ads/practical-facts.ts'
import { centsToDollars } from '#app/utils/pricing.ts'
import { forTheAd } from '#app/models/payments/payment.server.ts'
import { SETTLED } from '#app/models/payments/settled.ts'

/** A business's public details as the screens read them next to an event. */
export const businessPublicColumns = {
  businessAddress: business.businessAddress,
  businessCity: business.businessCity,
  businessState: business.businessState,
  businessZip: business.businessZip,
  businessPhone: business.businessPhone,
  businessEmail: business.businessEmail,
  businessContact: business.businessContact,
  businessWebsite: business.businessWebsite,
  facebookURL: business.facebookURL,
  instagramURL: business.instagramURL,
  linkedin: business.linkedin,
  youtubeURL: business.youtubeURL,
  xURL: business.xURL,
  tiktokURL: business.tiktokURL,
}

/**
 * What the screens read for an event: the event plus its business's public details, and whether the business shows
 * its page (the event page links to it), in the same statement.
 */
const eventWithBusinessColumns = {
  event: events,
  ...businessPublicColumns,
  businessPageOn: business.showBusinessPage,
}

type EventRow = { event: Event; businessPageOn: boolean } & {
  [K in keyof typeof businessPublicColumns]: string
}

export type EventView = Event & Omit<EventRow, 'event'> & { stillPhotoPath: string; videoPath: string }

function toView(row: EventRow): EventView {
  const { event, ...rest } = row
  return {
    ...event,
    ...rest,
    stillPhotoPath: event.stillPhotoURL,
    videoPath: event.videoURL,
  }
}

const eventWithBusinessByID = preparedQuery((database) =>
  database
    .select(eventWithBusinessColumns)
    .from(events)
    .innerJoin(business, eq(business.businessID, events.businessID))
    .where(eq(events.eventID, sql.placeholder('eventID')))
    .limit(1)
    .prepare('event_with_business_by_id'),
)

export async function getEventView(eventID: number): Promise<EventView | null> {
  const [row] = await eventWithBusinessByID({ eventID })
  return row ? toView(row) : null
}

export interface NewEventData extends EventInput {
  businessID: number
  businessName: string
  totalCents: number
  approvedDateByBusiness: string
}

/**
 * What an advertiser may still change once the ad is paid for: its text, contact, practical facts and times of day
 * (media apart).
 */
function adTextColumns(data: Omit<NewEventData, 'totalCents' | 'approvedDateByBusiness'>) {
  return {
    businessName: data.businessName,
    eventTitle: data.eventTitle,
    eventDescription: data.eventDescription,
    category: data.eventCategory,
    contactPerson: data.contactPerson,
    contactPhone: data.contactPhone,
    contactEmail: data.contactEmail,
    ...practicalFactsOf(data),
    startTime: data.startTime ?? null,
    endTime: data.endTime ?? null,
  }
}

/** The columns an advertiser's submission sets, on a new ad and on an edited one alike. */
function submittedColumns(data: NewEventData) {
  return {
    ...adTextColumns(data),
    showAdOnDates: data.showAdDates,
    eventDate: data.eventDate,
    ...showDateBounds(data.eventDate, data.showAdDates),
    daysOrdered: data.showAdDates.length,
    totalCost: centsToDollars(data.totalCents),
    approvedDateByBusiness: data.approvedDateByBusiness,
  }
}

/** Saves an advertiser's approved ad as pending/pending; returns its id. */
export async function insertEvent(tx: Transaction | typeof db, data: NewEventData) {
  const [row] = await tx
    .insert(events)
    .values({ businessID: data.businessID, ...submittedColumns(data) })
    .returning({ eventID: events.eventID, createdDate: events.createdDate })
  return row!
}

/**
 * The business's own event, locked until the transaction ends, so a payment or a second edit cannot change it
 * between the check and the update.
 */
export async function lockOwnedEvent(tx: Transaction, eventID: number, businessID: number) {
  const [row] = await tx
    .select()
    .from(events)
    .where(and(eq(events.eventID, eventID), eq(events.businessID, businessID)))
    .limit(1)
    .for('update')
  return row ?? null
}

/** Rewrites an ad's submitted fields in place (same id, same media unless replaced afterwards). */
export async function updateSubmittedEvent(tx: Transaction, eventID: number, data: NewEventData) {
  await tx
    .update(events)
    .set(submittedColumns(data))
    .where(and(eq(events.eventID, eventID), eq(events.businessID, data.businessID)))
}

/**
 * A paid ad's text rewritten by its owner and put back in the review queue (it was awaiting review, or sent back
 * with changes requested); its dates and cost stay as paid for.
 */
export async function resubmitPaidEvent(tx: Transaction, eventID: number, data: NewEventData) {
  await tx
    .update(events)
    .set({ ...adTextColumns(data), eventStatus: 'pending' })
    .where(
      and(
        eq(events.eventID, eventID),
        eq(events.businessID, data.businessID),
        eq(events.paymentStatus, 'paid'),
      ),
    )
}

/** Forgets the media rows of these kinds, before new files of the same kinds are attached. */
export async function detachEventMedia(tx: Transaction, eventID: number, kinds: MediaType[]) {
  if (kinds.length === 0) return
  await tx
    .delete(eventMedia)
    .where(and(eq(eventMedia.eventID, eventID), inArray(eventMedia.mediaType, kinds)))
}

export async function attachEventMedia(
  tx: Transaction | typeof db,
  eventID: number,
  media: Array<{ mediaType: MediaType; url: string }>,
) {
  if (media.length === 0) return
  await tx.insert(eventMedia).values(media.map((m) => ({ eventID, mediaType: m.mediaType, mediaUrl: m.url })))
  const photo = media.find((m) => m.mediaType === 'photo')
  const video = media.find((m) => m.mediaType === 'video')
  await tx
    .update(events)
    .set({
      ...(photo ? { stillPhotoURL: photo.url } : {}),
      ...(video ? { videoURL: video.url } : {}),
    })
    .where(eq(events.eventID, eventID))
}

/** The business's own events, newest first, with the payment of a paid (or refunded) one and its card receipt. */
export async function listEventsForBusiness(businessID: number) {
  const rows = await db
    .select({ ...eventWithBusinessColumns, paymentID: payments.paymentID, receiptUrl: payments.receipt_url })
    .from(events)
    .innerJoin(business, eq(business.businessID, events.businessID))
    .leftJoin(
      payments,
      and(eq(payments.eventID, events.eventID), inArray(payments.payment_status, [...SETTLED]), forTheAd),
    )
    .where(eq(events.businessID, businessID))
    .orderBy(desc(events.createdDate), desc(events.eventID))
  return rows.map(({ paymentID, receiptUrl, ...row }) => ({ ...toView(row), paymentID, receiptUrl }))
}

/**
 * Clicks and bounces between two dates for every event of a business ("click stats per event"), events
 * without any as zeros, in one aggregate query.
 */
export async function clickStatsForBusiness(businessID: number, { from, to }: { from: string; to: string }) {
  // Read from the daily figures (one row per ad and day), not the click rows themselves.
  const inPeriod = and(
    eq(eventDailyStats.eventID, events.eventID),
    gte(eventDailyStats.day, from),
    lte(eventDailyStats.day, to),
  )
  return db
    .select({
      eventID: events.eventID,
      totalClicks: sumOf(eventDailyStats.clicks),
      totalBounces: sumOf(eventDailyStats.bounces),
    })
    .from(events)
    .leftJoin(eventDailyStats, inPeriod)
    .where(eq(events.businessID, businessID))
    .groupBy(events.eventID)
    .orderBy(asc(events.eventID))
}

export async function getOwnedEvent(eventID: number, businessID: number) {
  const [row] = await db
    .select()
    .from(events)
    .where(and(eq(events.eventID, eventID), eq(events.businessID, businessID)))
    .limit(1)
  return row ?? null
}

/**
 * One of the business's events, locked until `tx` ends so a payment completing meanwhile waits for a media change
 * to finish; null when it is not theirs.
 */
export async function lockOwnedEventForMediaChange(tx: Transaction, eventID: number, businessID: number) {
  const [row] = await tx
    .select({
      createdDate: events.createdDate,
      eventStatus: events.eventStatus,
      paymentStatus: events.paymentStatus,
      lastShowDate: events.lastShowDate,
    })
    .from(events)
    .where(and(eq(events.eventID, eventID), eq(events.businessID, businessID)))
    .limit(1)
    .for('update')
  return row ?? null
}

/** Who may see an event's media before it is live, and whether it is live (a primary-key read). */
export async function getEventMediaAudience(eventID: number) {
  const [row] = await db
    .select({
      businessID: events.businessID,
      eventStatus: events.eventStatus,
      paymentStatus: events.paymentStatus,
      lastShowDate: events.lastShowDate,
      stillPhotoURL: events.stillPhotoURL,
      videoURL: events.videoURL,
    })
    .from(events)
    .where(eq(events.eventID, eventID))
    .limit(1)
  return row ?? null
}

/**
 * The event if this viewer may see it: any of the signed-in business's own events, otherwise only a live one
 * (`ownerOnly` refuses even that). Null reads as "not found", so nobody learns that a hidden event exists.
 */
export async function getEventForViewer(
  eventID: number,
  {
    businessID,
    today,
    ownerOnly = false,
  }: { businessID: number | null | undefined; today: string; ownerOnly?: boolean },
): Promise<{ event: EventView; isOwner: boolean } | null> {
  const view = await getEventView(eventID)
  if (!view) return null
  const isOwner = businessID != null && view.businessID === businessID
  if (isOwner) return { event: view, isOwner }
  if (ownerOnly || !isLive(view, today)) return null
  return { event: view, isOwner }
}

/**
 * Records the advertiser's approval of their own unpaid ad. Returns false when there is no such event of theirs
 * or it is already paid (approving again must not lead to a second payment).
 */
export async function confirmEventByBusiness(eventID: number, businessID: number, today: string) {
  const rows = await db
    .update(events)
    .set({ approvedDateByBusiness: today })
    .where(
      and(
        eq(events.eventID, eventID),
        eq(events.businessID, businessID),
        eq(events.paymentStatus, 'pending'),
      ),
    )
    .returning({ eventID: events.eventID })
  return rows.length > 0
}

/**
 * An ad with what its owner's page shows besides it: the payment that paid for it (its receipt), if any; a
 * sponsorship bought later has receipts of its own. Null when
 * there is no such ad; whose it is, the caller checks.
 */
export async function getEventForOwnerPage(eventID: number) {
  const [row] = await db
    .select({
      event: events,
      payment: { paymentID: payments.paymentID, paidAt: payments.paid_at, datePaid: payments.datePaid },
    })
    .from(events)
    .leftJoin(
      payments,
      and(eq(payments.eventID, events.eventID), inArray(payments.payment_status, [...SETTLED]), forTheAd),
    )
    .where(eq(events.eventID, eventID))
    .orderBy(desc(payments.paymentID))
    .limit(1)
  if (!row) return null
  return { event: row.event, payment: row.payment?.paymentID ? row.payment : null }
}
