/**
 * The moderation page's queue: the paid ads awaiting review and the pending edits of live ads of one upload day (or
 * every day), each as its customer card shows it (an edit as it will look, with what it changes), and how many wait
 * on the other days.
 */
import { TZDate } from '@date-fns/tz'
import { format } from 'date-fns'
import { customerCardData, type CardBusiness } from '#app/models/customer-card.ts'
import {
  listPendingRevisions,
  pendingRevisionCountsByDay,
  revisedAd,
  revisionDiff,
} from '#app/models/event-revision.server.ts'
import { formatPhone } from '#app/models/format.ts'
import { ALL_DAYS } from '#app/models/moderation-schema.ts'
import { listReviewQueue, pendingCountsByDay, zonedDayRange } from '#app/models/moderation.server.ts'
import type { Event } from '#db/schema.ts'

function queueItem(
  event: Event,
  cardBusiness: Omit<CardBusiness, 'businessName'>,
  review: { submittedAt: Date; reviewedAt: Date | null; reason: string },
  timeZone: string,
) {
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

/** `date` is a yyyy-mm-dd upload day in `timeZone`, or {@link ALL_DAYS}. Four queries, whatever the queue's length. */
export async function reviewQueue(date: string, { timeZone }: { timeZone: string }) {
  const range = date === ALL_DAYS ? 'all' : zonedDayRange(date, timeZone)
  const [ads, revisions, adCounts, revisionCounts] = await Promise.all([
    listReviewQueue(date, { timeZone }),
    listPendingRevisions(range),
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
  return {
    otherDays,
    otherDaysTotal: otherDays.reduce((sum, day) => sum + day.count, 0),
    events: [
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
    ],
  }
}
