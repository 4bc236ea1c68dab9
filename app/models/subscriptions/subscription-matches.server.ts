/**
 * What the subscribers' emails list: each saved search's matches are one query built from the calendar's own filter
 * SQL (calendar-filter-sql.server.ts), and the reminders due tomorrow one query for a page of subscriptions.
 */
import {
  and,
  asc,
  desc,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  lte,
  notInArray,
  or,
  sql,
  type SQL,
} from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { business, events, subscriptions, type Subscription } from '#db/schema.ts'
import type { CalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import {
  filterConditions,
  joinBusiness,
  liveEventConditions,
  showsInWindow,
} from '#app/models/calendar/calendar-filter-sql.server.ts'
import { UNSET_DATE } from '#app/constants.ts'
import { hasBusinessPage } from '#app/models/calendar/business-page.server.ts'
import type { ScheduleStatus } from '#app/models/ads/schedule-status.ts'

const OFF_STATUSES: ScheduleStatus[] = ['cancelled', 'postponed']

/** At most this many events in one email. */
export const EVENTS_PER_EMAIL = 20

const listedColumns = {
  eventID: events.eventID,
  eventTitle: events.eventTitle,
  eventDate: events.eventDate,
  showAdOnDates: events.showAdOnDates,
  startTime: events.startTime,
  endTime: events.endTime,
  businessName: business.businessName,
  businessAddress: business.businessAddress,
  businessCity: business.businessCity,
  businessState: business.businessState,
  businessZip: business.businessZip,
}

export type ListedEventRow = {
  [K in Exclude<keyof typeof listedColumns, 'startTime' | 'endTime'>]: (typeof listedColumns)[K]['_']['data']
} & { startTime: string | null; endTime: string | null }

/** The live event's title, or null when it is not live. */
export async function getLiveEventTitle(eventID: number, today: string) {
  const [row] = await db
    .select({ eventTitle: events.eventTitle })
    .from(events)
    .where(and(eq(events.eventID, eventID), ...liveEventConditions(today)))
    .limit(1)
  return row?.eventTitle ?? null
}

interface SearchWindow {
  today: string
  since: Date
  until: Date
  comingWeekTo?: string
}

/**
 * The live events matching a saved search that are news (approved after `since` and up to `until`) and, with
 * `comingWeekTo`, the others with a date from today to that day: one query, at most EVENTS_PER_EMAIL of each, the new
 * ones first, then soonest first. Each part is ranked on its own, so a week of much news still lists what is on; the
 * events and businesses are read only for the rows an email lists.
 */
function searchMatchesQuery(filters: CalendarFilters, { today, since, until, comingWeekTo }: SearchWindow) {
  const fresh = and(gt(events.reviewedAt, since), lte(events.reviewedAt, until))!
  // In the conditions as it is, so the index of approval times can answer it; ranked as true or false.
  const isFresh = sql<boolean>`coalesce(${fresh}, false)`
  const wanted: SQL = comingWeekTo
    ? or(fresh, showsInWindow(events.eventID, { ...filters, from: today, to: comingWeekTo }))!
    : fresh
  const matching = joinBusiness(
    db
      .select({
        id: sql<number>`${events.eventID}`.as('id'),
        fresh: isFresh.as('fresh'),
        first: sql<string>`${events.firstShowDate}`.as('first'),
        rank: sql<number>`row_number() OVER (PARTITION BY ${isFresh} ORDER BY ${events.firstShowDate}, ${events.eventID})`.as(
          'rank',
        ),
      })
      .from(events)
      .$dynamic(),
    filters,
  )
    .where(and(...liveEventConditions(today), ...filterConditions(filters), wanted))
    .as('matching')
  const order = [desc(sql`fresh`), asc(sql`first`), asc(sql`id`)]
  const listedRows = db
    .select({ id: matching.id, fresh: matching.fresh, first: matching.first })
    .from(matching)
    .where(lte(matching.rank, EVENTS_PER_EMAIL))
    .orderBy(...order)
    .limit(2 * EVENTS_PER_EMAIL)
    .as('listed')
  return db
    .select({ ...listedColumns, fresh: listedRows.fresh })
    .from(listedRows)
    .innerJoin(events, eq(events.eventID, listedRows.id))
    .innerJoin(business, eq(business.businessID, events.businessID))
    .orderBy(desc(listedRows.fresh), asc(listedRows.first), asc(listedRows.id))
}

/** What `searchMatchesQuery` finds, run once: a promise the digest job can share among subscribers (a query
 * builder would run again at each `await`). */
export async function searchMatches(
  filters: CalendarFilters,
  window: SearchWindow,
): Promise<Array<ListedEventRow & { fresh: boolean }>> {
  return searchMatchesQuery(filters, window)
}

/** A page of confirmed saved searches of these frequencies, by id after `afterId`. */
export async function confirmedSearches(frequencies: string[], afterId: number, limit: number) {
  return db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.kind, 'search'),
        inArray(subscriptions.frequency, frequencies),
        isNotNull(subscriptions.confirmedAt),
        gt(subscriptions.id, afterId),
      ),
    )
    .orderBy(asc(subscriptions.id))
    .limit(limit)
}

/**
 * A page of confirmed reminders whose live event is on `tomorrow`: its own date, or (without one) one of its display
 * dates. With the event, for the email.
 */
export async function remindersDue(
  { today, tomorrow }: { today: string; tomorrow: string },
  afterId: number,
  limit: number,
): Promise<Array<{ subscription: Subscription; event: ListedEventRow }>> {
  return db
    .select({ subscription: subscriptions, event: listedColumns })
    .from(subscriptions)
    .innerJoin(events, eq(events.eventID, subscriptions.eventID))
    .innerJoin(business, eq(business.businessID, events.businessID))
    .where(
      and(
        eq(subscriptions.kind, 'reminder'),
        isNotNull(subscriptions.confirmedAt),
        gt(subscriptions.id, afterId),
        ...liveEventConditions(today),
        // No reminder of an event that is off: its subscribers were told at the change.
        or(isNull(events.scheduleStatus), notInArray(events.scheduleStatus, OFF_STATUSES)),
        or(
          eq(events.eventDate, tomorrow),
          and(eq(events.eventDate, UNSET_DATE), sql`${events.showAdOnDates} @> ARRAY[${tomorrow}]::date[]`),
        ),
      ),
    )
    .orderBy(asc(subscriptions.id))
    .limit(limit)
}

/** Moves saved searches' marks past the ads they have been told about. */
export async function markCovered(executor: Pick<typeof db, 'update'>, ids: number[], until: Date) {
  if (ids.length === 0) return
  await executor.update(subscriptions).set({ coveredUntil: until }).where(inArray(subscriptions.id, ids))
}

/** The confirmed "Remind me" subscriptions of one event: who is told at once when its status changes. */
export async function confirmedRemindersOf(executor: Pick<typeof db, 'select'>, eventID: number) {
  return executor
    .select({ id: subscriptions.id, email: subscriptions.email })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.kind, 'reminder'),
        eq(subscriptions.eventID, eventID),
        isNotNull(subscriptions.confirmedAt),
      ),
    )
    .orderBy(asc(subscriptions.id))
}

/**
 * The live ads whose schedule status was ever changed, for the digests' "Changes" (each subscriber's are those changed
 * since its last email): one query a run, answering few rows (the events_schedule_status_idx ones and those back on).
 */
export async function scheduleChangedAds(today: string) {
  return db
    .select({
      ...listedColumns,
      reviewedAt: events.reviewedAt,
      scheduleStatus: events.scheduleStatus,
      scheduleNote: events.scheduleNote,
      scheduleChangedAt: events.scheduleChangedAt,
    })
    .from(events)
    .innerJoin(business, eq(business.businessID, events.businessID))
    .where(and(...liveEventConditions(today), isNotNull(events.scheduleChangedAt)))
    .orderBy(asc(events.firstShowDate), asc(events.eventID))
}

export type ScheduleChangeRow = Awaited<ReturnType<typeof scheduleChangedAds>>[number]

/** Which of these ads (ids) a saved search matches: one query a search, asked only when some ad changed. */
export async function searchMatchesAmong(filters: CalendarFilters, eventIDs: number[], today: string) {
  if (eventIDs.length === 0) return new Set<number>()
  const rows = await joinBusiness(
    db.select({ eventID: events.eventID }).from(events).$dynamic(),
    filters,
  ).where(and(inArray(events.eventID, eventIDs), ...liveEventConditions(today), ...filterConditions(filters)))
  return new Set(rows.map((row) => row.eventID))
}

/**
 * A page of confirmed follows (kind business) of businesses that have a page today, by id after `afterId`, with the
 * business's name: a business whose page is off, or that has no live ad, has no news for its followers.
 */
export async function confirmedFollows(afterId: number, limit: number, today: string) {
  return db
    .select({ subscription: subscriptions, businessName: business.businessName })
    .from(subscriptions)
    .innerJoin(business, eq(business.businessID, subscriptions.businessID))
    .where(
      and(
        eq(subscriptions.kind, 'business'),
        eq(subscriptions.frequency, 'daily'),
        isNotNull(subscriptions.confirmedAt),
        gt(subscriptions.id, afterId),
        ...hasBusinessPage(today),
      ),
    )
    .orderBy(asc(subscriptions.id))
    .limit(limit)
}

/**
 * The live ads of these businesses approved after `since` and up to `until`, soonest first: what their followers
 * have not been told of yet (each follower's own mark is at or after `since`).
 */
export async function businessesNews(
  businessIDs: number[],
  { today, since, until }: { today: string; since: Date; until: Date },
) {
  if (businessIDs.length === 0) return []
  return db
    .select({ ...listedColumns, businessID: events.businessID, reviewedAt: events.reviewedAt })
    .from(events)
    .innerJoin(business, eq(business.businessID, events.businessID))
    .where(
      and(
        inArray(events.businessID, businessIDs),
        ...liveEventConditions(today),
        gt(events.reviewedAt, since),
        lte(events.reviewedAt, until),
      ),
    )
    .orderBy(asc(events.firstShowDate), asc(events.eventID))
}

export type BusinessNewsRow = Awaited<ReturnType<typeof businessesNews>>[number]
