/**
 * The subscribers' scheduled emails, queued through the outbox (the mail worker sends them; /admin/outbox lists
 * them): the digests of saved searches — daily for "as they go live", weekly on DIGEST_DAY — with the new events of
 * followed businesses (daily, in the same run), and the reminders of
 * events that are on tomorrow, from DIGEST_HOUR in the platform time zone. Each runs under runJobOnce, so one server
 * does it per day. An email's dedupe key names its period: a second run in the same period queues nothing again.
 */
import { Counter } from 'prom-client'
import { calendarHref } from '#app/models/calendar/calendar-links.ts'
import { eventPageUrl } from '#app/models/ads/event-address.ts'
import { eventLocation } from '#app/models/ads/event-links.ts'
import { runJobOnce, type JobOutcome } from '#app/models/platform/job-runs.server.ts'
import { enqueueMessage, enqueueMessages, type NewMessage } from '#app/models/mail/outbox.server.ts'
import {
  businessesNews,
  confirmedFollows,
  confirmedSearches,
  EVENTS_PER_EMAIL,
  markCovered,
  remindersDue,
  scheduleChangedAds,
  searchMatches,
  searchMatchesAmong,
  type ListedEventRow,
  type ScheduleChangeRow,
} from '#app/models/subscriptions/subscription-matches.server.ts'
import {
  digestMail,
  followMail,
  reminderMail,
  unsubscribeHeaders,
  type ListedEvent,
} from '#app/models/subscriptions/subscription-mail.ts'
import { describeSearch, storedSearchFilters } from '#app/models/subscriptions/subscription-rules.ts'
import { businessPagePath } from '#app/models/calendar/business-links.ts'
import { deleteSubscription, deleteUnconfirmedBefore } from '#app/models/subscriptions/subscription.server.ts'
import type { CalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import type { Subscription } from '#db/schema.ts'
import { recordSubscriptionRun } from '#app/models/subscriptions/subscription-runs.server.ts'
import { formatDatesLine } from '#app/utils/format.ts'
import { UNSET_DATE } from '#app/constants.ts'
import { hasOnlyDemoBusinesses } from '#app/models/accounts/business.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import {
  eventTimesOf,
  formatEventWhen,
  formatTimeOfDay,
  formatTimeRange,
} from '#app/models/ads/event-times.ts'
import {
  BACK_ON,
  SCHEDULE_CHOICE_LABELS,
  SCHEDULE_STATUS_LABELS,
  scheduleStatusOf,
} from '#app/models/ads/schedule-status.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { db } from '#db/client.server.ts'
import { yieldToRequests } from '#db/background-work.server.ts'
import { linkOrigin } from '../http/site-url.server.ts'
import { getEnv } from '../platform/env.server.ts'
import { logError } from '../platform/logger.server.ts'
import { registers } from '../platform/metrics.server.ts'
import { subscriberLinks } from './subscriber-links.server.ts'

export const DIGEST_JOB = 'subscription-digests'
export const REMINDER_JOB = 'subscription-reminders'
export const UNCONFIRMED_PURGE_JOB = 'subscription-unconfirmed-purge'
const HOUR_MS = 60 * 60 * 1000
/** A scheduled run once a day: the hourly rounds after the first of the day skip it. */
const ONCE_A_DAY_MS = 20 * HOUR_MS
export const UNCONFIRMED_TTL_MS = 7 * 24 * HOUR_MS
const PAGE_SIZE = 500
/** Digest queries asked ahead of the one being written up. */
const QUERIES_AHEAD = 2

const queuedEmails = new Counter({
  name: 'eventshout_subscriber_emails_queued_total',
  help: 'Subscriber emails queued in the outbox by the scheduled jobs, by kind (digest, follow, reminder).',
  labelNames: ['kind'] as const,
  registers,
})

export interface SubscriberRunResult {
  checked: number
  queued: number
  durationMs: number
  /** The digest job's part for followed businesses (included in the totals). */
  follows?: { checked: number; queued: number; durationMs: number }
}

/** The event's own date and time ("Sat, Nov 29 · 7:30 PM – 10 PM"), or its display dates and time. */
function whenOf(row: ListedEventRow) {
  const times = eventTimesOf(row)
  if (row.eventDate !== UNSET_DATE) return formatEventWhen(row.eventDate, times)
  const range = formatTimeRange(times)
  const dates = formatDatesLine(row.showAdOnDates, row.eventDate)
  return range ? `${dates} · ${range}` : dates
}

/** "tomorrow at 7:30 PM", or "tomorrow, all day". */
export function tomorrowText(row: Pick<ListedEventRow, 'startTime' | 'endTime'>) {
  const { startTime } = eventTimesOf(row)
  return startTime ? `tomorrow at ${formatTimeOfDay(startTime)}` : 'tomorrow, all day'
}

/** What a digest says of a changed event's status: its label, or "Back on". */
function changedStatusLabel(status: string | null) {
  const known = scheduleStatusOf(status)
  return known ? SCHEDULE_STATUS_LABELS[known] : SCHEDULE_CHOICE_LABELS[BACK_ON]
}

/**
 * The changes a subscriber's digest lists: the ads an earlier digest of theirs listed (approved after they confirmed
 * and up to their mark) that their search matches and whose status changed after the mark.
 */
function changesFor(
  subscription: Subscription,
  changed: ScheduleChangeRow[],
  matching: Set<number>,
  now: Date,
) {
  const mark = subscription.coveredUntil
  const confirmedAt = subscription.confirmedAt
  if (!mark || !confirmedAt) return []
  return changed.filter(
    (row) =>
      matching.has(row.eventID) &&
      row.reviewedAt !== null &&
      row.reviewedAt > confirmedAt &&
      row.reviewedAt <= mark &&
      row.scheduleChangedAt !== null &&
      row.scheduleChangedAt > mark &&
      row.scheduleChangedAt <= now,
  )
}

function listed(row: ListedEventRow, origin: string): ListedEvent {
  return {
    eventID: row.eventID,
    eventTitle: row.eventTitle,
    when: whenOf(row),
    where: eventLocation(row),
    href: eventPageUrl(row, origin),
  }
}

/** The platform's date and hour, and its weekday (0 = Sunday), at `now`. */
export function platformClock(now: Date) {
  const zone = getEnv().APP_TIME_ZONE
  const today = todayInZone(zone, now)
  const hour = Number(
    new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', hourCycle: 'h23' }).format(now),
  )
  return { today, hour, weekday: new Date(`${today}T00:00:00Z`).getUTCDay() }
}

/** Emails written together, in one short transaction: fewer commits, and the site's queries wait less. */
const WRITE_BATCH = 50

interface QueuedDigest {
  subscriptionId: number
  message: NewMessage & { dedupeKey: string }
}

/**
 * Queues a batch of digests and moves the marks of the subscriptions whose email is new: one already queued for the
 * period (a second run the same day) leaves the news for the next period. Returns how many were queued.
 */
async function queueBatch(batch: QueuedDigest[], now: Date) {
  if (batch.length === 0) return 0
  return db.transaction(async (tx) => {
    const queuedKeys = new Set(
      await enqueueMessages(
        tx,
        batch.map((digest) => digest.message),
      ),
    )
    const queued = batch.filter((digest) => queuedKeys.has(digest.message.dedupeKey))
    await markCovered(
      tx,
      queued.map((digest) => digest.subscriptionId),
      now,
    )
    return queued.length
  })
}

/** Queues the digests of the saved searches of these frequencies that have news; returns what it did. */
export async function queueDigests(frequencies: Array<'weekly' | 'daily'>, now = new Date()) {
  const started = performance.now()
  const { today } = platformClock(now)
  const origin = linkOrigin()
  let checked = 0
  let queued = 0
  const batch: QueuedDigest[] = []
  // Subscribers with the same search, frequency and mark share one query's answer (a mark is usually the last run's).
  const answers = new Map<string, ReturnType<typeof searchMatches>>()
  // The ads whose status changed (usually none); which of them a search matches is asked once per search.
  const changed = (await scheduleChangedAds(today)).filter(
    (row) => row.scheduleChangedAt !== null && row.scheduleChangedAt <= now,
  )
  const changedIDs = changed.map((row) => row.eventID)
  const changedMatches = new Map<string, Promise<Set<number>>>()
  const changedMatchesOf = (filters: CalendarFilters) => {
    const key = JSON.stringify(filters)
    let answer = changedMatches.get(key)
    if (!answer) {
      answer = searchMatchesAmong(filters, changedIDs, today)
      changedMatches.set(key, answer)
    }
    return answer
  }
  const matchesOf = (subscription: Subscription, filters: CalendarFilters) => {
    const since = subscription.coveredUntil ?? subscription.confirmedAt!
    const key = `${subscription.frequency}|${since.getTime()}|${JSON.stringify(filters)}`
    let answer = answers.get(key)
    if (!answer) {
      answer = searchMatches(filters, {
        today,
        since,
        until: now,
        comingWeekTo: subscription.frequency === 'weekly' ? addDaysIso(today, 6) : undefined,
      })
      // Awaited in its turn below; a failure then stops the run.
      answer.catch(() => {})
      answers.set(key, answer)
    }
    return answer
  }
  for (let afterId = 0; ;) {
    const page = await confirmedSearches(frequencies, afterId, PAGE_SIZE)
    if (page.length === 0) break
    afterId = page.at(-1)!.id
    const searches = page.map((subscription) => ({
      subscription,
      filters: storedSearchFilters(subscription.filters),
    }))
    for (const [index, { subscription, filters }] of searches.entries()) {
      checked++
      await yieldToRequests()
      // The next searches' queries are already asked while this email is written.
      for (const next of searches.slice(index + 1, index + QUERIES_AHEAD + 1))
        void matchesOf(next.subscription, next.filters)
      const matches = await matchesOf(subscription, filters)
      const fresh = matches.filter((m) => m.fresh).slice(0, EVENTS_PER_EMAIL)
      const changes =
        changed.length && subscription.coveredUntil
          ? changesFor(subscription, changed, await changedMatchesOf(filters), now).slice(0, EVENTS_PER_EMAIL)
          : []
      if (fresh.length === 0 && changes.length === 0) continue
      const comingWeek = matches.filter((m) => !m.fresh).slice(0, EVENTS_PER_EMAIL)
      const links = subscriberLinks(subscription.id, origin)
      const mail = digestMail({
        search: describeSearch(filters),
        fresh: fresh.map((row) => listed(row, origin)),
        comingWeek: comingWeek.map((row) => listed(row, origin)),
        changes: changes.map((row) => ({
          ...listed(row, origin),
          status: changedStatusLabel(row.scheduleStatus),
          note: row.scheduleNote,
        })),
        calendarHref: `${origin}${calendarHref(filters)}`,
        links,
      })
      batch.push({
        subscriptionId: subscription.id,
        message: {
          kind: 'subscription-digest',
          to: subscription.email,
          ...mail,
          headers: unsubscribeHeaders(links),
          dedupeKey: `digest:${subscription.id}:${subscription.frequency}:${today}`,
        },
      })
      if (batch.length >= WRITE_BATCH) queued += await queueBatch(batch.splice(0), now)
    }
  }
  queued += await queueBatch(batch, now)
  queuedEmails.inc({ kind: 'digest' }, queued)
  return { checked, queued, durationMs: Math.round(performance.now() - started) }
}

/**
 * Queues, for each confirmed follow of a business that has a page, one email with the business's live ads approved
 * since the follower's last email (or confirmation): each ad once, since the mark moves with the email. A page of
 * follows costs one query for the news of all their businesses.
 */
export async function queueFollows(now = new Date()) {
  const started = performance.now()
  const { today } = platformClock(now)
  const origin = linkOrigin()
  let checked = 0
  let queued = 0
  const batch: QueuedDigest[] = []
  for (let afterId = 0; ;) {
    const page = await confirmedFollows(afterId, PAGE_SIZE, today)
    if (page.length === 0) break
    afterId = page.at(-1)!.subscription.id
    const marks = page.map(({ subscription }) => subscription.coveredUntil ?? subscription.confirmedAt!)
    const since = new Date(Math.min(...marks.map((mark) => mark.getTime())))
    const businessIDs = [...new Set(page.map(({ subscription }) => subscription.businessID!))]
    const news = await businessesNews(businessIDs, { today, since, until: now })
    for (const [index, { subscription, businessName }] of page.entries()) {
      checked++
      await yieldToRequests()
      const mark = marks[index]!
      const fresh = news
        .filter((row) => row.businessID === subscription.businessID && row.reviewedAt! > mark)
        .slice(0, EVENTS_PER_EMAIL)
      if (fresh.length === 0) continue
      const links = subscriberLinks(subscription.id, origin)
      const pageHref = new URL(
        businessPagePath(subscription.businessID!, businessName),
        `${origin}/`,
      ).toString()
      batch.push({
        subscriptionId: subscription.id,
        message: {
          kind: 'subscription-follow',
          to: subscription.email,
          ...followMail({ businessName, fresh: fresh.map((row) => listed(row, origin)), pageHref, links }),
          headers: unsubscribeHeaders(links),
          dedupeKey: `follow:${subscription.id}:${today}`,
        },
      })
      if (batch.length >= WRITE_BATCH) queued += await queueBatch(batch.splice(0), now)
    }
  }
  queued += await queueBatch(batch, now)
  queuedEmails.inc({ kind: 'follow' }, queued)
  return { checked, queued, durationMs: Math.round(performance.now() - started) }
}

/** The digests, then the follows: one run of the digest job. */
async function queueDigestsAndFollows(
  frequencies: Array<'weekly' | 'daily'>,
  now: Date,
): Promise<SubscriberRunResult> {
  const digests = await queueDigests(frequencies, now)
  const follows = await queueFollows(now)
  return {
    checked: digests.checked + follows.checked,
    queued: digests.queued + follows.queued,
    durationMs: digests.durationMs + follows.durationMs,
    follows,
  }
}

/** Queues the reminders of the events that are on tomorrow and deletes those subscriptions: one email each. */
export async function queueReminders(now = new Date()) {
  const started = performance.now()
  const { today } = platformClock(now)
  const tomorrow = addDaysIso(today, 1)
  const origin = linkOrigin()
  let checked = 0
  let queued = 0
  for (let afterId = 0; ;) {
    const page = await remindersDue({ today, tomorrow }, afterId, PAGE_SIZE)
    if (page.length === 0) break
    afterId = page.at(-1)!.subscription.id
    for (const { subscription, event } of page) {
      checked++
      const links = subscriberLinks(subscription.id, origin)
      await db.transaction(async (tx) => {
        const id = await enqueueMessage(tx, {
          kind: 'subscription-reminder',
          to: subscription.email,
          ...reminderMail({
            event: {
              ...listed(event, origin),
              when: `${formatEventWhen(tomorrow, eventTimesOf(event))} (tomorrow)`,
            },
            tomorrow: tomorrowText(event),
            links,
          }),
          headers: unsubscribeHeaders(links),
          dedupeKey: `reminder:${subscription.id}:${tomorrow}`,
        })
        await deleteSubscription(tx, subscription.id)
        if (id !== null) queued++
      })
    }
  }
  queuedEmails.inc({ kind: 'reminder' }, queued)
  return { checked, queued, durationMs: Math.round(performance.now() - started) }
}

export type SubscriberJob = 'digests' | 'reminders'

/**
 * A command run outside the server (a shell without its settings) refuses to queue emails whose links would point at
 * this machine: without PUBLIC_URL they would say http://localhost:3000, which only the local demo may.
 */
export async function refuseLocalLinksOutsideTheDemo() {
  if (getEnv().PUBLIC_URL || (await hasOnlyDemoBusinesses())) return
  throw new AppError(
    `PUBLIC_URL is not set, so the emails would link to ${linkOrigin()}. Run this with the server’s settings (PUBLIC_URL=https://…).`,
    'invalid',
  )
}

/**
 * Runs a job now (`npm run jobs -- digests --now`), or when it is due (the hourly round): at DIGEST_HOUR or later,
 * once a day. Digests: the daily ones every day, the weekly ones on DIGEST_DAY (and with --now). Each run is recorded
 * for /admin/subscriptions.
 */
export async function runSubscriberJob(
  job: SubscriberJob,
  { now = new Date(), force = false }: { now?: Date; force?: boolean } = {},
): Promise<JobOutcome<SubscriberRunResult> | null> {
  const { hour, weekday } = platformClock(now)
  const { DIGEST_HOUR, DIGEST_DAY } = getEnv()
  if (!force && hour < DIGEST_HOUR) return null
  const notWithinMs = force ? 0 : ONCE_A_DAY_MS
  const outcome =
    job === 'digests'
      ? await runJobOnce(DIGEST_JOB, { notWithinMs, now }, () =>
          queueDigestsAndFollows(force || weekday === DIGEST_DAY ? ['weekly', 'daily'] : ['daily'], now),
        )
      : await runJobOnce(REMINDER_JOB, { notWithinMs, now }, () => queueReminders(now))
  if (outcome.ran) {
    const { checked, queued, durationMs } = outcome.result
    await recordSubscriptionRun({ job, startedAt: now, checked, queued, durationMs })
  }
  return outcome
}

/** Deletes the subscriptions whose confirmation link was never followed within 7 days. */
export async function purgeUnconfirmedSubscriptions(now = new Date()) {
  return deleteUnconfirmedBefore(new Date(now.getTime() - UNCONFIRMED_TTL_MS))
}

/** The hourly round's part: each job when due, once across all servers; what a run did is logged. */
export async function runScheduledSubscriberJobs(now = new Date()) {
  for (const job of ['digests', 'reminders'] as const) {
    try {
      const outcome = await runSubscriberJob(job, { now })
      if (outcome?.ran)
        console.info(
          `Subscriber ${job}: ${outcome.result.queued} email(s) queued for ${outcome.result.checked} subscription(s) in ${outcome.result.durationMs} ms`,
        )
    } catch (error) {
      logError(error, { msg: `Queueing the subscriber ${job} failed` })
    }
  }
  try {
    const purge = await runJobOnce(UNCONFIRMED_PURGE_JOB, { notWithinMs: HOUR_MS / 2, now }, () =>
      purgeUnconfirmedSubscriptions(now),
    )
    if (purge.ran && purge.result) console.info(`Deleted ${purge.result} unconfirmed subscription(s)`)
  } catch (error) {
    logError(error, { msg: 'Deleting unconfirmed subscriptions failed' })
  }
}
