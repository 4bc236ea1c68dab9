/**
 * Revisions of live ads: the advertiser's edit of the text and media waits here while the live version stays up, and
 * an administrator approves it (it becomes the ad), rejects it or sends it back with a reason.
 */
import { and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm'
import type { MediaType } from '#app/constants.ts'
import { db, type Transaction } from '#db/client.server.ts'
import { business, eventMedia, eventRevisions, events, type Event, type EventRevision } from '#db/schema.ts'
import {
  CHANGES_REQUESTED,
  LIVE_STATUSES,
  ownerEditKind,
  standingReviewReason,
  type EventStatusFields,
} from '#app/models/ads/event-status.ts'
import { businessPublicColumns } from '#app/models/ads/event.server.ts'
import type { ReviewInput, RevisionChange } from '#app/models/moderation/moderation-schema.ts'
import {
  practicalFactsOf,
  practicalFactTexts,
  type PracticalFacts,
  type StoredFacts,
} from '#app/models/ads/practical-facts.ts'
import { eventTimesOf, formatTimeRange, type EventTimes } from '#app/models/ads/event-times.ts'
import { enqueueRevisionDecidedEmail } from '#app/models/mail/notifications.server.ts'
import { announcePublicPagesChanged } from '#app/models/calendar/public-pages-changes.server.ts'
import { recordModerationDecision } from '#app/models/moderation/moderation-audit.server.ts'

/** An open revision is pending or sent back; at most one per event (a unique partial index). */
const OPEN_STATUSES = ['pending', CHANGES_REQUESTED]

export interface RevisionText extends PracticalFacts, Partial<EventTimes> {
  eventTitle: string
  eventDescription: string
  eventCategory: string[]
  contactPerson: string
  contactPhone: string
  contactEmail: string
}

/** The event's open revision, locked until `tx` ends. */
export async function lockOpenRevision(tx: Transaction, eventID: number) {
  const [row] = await tx
    .select()
    .from(eventRevisions)
    .where(and(eq(eventRevisions.eventID, eventID), inArray(eventRevisions.status, OPEN_STATUSES)))
    .limit(1)
    .for('update')
  return row ?? null
}

export async function getOpenRevision(eventID: number) {
  const [row] = await db
    .select()
    .from(eventRevisions)
    .where(and(eq(eventRevisions.eventID, eventID), inArray(eventRevisions.status, OPEN_STATUSES)))
    .limit(1)
  return row ?? null
}

/**
 * Saves the owner's edit of a live ad as its open revision (a new one, or the open one rewritten), pending review
 * from now. The event row is not touched. Returns the revision as it was before (null when new) and its id.
 */
export async function saveOpenRevision(tx: Transaction, eventID: number, text: RevisionText) {
  const before = await lockOpenRevision(tx, eventID)
  const values = {
    eventTitle: text.eventTitle,
    eventDescription: text.eventDescription,
    category: text.eventCategory,
    contactPerson: text.contactPerson,
    contactPhone: text.contactPhone,
    contactEmail: text.contactEmail,
    ...practicalFactsOf(text),
    startTime: text.startTime ?? null,
    endTime: text.endTime ?? null,
    status: 'pending',
    submittedAt: new Date(),
  }
  if (before) {
    await tx.update(eventRevisions).set(values).where(eq(eventRevisions.id, before.id))
    return { before, revisionID: before.id }
  }
  const [row] = await tx
    .insert(eventRevisions)
    .values({ eventID, ...values })
    .returning({ id: eventRevisions.id })
  return { before: null, revisionID: row!.id }
}

export async function setRevisionMedia(
  tx: Transaction,
  revisionID: number,
  media: Array<{ mediaType: MediaType; url: string }>,
) {
  const photo = media.find((m) => m.mediaType === 'photo')
  const video = media.find((m) => m.mediaType === 'video')
  if (!photo && !video) return
  await tx
    .update(eventRevisions)
    .set({ ...(photo ? { stillPhotoURL: photo.url } : {}), ...(video ? { videoURL: video.url } : {}) })
    .where(eq(eventRevisions.id, revisionID))
}

/** The latest revision of each of these events (one query), by event id. */
export async function latestRevisions(eventIDs: number[]) {
  if (eventIDs.length === 0) return new Map<number, EventRevision>()
  const rows = await db
    .selectDistinctOn([eventRevisions.eventID])
    .from(eventRevisions)
    .where(inArray(eventRevisions.eventID, eventIDs))
    .orderBy(eventRevisions.eventID, desc(eventRevisions.id))
  return new Map(rows.map((row) => [row.eventID, row]))
}

/** What the advertiser reads about their latest edit of a live ad; null once it was approved (or there is none). */
export function revisionNotice(revision: EventRevision | undefined | null) {
  if (!revision || revision.status === 'approved') return null
  return { status: revision.status, reason: revision.status === 'pending' ? '' : revision.reason }
}

export type RevisionNotice = ReturnType<typeof revisionNotice>

export const EDIT_NOTES = {
  pending: 'Your changes await review: customers see the live version until they are approved.',
  [CHANGES_REQUESTED]:
    'Changes were requested on your edit: the live version stays until you send a new one.',
  rejected: 'Your edit was not accepted: the live version stays.',
} as Record<string, string>

/**
 * What the owner reads about the reviews of their ad (dashboard card, the ad's page): the reviewer's reason for the ad
 * or, for a live ad, for its latest edit; a note on that edit; and where to fix an ad or edit sent back.
 */
export function ownerReviewNotice(
  event: EventStatusFields & { eventID: number; rejectionReason: string },
  latestRevision: EventRevision | undefined | null,
  today: string,
) {
  const edit = event.eventStatus === LIVE_STATUSES.eventStatus ? revisionNotice(latestRevision) : null
  const sentBack = event.eventStatus === CHANGES_REQUESTED || edit?.status === CHANGES_REQUESTED
  return {
    reviewReason: edit ? edit.reason || null : standingReviewReason(event),
    editNote: edit ? (EDIT_NOTES[edit.status] ?? null) : null,
    resubmitHref: sentBack && ownerEditKind(event, today) ? `/dashboard/events/${event.eventID}/edit` : null,
  }
}

/** A pending revision of a live ad, submitted on the day [start, end) or any day. */
const pendingRevision = and(
  eq(eventRevisions.status, 'pending'),
  eq(events.eventStatus, LIVE_STATUSES.eventStatus),
  eq(events.paymentStatus, LIVE_STATUSES.paymentStatus),
)

/** Pending revisions for the review queue with their live event and its business's public details, oldest first. */
export async function listPendingRevisions(range: { start: Date; end: Date } | 'all') {
  return db
    .select({ revision: eventRevisions, event: events, ...businessPublicColumns })
    .from(eventRevisions)
    .innerJoin(events, eq(events.eventID, eventRevisions.eventID))
    .innerJoin(business, eq(business.businessID, events.businessID))
    .where(
      range === 'all'
        ? pendingRevision
        : and(
            pendingRevision,
            gte(eventRevisions.submittedAt, range.start),
            lt(eventRevisions.submittedAt, range.end),
          ),
    )
    .orderBy(asc(eventRevisions.submittedAt), asc(eventRevisions.id))
}

/** How many revisions wait per day they were submitted (platform time zone). */
export async function pendingRevisionCountsByDay({ timeZone }: { timeZone: string }) {
  return db
    .select({
      date: sql<string>`to_char(${eventRevisions.submittedAt} at time zone ${timeZone}, 'YYYY-MM-DD')`,
      count: sql<number>`count(*)`.mapWith(Number),
    })
    .from(eventRevisions)
    .innerJoin(events, eq(events.eventID, eventRevisions.eventID))
    .where(pendingRevision)
    .groupBy(sql`1`)
}

const TEXT_FIELDS = [
  ['eventTitle', 'Title'],
  ['eventDescription', 'Description'],
  ['contactPerson', 'Contact person'],
  ['contactPhone', 'Contact phone'],
  ['contactEmail', 'Contact email'],
] as const satisfies ReadonlyArray<readonly [RevisionChange['field'], string]>

type TextField = (typeof TEXT_FIELDS)[number][0]

/** What an edit of a live ad may change. */
type RevisableField =
  TextField | 'category' | 'stillPhotoURL' | 'videoURL' | 'startTime' | 'endTime' | keyof StoredFacts

/** The times as the reviewer reads them: "7:30 PM – 10 PM", or "All day". */
function timesText(row: Pick<Event, 'startTime' | 'endTime'>) {
  return formatTimeRange(eventTimesOf(row)) ?? 'All day'
}

/** Field by field, what the revision changes in the live ad (unchanged fields left out). */
export function revisionDiff(
  event: Pick<Event, RevisableField>,
  revision: Pick<EventRevision, RevisableField>,
): RevisionChange[] {
  const changes: RevisionChange[] = []
  const oldFacts = practicalFactTexts(practicalFactsOf(event))
  const newFacts = practicalFactTexts(practicalFactsOf(revision))
  for (const [field, label] of TEXT_FIELDS) {
    if (event[field] !== revision[field]) {
      changes.push({ field, label, kind: 'text', old: event[field], new: revision[field] })
    }
  }
  const oldCategory = event.category.join(', ')
  const newCategory = revision.category.join(', ')
  if (oldCategory !== newCategory) {
    changes.push({ field: 'category', label: 'Category', kind: 'text', old: oldCategory, new: newCategory })
  }
  const [oldTimes, newTimes] = [timesText(event), timesText(revision)]
  if (oldTimes !== newTimes) {
    changes.push({ field: 'times', label: 'Time', kind: 'text', old: oldTimes, new: newTimes })
  }
  oldFacts.forEach(([field, label, old], i) => {
    const now = newFacts[i]![2]
    if (old !== now) changes.push({ field, label, kind: 'text', old, new: now })
  })
  if (revision.stillPhotoURL && revision.stillPhotoURL !== event.stillPhotoURL) {
    changes.push({
      field: 'photo',
      label: 'Photo',
      kind: 'photo',
      old: event.stillPhotoURL,
      new: revision.stillPhotoURL,
    })
  }
  if (revision.videoURL && revision.videoURL !== event.videoURL) {
    changes.push({
      field: 'video',
      label: 'Video',
      kind: 'video',
      old: event.videoURL,
      new: revision.videoURL,
    })
  }
  return changes
}

/** The live ad with the revision applied: what the public pages show once it is approved. */
export function revisedAd(event: Event, revision: EventRevision): Event {
  return {
    ...event,
    eventTitle: revision.eventTitle,
    eventDescription: revision.eventDescription,
    category: revision.category,
    contactPerson: revision.contactPerson,
    contactPhone: revision.contactPhone,
    contactEmail: revision.contactEmail,
    ...practicalFactsOf(revision),
    startTime: revision.startTime,
    endTime: revision.endTime,
    stillPhotoURL: revision.stillPhotoURL || event.stillPhotoURL,
    videoURL: revision.videoURL || event.videoURL,
  }
}

export type RevisionReviewResult = null | {
  eventTitle: string
  /** Stored media nobody points to any more after this decision: delete them once it is saved. */
  unusedMedia: string[]
}

/**
 * Decides on the event's pending revision (the event being live) in one transaction, so of two decisions only one
 * applies. Approve: the revision becomes the ad (text, and media it replaces) and the public pages are told.
 * Reject or request changes: the live version stays, the reason is kept for the advertiser. Null when the event has
 * no pending revision.
 */
export async function recordRevisionReview(
  review: ReviewInput,
  reviewer: { reviewerId: string; origin: string },
): Promise<RevisionReviewResult> {
  const result = await decideOnRevision(review, reviewer)
  // Told once saved, so no server refills its caches from the version before.
  if (result && review.action === 'approve') await announcePublicPagesChanged()
  return result
}

/**
 * A trusted business's edit of its live ad is approved at once, as an administrator's approval would be (the same
 * path: the revision becomes the ad, the approval email, the public pages told), recorded as `auto_approve` without
 * an actor. A `sampled` one is also listed for an administrator's check. Null when no revision is pending.
 */
export async function autoApproveRevision(
  eventID: number,
  { origin, reason, sampled }: { origin: string; reason: string; sampled: boolean },
): Promise<RevisionReviewResult> {
  const result = await decideOnRevision(
    { eventID, action: 'approve', reason: '' },
    { reviewerId: null, origin, auto: { reason, sampled } },
  )
  if (result) await announcePublicPagesChanged()
  return result
}

function decideOnRevision(
  { eventID, action, reason }: ReviewInput,
  {
    reviewerId,
    origin,
    auto,
  }: { reviewerId: string | null; origin: string; auto?: { reason: string; sampled: boolean } },
): Promise<RevisionReviewResult> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ revision: eventRevisions, event: events })
      .from(eventRevisions)
      .innerJoin(events, eq(events.eventID, eventRevisions.eventID))
      .where(
        and(
          eq(eventRevisions.eventID, eventID),
          eq(eventRevisions.status, 'pending'),
          eq(events.eventStatus, LIVE_STATUSES.eventStatus),
          eq(events.paymentStatus, LIVE_STATUSES.paymentStatus),
        ),
      )
      .limit(1)
      .for('update')
    if (!found) return null
    const { revision, event } = found
    const status = action === 'approve' ? 'approved' : action === 'reject' ? 'rejected' : CHANGES_REQUESTED
    await tx
      .update(eventRevisions)
      .set({
        status,
        reason: action === 'approve' ? '' : reason,
        reviewedByUserId: reviewerId,
        reviewedAt: new Date(),
      })
      .where(eq(eventRevisions.id, revision.id))
    const decided =
      action === 'approve'
        ? await applyRevision(tx, event, revision)
        : {
            eventTitle: event.eventTitle,
            // A rejected revision's own files are no one's any more; one sent back keeps them for the next try.
            unusedMedia:
              action === 'reject' ? [revision.stillPhotoURL, revision.videoURL].filter(Boolean) : [],
          }
    if (auto?.sampled)
      await tx.update(events).set({ checkPendingSince: new Date() }).where(eq(events.eventID, eventID))
    // Written after the ad, so an approval's email names the new version.
    await enqueueRevisionDecidedEmail(tx, { eventID, decision: status, reason, origin })
    const { businessID } = event
    await recordModerationDecision(tx, {
      action: auto ? 'auto_approve' : action,
      actorUserId: reviewerId,
      eventID,
      businessID,
      revision: true,
      reason: auto ? auto.reason : reason,
    })
    return decided
  })
}

/** The revision becomes the ad: its text, and the media it replaces (the replaced files are returned as unused). */
async function applyRevision(tx: Transaction, event: Event, revision: EventRevision) {
  const eventID = event.eventID
  const revised = revisedAd(event, revision)
  await tx
    .update(events)
    .set({
      eventTitle: revised.eventTitle,
      eventDescription: revised.eventDescription,
      category: revised.category,
      contactPerson: revised.contactPerson,
      contactPhone: revised.contactPhone,
      contactEmail: revised.contactEmail,
      ...practicalFactsOf(revised),
      startTime: revised.startTime,
      endTime: revised.endTime,
      stillPhotoURL: revised.stillPhotoURL,
      videoURL: revised.videoURL,
    })
    .where(eq(events.eventID, eventID))
  const replaced: Array<{ kind: MediaType; url: string; old: string }> = []
  if (revision.stillPhotoURL)
    replaced.push({ kind: 'photo', url: revision.stillPhotoURL, old: event.stillPhotoURL })
  if (revision.videoURL) replaced.push({ kind: 'video', url: revision.videoURL, old: event.videoURL })
  if (replaced.length > 0) {
    const kinds = replaced.map((m) => m.kind)
    await tx
      .delete(eventMedia)
      .where(and(eq(eventMedia.eventID, eventID), inArray(eventMedia.mediaType, kinds)))
    await tx.insert(eventMedia).values(replaced.map((m) => ({ eventID, mediaType: m.kind, mediaUrl: m.url })))
  }
  return { eventTitle: revised.eventTitle, unusedMedia: replaced.map((m) => m.old).filter(Boolean) }
}
