import '#app/zod-config.ts'
import { z } from 'zod'
import { idSchema, text } from './input-rules.ts'

/** The spec's pending-event shape for administrators (§3). */
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

export const REVIEW_ACTIONS = ['approve', 'reject'] as const
export type ReviewAction = (typeof REVIEW_ACTIONS)[number]
export const REJECTION_REASON_MAX = 500

const reasonSchema = text()
  .trim()
  .max(REJECTION_REASON_MAX, `The reason can be at most ${REJECTION_REASON_MAX} characters`)

/** A review request of the JSON API: {eventID, action, reason?}. */
export const reviewSchema = z.object({
  eventID: idSchema,
  action: z.enum(REVIEW_ACTIONS),
  reason: reasonSchema.optional().default(''),
})

export type ReviewInput = z.infer<typeof reviewSchema>

/** The moderation page's form: the pressed button's `intent`, and the upload date to return to. */
export const reviewFormSchema = z.object({
  intent: z.enum(REVIEW_ACTIONS),
  eventID: idSchema,
  reason: reasonSchema.optional(),
  date: z.string().optional(),
})
