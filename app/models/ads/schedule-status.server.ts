/** A live ad's schedule status as stored: read for a change, and changed only if no other change came first. */
import { and, eq, gte, isNull, sql } from 'drizzle-orm'
import { db, type Transaction } from '#db/client.server.ts'
import { events } from '#db/schema.ts'
import { LIVE_STATUSES } from './event-status.ts'
import type { ScheduleStatus } from './schedule-status.ts'
import { showDateBounds } from './event-dates.ts'
import type { NewDates } from './new-dates.ts'
import { announcePublicPagesChanged } from '#app/models/calendar/public-pages-changes.server.ts'

type Executor = Transaction | typeof db

/** What a status change needs to know of an ad; null when there is no such ad. */
export async function scheduleStateOf(executor: Executor, eventID: number) {
  const [row] = await executor
    .select({
      eventID: events.eventID,
      businessID: events.businessID,
      eventTitle: events.eventTitle,
      eventStatus: events.eventStatus,
      paymentStatus: events.paymentStatus,
      lastShowDate: events.lastShowDate,
      scheduleStatus: events.scheduleStatus,
      scheduleNote: events.scheduleNote,
      eventDate: events.eventDate,
      showAdOnDates: events.showAdOnDates,
      daysOrdered: events.daysOrdered,
    })
    .from(events)
    .where(eq(events.eventID, eventID))
    .limit(1)
  return row ?? null
}

export type ScheduleState = NonNullable<Awaited<ReturnType<typeof scheduleStateOf>>>

/**
 * Sets the ad's status (null: back on) and note, stamped now, if the ad is still live on `today` and its status is
 * still `from` (what the caller read): of two changes at once, the second finds the row changed and sets nothing.
 * A postponed ad back on may get `newDates` (new-dates.ts) with the next date it had before them. The calendar
 * sequence is raised by the table's trigger. Returns the changed row's stamp and sequence, or null.
 */
export async function setScheduleStatus(
  tx: Transaction,
  {
    eventID,
    from,
    to,
    note,
    today,
    newDates,
  }: {
    eventID: number
    from: string | null
    to: ScheduleStatus | null
    note: string
    today: string
    newDates?: NewDates | null
  },
) {
  const dates = newDates
    ? {
        eventDate: newDates.eventDate,
        showAdOnDates: newDates.showAdOnDates,
        ...showDateBounds(newDates.eventDate, newDates.showAdOnDates),
        previousStartDate: newDates.previousStartDate,
      }
    : {}
  const [row] = await tx
    .update(events)
    .set({ scheduleStatus: to, scheduleNote: note, scheduleChangedAt: sql`now()`, ...dates })
    .where(
      and(
        eq(events.eventID, eventID),
        eq(events.eventStatus, LIVE_STATUSES.eventStatus),
        eq(events.paymentStatus, LIVE_STATUSES.paymentStatus),
        gte(events.lastShowDate, today),
        from === null ? isNull(events.scheduleStatus) : eq(events.scheduleStatus, from),
      ),
    )
    .returning({
      scheduleChangedAt: events.scheduleChangedAt,
      calendarSequence: events.calendarSequence,
    })
  // Every cached listing, event page and feed shows the status from the next request on, on every server.
  if (row) await announcePublicPagesChanged(tx)
  return row ?? null
}
