import {
  notReviewable,
  recordReview,
  reopenRejectedEvent,
  type ReviewInput,
} from '#app/models/moderation/pending-review.server.ts'
import { recordRevisionReview } from '#app/models/ads/event-revision.server.ts'
import { deleteStoredMedia } from '../media/media.server.ts'
import { enqueueAdRejectedEmail } from '#app/models/mail/notifications.server.ts'
import { recordModerationDecision } from '#app/models/moderation/moderation-audit.server.ts'
import { refundEventPayment, type RefundResult } from '../payments/payment-refunds.server.ts'
import { linkOrigin } from '../http/site-url.server.ts'
import { logError } from '../platform/logger.server.ts'
import { AppError } from '#app/utils/app-error.ts'

export interface ReviewOutcome {
  eventID: number
  eventTitle: string
  eventStatus: 'approved' | 'rejected' | 'changes_requested'
  refund: RefundResult | null
  /** The decision was on a revision of the live ad, which stays up unless the revision is approved. */
  revision: boolean
}

const DECIDED = { approve: 'approved', reject: 'rejected', request_changes: 'changes_requested' } as const

/**
 * Approves, rejects or sends back (changes requested: the advertiser keeps the payment, fixes the ad and resubmits
 * it) a paid event awaiting review; of two reviews at once only one applies and the other is a conflict.
 * A rejection then refunds the payment; if the refund fails the event goes back to pending, so the review can be
 * repeated rather than leaving a rejected ad unrefunded. A live ad with a pending revision: the decision is on the
 * revision (approved, it becomes the ad; rejected or sent back, the live version stays and nothing is refunded).
 * A review that cannot apply is an AppError: not_found (no such event), conflict (not awaiting review), upstream_failed (the refund failed).
 * The advertiser's email is queued with the decision, or for a rejection with the refund's record (so a rejection
 * whose refund failed sends none).
 */
export async function reviewEvent(
  review: ReviewInput,
  { origin = linkOrigin(), ...reviewer }: { reviewerId: string; today: string; origin?: string },
): Promise<ReviewOutcome> {
  const { eventID } = review
  const decided = DECIDED[review.action]
  const recorded = await recordReview(review, { ...reviewer, origin })
  if (!recorded) {
    const revised = await recordRevisionReview(review, { ...reviewer, origin })
    if (!revised) throw await notReviewable(eventID)
    await deleteStoredMedia(revised.unusedMedia)
    return {
      eventID,
      eventTitle: revised.eventTitle,
      eventStatus: decided,
      refund: null,
      revision: true,
    }
  }
  if (review.action !== 'reject') {
    return {
      eventID,
      eventTitle: recorded.eventTitle,
      eventStatus: decided,
      refund: null,
      revision: false,
    }
  }
  try {
    const refund = await refundEventPayment(eventID, review.reason, {
      alsoInTransaction: async (tx, refundedCents) => {
        await enqueueAdRejectedEmail(tx, { eventID, reason: review.reason, refundedCents, origin })
        await recordModerationDecision(tx, {
          action: 'reject',
          actorUserId: reviewer.reviewerId,
          eventID,
          businessID: recorded.businessID,
          reason: review.reason,
        })
      },
    })
    return {
      eventID,
      eventTitle: recorded.eventTitle,
      eventStatus: 'rejected',
      refund,
      revision: false,
    }
  } catch (error) {
    logError(error, { msg: `Refunding event ${eventID} after its rejection failed` })
    await reopenRejectedEvent(eventID)
    const detail = error instanceof Error && error.message ? ` (${error.message})` : ''
    throw new AppError(
      `The refund failed${detail}, so the event was not rejected. Please try again.`,
      'upstream_failed',
      {
        cause: error,
      },
    )
  }
}

const REVISION_TOASTS = {
  approved: (title: string) => ({
    title: 'Changes approved',
    description: `"${title}" now shows the new version.`,
  }),
  changes_requested: (title: string) => ({
    title: 'Changes requested',
    description: `The edit of "${title}" was sent back to its advertiser; the live version stays.`,
  }),
  rejected: (title: string) => ({
    title: 'Edit rejected',
    description: `The edit of "${title}" was rejected; the live version stays.`,
  }),
} as const

const REVIEW_TOASTS = {
  approved: (title: string) => ({ title: 'Event approved', description: `"${title}" is now live.` }),
  changes_requested: (title: string) => ({
    title: 'Changes requested',
    description: `"${title}" was sent back to its advertiser with your reason.`,
  }),
  rejected: (title: string, refundMessage?: string) => ({
    title: 'Event rejected',
    description: `"${title}" was rejected${refundMessage ? `. ${refundMessage}` : ' and its payment refunded.'}`,
  }),
} as const

/** What the moderation page's toast tells the reviewer after a review. */
export function reviewToast(outcome: ReviewOutcome) {
  return outcome.revision
    ? REVISION_TOASTS[outcome.eventStatus](outcome.eventTitle)
    : REVIEW_TOASTS[outcome.eventStatus](outcome.eventTitle, outcome.refund?.message ?? undefined)
}
