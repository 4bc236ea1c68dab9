/**
 * The moderation page's queue: the paid ads awaiting review and the pending edits of live ads of one upload day (or
 * every day), each as its customer card shows it (an edit as it will look, with what it changes), how many wait
 * on the other days, and the page's texts about them; and the list of GET /api/admin/pending-events.
 */
import { practicalFactsOf, type PracticalFacts } from '#app/models/ads/practical-facts.ts'
import { TZDate } from '@date-fns/tz'
import { format } from 'date-fns/format'
import { customerCardData, type CardBusiness } from '#app/models/ads/customer-card.ts'
import { possibleDuplicatesOf } from '#app/models/ads/duplicate-ads.server.ts'
import {
  listPendingRevisions,
  pendingRevisionCountsByDay,
  revisedAd,
  revisionDiff,
} from '#app/models/ads/event-revision.server.ts'
import { formatPhone } from '#app/utils/format.ts'
import {
  ALL_DAYS,
  type PendingEvent,
  type ReviewQueueItem,
  type RevisionChange,
} from '#app/models/moderation/moderation-schema.ts'
import {
  listReviewQueue,
  pendingCountsByDay,
  zonedDayRange,
} from '#app/models/moderation/pending-review.server.ts'
import type { Event } from '#db/schema.ts'
import { OPEN_ENDED_DATE_LIMIT, UNSET_DATE } from '#app/constants.ts'
import { isValidIsoDate } from '#app/utils/time.ts'
import { platformToday } from '../platform/platform-today.server.ts'

export const BAD_REVIEW_DATE_MESSAGE = `date must be a date in the form yyyy-mm-dd, or ${ALL_DAYS}`

/**
 * The queue's day asked for (`?date=`): {@link ALL_DAYS}, or an upload date (today in the platform time zone when
 * none is asked); null when it is not a real date within the years the platform can have uploads in (a day range
 * past year 9999 cannot even be computed).
 */
export function reviewQueueDate(asked: string | null | undefined): string | null {
  const raw = asked?.trim()
  if (!raw) return platformToday()
  if (raw === ALL_DAYS) return ALL_DAYS
  return isValidIsoDate(raw) && raw >= UNSET_DATE && raw <= OPEN_ENDED_DATE_LIMIT ? raw : null
}

/** The paid ads awaiting review and the pending edits of live ads of one upload day or {@link ALL_DAYS}. */
function pendingOn(date: string, timeZone: string) {
  return Promise.all([
    listReviewQueue(date, { timeZone }),
    listPendingRevisions(date === ALL_DAYS ? 'all' : zonedDayRange(date, timeZone)),
  ])
}

function queueItem(
  event: Event,
  cardBusiness: Omit<CardBusiness, 'businessName'>,
  review: { submittedAt: Date; reviewedAt: Date | null; reason: string },
  timeZone: string,
): Omit<ReviewQueueItem, 'changes' | 'possibleDuplicate'> {
  return {
    eventID: event.eventID,
    eventTitle: event.eventTitle,
    businessName: event.businessName,
    createdDate: review.submittedAt.toISOString(),
    uploadedAt: format(new TZDate(review.submittedAt, timeZone), 'MMM d, yyyy h:mm a'),
    category: event.category,
    contactPerson: event.contactPerson,
    contactPhone: formatPhone(event.contactPhone),
    contactEmail: event.contactEmail,
    // Sent back before and resubmitted: what was asked then.
    earlierRequest: review.reviewedAt ? review.reason : '',
    card: customerCardData(
      { ...cardBusiness, businessName: event.businessName },
      { ...event, stillPhotoPath: event.stillPhotoURL, videoPath: event.videoURL },
    ),
  }
}

/** What the page says when `date` (an upload day or {@link ALL_DAYS}) has nothing to review. */
export function noPendingEventsText(date: string) {
  return date === ALL_DAYS ? 'No pending events' : `No pending events for ${date}`
}

/** "2 paid ads wait from other days" */
export function otherDaysText(count: number) {
  return `${count} paid ${count === 1 ? 'ad waits' : 'ads wait'} from other days`
}

/**
 * `date` is a yyyy-mm-dd upload day in `timeZone`, or {@link ALL_DAYS}. Five queries, whatever the queue's length
 * (the last marks each ad that looks like another business's ad on the same date at the same ZIP).
 * `emptyText` is what the page shows when the day has nothing to review; `otherDaysSummary`, above the links to the
 * other days, is null when none waits there.
 */
export async function reviewQueue(date: string, { timeZone }: { timeZone: string }) {
  const [[ads, revisions], adCounts, revisionCounts] = await Promise.all([
    pendingOn(date, timeZone),
    pendingCountsByDay({ timeZone }),
    pendingRevisionCountsByDay({ timeZone }),
  ])
  const perDay = new Map<string, number>()
  for (const day of [...adCounts, ...revisionCounts]) {
    perDay.set(day.date, (perDay.get(day.date) ?? 0) + day.count)
  }
  const otherDays = [...perDay]
    .filter(([day]) => day !== date && date !== ALL_DAYS)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([day, count]) => ({ date: day, count }))
  const otherDaysTotal = otherDays.reduce((sum, day) => sum + day.count, 0)
  const items = [
    ...ads.map(({ event, ...business }) => ({
      ...queueItem(
        event,
        business,
        { submittedAt: event.createdDate, reviewedAt: event.reviewedAt, reason: event.rejectionReason },
        timeZone,
      ),
      changes: null,
    })),
    ...revisions.map(({ event, revision, ...business }) => ({
      ...queueItem(revisedAd(event, revision), business, revision, timeZone),
      changes: revisionDiff(event, revision),
    })),
  ]
  const duplicates = await possibleDuplicatesOf(items.map((item) => item.eventID))
  const events: ReviewQueueItem[] = items.map((item) => {
    const duplicate = duplicates.get(item.eventID)
    return {
      ...item,
      possibleDuplicate: duplicate ? { ...duplicate, href: `/admin/events/${duplicate.eventID}` } : null,
    }
  })
  return {
    otherDays,
    otherDaysTotal,
    otherDaysSummary: otherDaysTotal > 0 ? otherDaysText(otherDaysTotal) : null,
    emptyText: noPendingEventsText(date),
    events,
  }
}

/**
 * An item of GET /api/admin/pending-events: the pending event as the API has always given it, and whether it is an edit of a live ad
 * (`revision`, shown as it will look, with `changes` saying what it changes; empty for a new ad) and what a reviewer
 * asked before it was resubmitted (`earlierRequest`, empty if nothing).
 */
export interface PendingReviewItem extends PendingEvent, PracticalFacts {
  revision: boolean
  changes: RevisionChange[]
  earlierRequest: string
}

function pendingItem(
  event: Event,
  review: { submittedAt: Date; reviewedAt: Date | null; reason: string },
  changes: RevisionChange[] | null,
): PendingReviewItem {
  return {
    eventID: event.eventID,
    eventTitle: event.eventTitle,
    businessName: event.businessName,
    createdDate: review.submittedAt.toISOString(),
    eventDescription: event.eventDescription,
    category: event.category,
    contactPerson: event.contactPerson,
    contactPhone: event.contactPhone,
    contactEmail: event.contactEmail,
    photoPath: event.stillPhotoURL,
    videoPath: event.videoURL,
    ...practicalFactsOf(event),
    revision: changes !== null,
    changes: changes ?? [],
    earlierRequest: review.reviewedAt ? review.reason : '',
  }
}

/** What the moderation page lists for `date` (a yyyy-mm-dd upload day or {@link ALL_DAYS}), oldest first. */
export async function pendingReviewList(date: string, { timeZone }: { timeZone: string }) {
  const [ads, revisions] = await pendingOn(date, timeZone)
  return [
    ...ads.map(({ event }) =>
      pendingItem(
        event,
        { submittedAt: event.createdDate, reviewedAt: event.reviewedAt, reason: event.rejectionReason },
        null,
      ),
    ),
    ...revisions.map(({ event, revision }) =>
      pendingItem(revisedAd(event, revision), revision, revisionDiff(event, revision)),
    ),
  ].sort((a, b) => a.createdDate.localeCompare(b.createdDate) || a.eventID - b.eventID)
}
