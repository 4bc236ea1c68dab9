import { TZDate } from '@date-fns/tz'
import { and, asc, eq, gte, lt, sql, type SQL } from 'drizzle-orm'
import { AppError } from '#app/utils/app-error.ts'
import { addDaysIso, isValidIsoDate } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { business, events } from '#db/schema.ts'
import type { ReviewInput } from '#app/models/moderation/moderation-schema.ts'
import { CHANGES_REQUESTED } from '#app/models/ads/event-status.ts'
import { businessPublicColumns } from '#app/models/ads/event.server.ts'
import { recordModerationDecision } from '#app/models/moderation/moderation-audit.server.ts'
import {
  enqueueAdApprovedEmail,
  enqueueChangesRequestedEmail,
} from '#app/models/mail/notifications.server.ts'
import { announcePublicPagesChanged } from '#app/models/calendar/public-pages-changes.server.ts'

export {
  reviewSchema,
  type PendingEvent,
  type ReviewInput,
} from '#app/models/moderation/moderation-schema.ts'

/** The instants [start, end) of a calendar day in `timeZone` (23 or 25 hours long on DST changes). */
export function zonedDayRange(isoDate: string, timeZone: string): { start: Date; end: Date } {
  const startOf = (day: string) => {
    const [y, m, d] = day.split('-').map(Number) as [number, number, number]
    return new Date(new TZDate(y, m - 1, d, timeZone).getTime())
  }
  return { start: startOf(isoDate), end: startOf(addDaysIso(isoDate, 1)) }
}

/** A paid ad awaiting review. */
const awaitingReview = and(eq(events.eventStatus, 'pending'), eq(events.paymentStatus, 'paid'))

/** Uploaded on that day in the platform time zone (as an instant range, so the pending index answers it). */
function uploadedOn(uploadDate: string, timeZone: string): SQL {
  if (!isValidIsoDate(uploadDate)) throw new Error(`Not a date: ${uploadDate}`)
  const { start, end } = zonedDayRange(uploadDate, timeZone)
  return and(gte(events.createdDate, start), lt(events.createdDate, end))!
}

/** The upload day of an event in the platform time zone, yyyy-mm-dd. */
const uploadDay = (timeZone: string) =>
  sql<string>`to_char(${events.createdDate} at time zone ${timeZone}, 'YYYY-MM-DD')`

/**
 * The moderation page's queue: each paid ad awaiting review with what its customer card shows (the business's public
 * details), uploaded on `uploadDate` or, with 'all', on any day; oldest first.
 */
export async function listReviewQueue(uploadDate: string | 'all', { timeZone }: { timeZone: string }) {
  return db
    .select({ event: events, ...businessPublicColumns })
    .from(events)
    .innerJoin(business, eq(business.businessID, events.businessID))
    .where(uploadDate === 'all' ? awaitingReview : and(awaitingReview, uploadedOn(uploadDate, timeZone)))
    .orderBy(asc(events.createdDate), asc(events.eventID))
}

/** How many paid ads await review per upload day (platform time zone), oldest day first: one grouped query. */
export async function pendingCountsByDay({ timeZone }: { timeZone: string }) {
  return db
    .select({ date: uploadDay(timeZone), count: sql<number>`count(*)`.mapWith(Number) })
    .from(events)
    .where(awaitingReview)
    .groupBy(sql`1`)
    .orderBy(sql`1`)
}

/** For the operator's gauges: how many paid ads await review, and when the oldest was uploaded. */
export async function reviewQueueBacklog() {
  const [row] = await db
    .select({
      count: sql<number>`count(*)`.mapWith(Number),
      oldest: sql<Date | null>`min(${events.createdDate})`.mapWith(events.createdDate),
    })
    .from(events)
    .where(awaitingReview)
  return { count: row?.count ?? 0, oldest: row?.oldest ?? null }
}

/** Why a review could not apply: the event is gone (not found) or no longer a paid event awaiting review (a conflict). */
export async function notReviewable(eventID: number): Promise<AppError> {
  const [row] = await db
    .select({ eventStatus: events.eventStatus, paymentStatus: events.paymentStatus })
    .from(events)
    .where(eq(events.eventID, eventID))
    .limit(1)
  if (!row) return new AppError('Event not found', 'not_found')
  return new AppError(
    `This event is not awaiting review (event ${row.eventStatus}, payment ${row.paymentStatus}).`,
    'conflict',
  )
}

/**
 * Records an approval, a rejection or a request for changes of a paid event awaiting review in one conditional
 * UPDATE, so of two reviews at once only one applies; an approval or a request for changes queues its email to the
 * advertiser (links to `origin`) in the same transaction. Returns the event's title, or null when it was not awaiting
 * review.
 */
export async function recordReview(
  { eventID, action, reason }: ReviewInput,
  { reviewerId, today, origin }: { reviewerId: string; today: string; origin: string },
): Promise<{ eventTitle: string; businessID: number } | null> {
  const decision =
    action === 'approve'
      ? { eventStatus: 'approved', approvedDateByAdmin: today, rejectionReason: '' }
      : { eventStatus: action === 'reject' ? 'rejected' : CHANGES_REQUESTED, rejectionReason: reason }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(events)
      .set({ ...decision, reviewedByUserId: reviewerId, reviewedAt: new Date() })
      .where(
        and(eq(events.eventID, eventID), eq(events.eventStatus, 'pending'), eq(events.paymentStatus, 'paid')),
      )
      .returning({ eventTitle: events.eventTitle, businessID: events.businessID })
    if (!row) return null
    if (action === 'approve') await enqueueAdApprovedEmail(tx, { eventID, origin })
    else if (action !== 'reject') await enqueueChangesRequestedEmail(tx, { eventID, reason, origin })
    // A rejection enters the trail with its refund (a failed refund leaves the ad pending, undecided).
    if (action !== 'reject') {
      const { businessID } = row
      await recordModerationDecision(tx, { action, actorUserId: reviewerId, eventID, businessID, reason })
    }
    await announcePublicPagesChanged(tx)
    return row
  })
}

/** Puts a rejected event back to pending with no review recorded (its refund failed, so the review can be repeated). */
export async function reopenRejectedEvent(eventID: number) {
  await db
    .update(events)
    .set({ eventStatus: 'pending', rejectionReason: '', reviewedByUserId: null, reviewedAt: null })
    .where(and(eq(events.eventID, eventID), eq(events.eventStatus, 'rejected')))
}
