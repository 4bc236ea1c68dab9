import {
  notReviewable,
  recordReview,
  reopenRejectedEvent,
  type ReviewInput,
} from '#app/models/moderation.server.ts'
import { refundEventPayment, type RefundResult } from './payments.server.ts'

export type ReviewOutcome =
  | {
      ok: true
      eventID: number
      eventTitle: string
      eventStatus: 'approved' | 'rejected' | 'changes_requested'
      refund: RefundResult | null
    }
  | { ok: false; status: 404 | 409 | 502; message: string }

/**
 * Approves, rejects or sends back (changes requested: the advertiser keeps the payment, fixes the ad and resubmits
 * it) a paid event awaiting review; of two reviews at once only one applies and the other gets 409.
 * A rejection then refunds the payment; if the refund fails the event goes back to pending, so the review can be
 * repeated rather than leaving a rejected ad unrefunded.
 */
export async function reviewEvent(
  review: ReviewInput,
  reviewer: { reviewerId: string; today: string },
): Promise<ReviewOutcome> {
  const { eventID } = review
  const recorded = await recordReview(review, reviewer)
  if (!recorded) return notReviewable(eventID)
  if (review.action !== 'reject') {
    const eventStatus = review.action === 'approve' ? 'approved' : 'changes_requested'
    return { ok: true, eventID, eventTitle: recorded.eventTitle, eventStatus, refund: null }
  }
  try {
    const refund = await refundEventPayment(eventID, review.reason)
    return { ok: true, eventID, eventTitle: recorded.eventTitle, eventStatus: 'rejected', refund }
  } catch (error) {
    console.error(`Refunding event ${eventID} after its rejection failed`, error)
    await reopenRejectedEvent(eventID)
    const detail = error instanceof Error && error.message ? ` (${error.message})` : ''
    return {
      ok: false,
      status: 502,
      message: `The refund failed${detail}, so the event was not rejected. Please try again.`,
    }
  }
}
