/** Running an ad again: a new unpaid ad made from one the business has paid for. */
import type { Transaction } from '#db/client.server.ts'
import { events, type Event } from '#db/schema.ts'
import { practicalFactColumns } from '#app/models/ads/practical-facts.ts'
import { wasPaidFor } from '#app/models/payments/settled.ts'

/**
 * The ad's content a new run starts from; everything else (dates, price, statuses, payment, review, media) starts
 * afresh. A content column added to ads belongs here when a new run should keep it.
 */
export const runAgainCopiedColumns = [
  'eventTitle',
  'eventDescription',
  'category',
  'contactPerson',
  'contactPhone',
  'contactEmail',
  ...practicalFactColumns,
  'startTime',
  'endTime',
] as const satisfies ReadonlyArray<keyof Event>

type CopiedContent = Pick<Event, (typeof runAgainCopiedColumns)[number]>

/** Whether an ad may be run again: it was paid for (live, ended, awaiting review, or refunded after a rejection). */
export function canRunAgain(event: Pick<Event, 'paymentStatus'>) {
  return wasPaidFor(event.paymentStatus)
}

/** Where the "Run again" button posts. */
export function runAgainPath(eventID: number) {
  return `/dashboard/events/${eventID}/run-again`
}

/**
 * Inserts the new run of `source` for its business: its content, the given categories (those still offered), no
 * dates, unpaid and not yet approved by the advertiser; returns its id and creation time.
 */
export async function insertRunAgainCopy(
  tx: Transaction,
  source: Event,
  { businessName, category }: { businessName: string; category: string[] },
) {
  const content = Object.fromEntries(
    runAgainCopiedColumns.map((column) => [column, source[column]]),
  ) as CopiedContent
  const [row] = await tx
    .insert(events)
    .values({ ...content, category, businessID: source.businessID, businessName })
    .returning({ eventID: events.eventID, createdDate: events.createdDate })
  return row!
}
