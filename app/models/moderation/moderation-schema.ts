import '#app/zod-config.ts'
import { z } from 'zod'
import type { CustomerCardData } from '#app/models/ads/customer-card.ts'
import { idSchema, text } from '#app/models/platform/input-rules.ts'
import type { PracticalFactField } from '#app/models/ads/practical-facts.ts'

/** The pending event as administrators' API gives it (README: `GET /api/admin/pending-events`). */
export interface PendingEvent {
  eventID: number
  eventTitle: string
  businessName: string
  /** ISO 8601 instant. */
  createdDate: string
  eventDescription: string
  category: string[]
  contactPerson: string
  contactPhone: string
  contactEmail: string
  photoPath: string
  videoPath: string
}

/** One field an edit of a live ad changes, the live value beside the new one (`revisionDiff` lists them). */
export interface RevisionChange {
  field:
    | 'eventTitle'
    | 'eventDescription'
    | 'contactPerson'
    | 'contactPhone'
    | 'contactEmail'
    | 'category'
    | 'photo'
    | 'video'
    | 'times'
    | PracticalFactField
  label: string
  kind: 'text' | 'photo' | 'video'
  old: string
  new: string
}

/**
 * An item of the moderation page's queue: a paid ad awaiting review, or the pending edit of a live ad as it will look
 * (`changes`: what it changes; null for an ad), with its customer card.
 */
export interface ReviewQueueItem {
  eventID: number
  eventTitle: string
  businessName: string
  /** ISO 8601 instant of the upload. */
  createdDate: string
  /** The upload's time as the page shows it, in the platform's time zone. */
  uploadedAt: string
  category: string[]
  contactPerson: string
  contactPhone: string
  contactEmail: string
  /** Sent back before and resubmitted: what was asked then (empty if nothing). */
  earlierRequest: string
  card: CustomerCardData
  changes: RevisionChange[] | null
  /** Another business's ad it looks like (a similar title, a date in common, the same ZIP), with its admin page. */
  possibleDuplicate: { eventID: number; eventTitle: string; businessName: string; href: string } | null
}

/** approve and reject are the API's first two; request_changes sends a paid ad back to its advertiser to fix and resubmit. */
/** `?date=all` on the moderation page: every paid ad awaiting review, whatever its upload day. */
export const ALL_DAYS = 'all'

export const REVIEW_ACTIONS = ['approve', 'reject', 'request_changes'] as const
export type ReviewAction = (typeof REVIEW_ACTIONS)[number]
export const REJECTION_REASON_MAX = 500

export const BAD_ACTION_MESSAGE = 'action must be one of approve, reject or request_changes'
export const REASON_REQUIRED_MESSAGE = 'A reason is required (the advertiser reads it)'

const reasonSchema = text()
  .trim()
  .max(REJECTION_REASON_MAX, `The reason can be at most ${REJECTION_REASON_MAX} characters`)

/**
 * A decision's reason is required for these actions. The JSON call keeps its first form, a reject without a reason
 * (`{eventID, action: "reject"}`), so there only a request for changes needs one; the page asks for both.
 */
function requireReasonFor(actions: readonly ReviewAction[]) {
  return (value: { action?: ReviewAction; intent?: ReviewAction; reason?: string }, ctx: z.RefinementCtx) => {
    const action = value.action ?? value.intent
    if (action && actions.includes(action) && !value.reason) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: REASON_REQUIRED_MESSAGE })
    }
  }
}

const actionSchema = z.enum(REVIEW_ACTIONS, { error: BAD_ACTION_MESSAGE })

/** A review request of the JSON API: {eventID, action, reason?}. */
export const reviewSchema = z
  .object({
    eventID: idSchema,
    action: actionSchema,
    reason: reasonSchema.optional().default(''),
  })
  .superRefine(requireReasonFor(['request_changes']))

export type ReviewInput = z.infer<typeof reviewSchema>

/** The moderation page's form: the pressed button's `intent`, and the upload date to return to. */
export const reviewFormSchema = z
  .object({
    intent: actionSchema,
    eventID: idSchema,
    reason: reasonSchema.optional(),
    date: z.string().optional(),
  })
  .superRefine(requireReasonFor(['reject', 'request_changes']))
