import { TZDate } from '@date-fns/tz'
import { and, asc, eq, gte, lt } from 'drizzle-orm'
import { refundEventPayment, type RefundResult } from '#app/services/payments.server.ts'
import { addDaysIso, isValidIsoDate } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { events } from '#db/schema.ts'
import type { PendingEvent, ReviewInput } from './moderation-schema.ts'
import { announcePublicPagesChanged } from './public-pages-changes.server.ts'

export { reviewSchema, type PendingEvent, type ReviewInput } from './moderation-schema.ts'

/** The instants [start, end) of a calendar day in `timeZone` (23 or 25 hours long on DST changes). */
export function zonedDayRange(isoDate: string, timeZone: string): { start: Date; end: Date } {
  const startOf = (day: string) => {
    const [y, m, d] = day.split('-').map(Number) as [number, number, number]
    return new Date(new TZDate(y, m - 1, d, timeZone).getTime())
  }
  return { start: startOf(isoDate), end: startOf(addDaysIso(isoDate, 1)) }
}

/** The pending-list query itself (not run), so the benchmark can EXPLAIN it. */
export function pendingEventsQuery(uploadDate: string, { timeZone }: { timeZone: string }) {
  if (!isValidIsoDate(uploadDate)) throw new Error(`Not a date: ${uploadDate}`)
  const { start, end } = zonedDayRange(uploadDate, timeZone)
  return db
    .select({
      eventID: events.eventID,
      eventTitle: events.eventTitle,
      businessName: events.businessName,
      createdDate: events.createdDate,
      eventDescription: events.eventDescription,
      category: events.category,
      contactPerson: events.contactPerson,
      contactPhone: events.contactPhone,
      contactEmail: events.contactEmail,
      photoPath: events.stillPhotoURL,
      videoPath: events.videoURL,
    })
    .from(events)
    .where(
      and(
        eq(events.eventStatus, 'pending'),
        eq(events.paymentStatus, 'paid'),
        gte(events.createdDate, start),
        lt(events.createdDate, end),
      ),
    )
    .orderBy(asc(events.createdDate), asc(events.eventID))
}

/**
 * Paid events awaiting review that were uploaded on `uploadDate` (the day of createdDate in the platform time zone),
 * oldest first. The day becomes an instant range, so the partial index on pending events' createdDate answers it.
 */
export async function listPendingEvents(
  uploadDate: string,
  { timeZone }: { timeZone: string },
): Promise<PendingEvent[]> {
  const rows = await pendingEventsQuery(uploadDate, { timeZone })
  return rows.map((row) => ({ ...row, createdDate: row.createdDate.toISOString() }))
}

export type ReviewOutcome =
  | {
      ok: true
      eventID: number
      eventTitle: string
      eventStatus: 'approved' | 'rejected'
      refund: RefundResult | null
    }
  | { ok: false; status: 404 | 409 | 502; message: string }

async function notReviewable(eventID: number): Promise<ReviewOutcome> {
  const [row] = await db
    .select({ eventStatus: events.eventStatus, paymentStatus: events.paymentStatus })
    .from(events)
    .where(eq(events.eventID, eventID))
    .limit(1)
  if (!row) return { ok: false, status: 404, message: 'Event not found' }
  return {
    ok: false,
    status: 409,
    message: `This event is not awaiting review (event ${row.eventStatus}, payment ${row.paymentStatus}).`,
  }
}

/**
 * Approves or rejects a paid event awaiting review. The status change is one conditional UPDATE, so of two reviews
 * at once only one applies and the other gets 409. A rejection then refunds the payment; if the refund fails the
 * event goes back to pending, so the review can be repeated rather than leaving a rejected ad unrefunded.
 */
export async function reviewEvent(
  { eventID, action, reason }: ReviewInput,
  { reviewerId, today }: { reviewerId: string; today: string },
): Promise<ReviewOutcome> {
  const awaitingReview = and(
    eq(events.eventID, eventID),
    eq(events.eventStatus, 'pending'),
    eq(events.paymentStatus, 'paid'),
  )
  const reviewed = { reviewedByUserId: reviewerId, reviewedAt: new Date() }

  if (action === 'approve') {
    const [row] = await db
      .update(events)
      .set({ eventStatus: 'approved', approvedDateByAdmin: today, rejectionReason: '', ...reviewed })
      .where(awaitingReview)
      .returning({ eventID: events.eventID, eventTitle: events.eventTitle })
    if (!row) return notReviewable(eventID)
    await announcePublicPagesChanged()
    return { ok: true, eventID, eventTitle: row.eventTitle, eventStatus: 'approved', refund: null }
  }

  const [row] = await db
    .update(events)
    .set({ eventStatus: 'rejected', rejectionReason: reason, ...reviewed })
    .where(awaitingReview)
    .returning({ eventID: events.eventID, eventTitle: events.eventTitle })
  if (!row) return notReviewable(eventID)
  await announcePublicPagesChanged()
  try {
    const refund = await refundEventPayment(eventID, reason)
    return { ok: true, eventID, eventTitle: row.eventTitle, eventStatus: 'rejected', refund }
  } catch (error) {
    console.error(`Refunding event ${eventID} after its rejection failed`, error)
    await db
      .update(events)
      .set({ eventStatus: 'pending', rejectionReason: '', reviewedByUserId: null, reviewedAt: null })
      .where(and(eq(events.eventID, eventID), eq(events.eventStatus, 'rejected')))
    const detail = error instanceof Error && error.message ? ` (${error.message})` : ''
    return {
      ok: false,
      status: 502,
      message: `The refund failed${detail}, so the event was not rejected. Please try again.`,
    }
  }
}
