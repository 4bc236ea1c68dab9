/** What an event's statuses mean to people: live or not, and the label on the advertiser's gallery card. */
import { HIDDEN_BY_REPORTS, TAKEN_DOWN } from '#app/models/moderation/report-rules.ts'

export interface EventStatusFields {
  eventStatus: string
  paymentStatus: string
  /** The latest of the event date and the display dates (yyyy-mm-dd), null when it has none. */
  lastShowDate: string | null
}

/** The statuses of an ad that is shown to the public while it has a show date today or later. */
export const LIVE_STATUSES = { eventStatus: 'approved', paymentStatus: 'paid' } as const

/**
 * Live = approved, paid, and a show date today or later (docs/architecture.md, "An ad's lifecycle"). The same rule in SQL is
 * `liveEventConditions` (calendar-filter-sql.server.ts).
 */
export function isLive(event: EventStatusFields, today: string): boolean {
  return (
    event.eventStatus === LIVE_STATUSES.eventStatus &&
    event.paymentStatus === LIVE_STATUSES.paymentStatus &&
    event.lastShowDate !== null &&
    event.lastShowDate >= today
  )
}

export const EVENT_STATUS_LABELS = {
  awaitingPayment: 'Awaiting payment',
  awaitingReview: 'Awaiting review',
  live: 'Live',
  ended: 'Ended',
  changesRequested: 'Changes requested',
  rejected: 'Rejected',
  refunded: 'Refunded',
  hiddenByReports: 'Hidden while reports are reviewed',
  takenDown: 'Taken down',
} as const

/** An administrator sent the paid ad back to its advertiser to fix and resubmit (without paying again). */
export const CHANGES_REQUESTED = 'changes_requested'

export type EventStatusLabel = (typeof EVENT_STATUS_LABELS)[keyof typeof EVENT_STATUS_LABELS]

const STATUS_BADGE_CLASSES: Record<string, string> = {
  [EVENT_STATUS_LABELS.live]: 'bg-green-100 text-green-800',
  [EVENT_STATUS_LABELS.awaitingReview]: 'bg-amber-100 text-amber-800',
  [EVENT_STATUS_LABELS.awaitingPayment]: 'bg-brand-100 text-brand-700',
  [EVENT_STATUS_LABELS.ended]: 'bg-slate-100 text-slate-700',
  [EVENT_STATUS_LABELS.changesRequested]: 'bg-amber-100 text-amber-900',
  [EVENT_STATUS_LABELS.rejected]: 'bg-red-100 text-red-800',
  [EVENT_STATUS_LABELS.refunded]: 'bg-slate-100 text-slate-700',
  [EVENT_STATUS_LABELS.hiddenByReports]: 'bg-amber-100 text-amber-900',
  [EVENT_STATUS_LABELS.takenDown]: 'bg-red-100 text-red-800',
}

/** The colours of a status label's badge on the dashboard (chosen on the server, so the page's script skips them). */
export function statusBadgeClass(label: string) {
  return STATUS_BADGE_CLASSES[label] ?? 'bg-slate-100 text-slate-700'
}

export function eventStatusLabel(event: EventStatusFields, today: string): EventStatusLabel {
  // A rejection refunds the payment; "Rejected" tells the advertiser why, so it wins over "Refunded".
  if (event.eventStatus === 'rejected') return EVENT_STATUS_LABELS.rejected
  if (event.eventStatus === TAKEN_DOWN) return EVENT_STATUS_LABELS.takenDown
  if (event.eventStatus === HIDDEN_BY_REPORTS) return EVENT_STATUS_LABELS.hiddenByReports
  if (event.paymentStatus === 'refunded') return EVENT_STATUS_LABELS.refunded
  if (event.paymentStatus !== 'paid') return EVENT_STATUS_LABELS.awaitingPayment
  if (event.eventStatus === CHANGES_REQUESTED) return EVENT_STATUS_LABELS.changesRequested
  if (event.eventStatus === 'approved') {
    return isLive(event, today) ? EVENT_STATUS_LABELS.live : EVENT_STATUS_LABELS.ended
  }
  return EVENT_STATUS_LABELS.awaitingReview
}

/** An advertiser may change their ad only while it is unpaid: once paid it is reviewed (and then shown) as paid for. */
export function isEditableByOwner(event: Pick<EventStatusFields, 'eventStatus' | 'paymentStatus'>): boolean {
  return event.paymentStatus === 'pending' && event.eventStatus === 'pending'
}

/**
 * How the owner may change their ad now: `draft` (unpaid: everything, then pay), `resubmit` (paid and awaiting review
 * or sent back with changes requested: text and media in place, then it waits for review again), `revision` (live:
 * text and media as a revision an administrator approves while the live version stays up), or null (rejected,
 * refunded, ended). After payment the dates and cost stay as paid for.
 */
export type OwnerEdit = 'draft' | 'resubmit' | 'revision'

export function ownerEditKind(event: EventStatusFields, today: string): OwnerEdit | null {
  if (isEditableByOwner(event)) return 'draft'
  if (event.paymentStatus !== 'paid') return null
  if (event.eventStatus === 'pending' || event.eventStatus === CHANGES_REQUESTED) return 'resubmit'
  return isLive(event, today) ? 'revision' : null
}

/** A review's reason is the advertiser's to read while it stands: the ad is sent back, rejected or taken down. */
export function standingReviewReason(event: { eventStatus: string; rejectionReason: string }): string | null {
  return event.eventStatus === CHANGES_REQUESTED ||
    event.eventStatus === 'rejected' ||
    event.eventStatus === TAKEN_DOWN
    ? event.rejectionReason || null
    : null
}

/** Why the upload calls refuse to replace the media of an ad that is no longer editable (see `isEditableByOwner`). */
export const MEDIA_LOCKED_MESSAGE =
  'This ad has been paid for, so its photo and video can no longer be replaced without a review'
