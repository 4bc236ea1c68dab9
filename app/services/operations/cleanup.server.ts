/**
 * The hourly jobs: removing ads that were saved but never paid for (a day after they were saved, with their
 * media), purging expired sessions and sign-in attempts, old emails from the outbox, and ended ads from the keyword
 * search's table; once a day, the
 * administrators' moderation digest and the share images of ads no longer live. Every server schedules
 * them; one runs each per hour. The embedded database is also vacuumed once a day, at night in the platform's time
 * zone.
 */
import {
  deleteEndedAdTexts,
  vacuumEmbeddedDatabase,
} from '#app/models/platform/database-maintenance.server.ts'
import { runJobOnce } from '#app/models/platform/job-runs.server.ts'
import { asBackgroundWork } from '#db/background-work.server.ts'
import { deleteOldMessages } from '#app/models/mail/outbox.server.ts'
import {
  deleteUnpaidEvent,
  listEventMediaUrls,
  listUnpaidEventsCreatedBefore,
} from '#app/models/ads/unpaid-drafts.server.ts'
import { getEnv } from '../platform/env.server.ts'
import { logError } from '../platform/logger.server.ts'
import { endedAdTextsRemoved } from '../platform/metrics.server.ts'
import { deleteStoredMedia } from '../media/media.server.ts'
import { deleteShareImagesOfEventsNotLive } from '../media/share-images.server.ts'
import { UNPAID_EVENT_TTL_MS } from '../payments/payment-rules.server.ts'
import { settleOpenPayments } from '../payments/payment-setup.server.ts'
import { deleteExpiredAttempts } from '../platform/rate-limit.server.ts'
import { deleteExpiredSessions } from '../http/session.server.ts'
import { runScheduledSubscriberJobs } from '../subscriptions/subscriber-jobs.server.ts'
import { runModerationDigestJob } from '../moderation/queue-health.server.ts'

export const CLEANUP_INTERVAL_MS = 60 * 60 * 1000
/** A server skips a scheduled run when another started one this recently. */
const RUN_AT_MOST_EVERY_MS = CLEANUP_INTERVAL_MS / 2
export const UNPAID_CLEANUP_JOB = 'unpaid-events-cleanup'
export const EXPIRED_ROWS_JOB = 'expired-sign-ins-purge'
export const DATABASE_MAINTENANCE_JOB = 'embedded-database-vacuum'
/** The platform's local hours (from, to) in which the embedded database is vacuumed: it holds every request up. */
const MAINTENANCE_HOURS = [2, 5] as const
export const OUTBOX_PURGE_JOB = 'outbox-purge'
export const ENDED_AD_TEXTS_JOB = 'ended-ads-search-purge'
export const SHARE_IMAGES_SWEEP_JOB = 'share-images-sweep'
const DAY_MS = 24 * 60 * 60 * 1000
/** How long the outbox keeps a sent email, and one it gave up on (administrators read both at /admin/outbox). */
export const SENT_MAIL_RETENTION_MS = 30 * DAY_MS
export const FAILED_MAIL_RETENTION_MS = 90 * DAY_MS
/** The first run waits a little, so it does not compete with start-up. */
const FIRST_RUN_DELAY_MS = 30 * 1000

export interface CleanupResult {
  removed: number[]
  /** Old drafts kept: paid meanwhile (recorded now), or their payment could not be checked this time. */
  kept: number[]
}

export async function cleanupUnpaidEvents(now: Date = new Date()): Promise<CleanupResult> {
  const cutoff = new Date(now.getTime() - UNPAID_EVENT_TTL_MS)
  const result: CleanupResult = { removed: [], kept: [] }
  for (const event of await listUnpaidEventsCreatedBefore(cutoff)) {
    if ((await settleOpenPayments(event.eventID)) !== 'unpaid') {
      result.kept.push(event.eventID)
      continue
    }
    const media = [event.stillPhotoURL, event.videoURL, ...(await listEventMediaUrls(event.eventID))].filter(
      Boolean,
    )
    // The row goes first: if it got paid in the meantime the delete matches nothing and the files stay.
    if (await deleteUnpaidEvent(event.eventID, cutoff)) {
      await deleteStoredMedia(new Set(media))
      result.removed.push(event.eventID)
    } else {
      result.kept.push(event.eventID)
    }
  }
  return result
}

export interface PurgeResult {
  sessions: number
  signInAttempts: number
}

/** Deletes sessions past their expiry and sign-in attempts whose window has passed. */
export async function purgeExpiredSignIns(now: Date = new Date()): Promise<PurgeResult> {
  return {
    sessions: await deleteExpiredSessions(now),
    signInAttempts: await deleteExpiredAttempts({ now }),
  }
}

/** Deletes emails sent more than 30 days ago and failed ones queued more than 90 days ago; never unsent ones. */
export async function purgeOldMail(now: Date = new Date()) {
  return deleteOldMessages({
    sentBefore: new Date(now.getTime() - SENT_MAIL_RETENTION_MS),
    failedBefore: new Date(now.getTime() - FAILED_MAIL_RETENTION_MS),
  })
}

const schedule = ((
  globalThis as { __eventshoutCleanup?: { timer?: NodeJS.Timeout; running?: Promise<void> } }
).__eventshoutCleanup ??= {})

/**
 * Vacuums the embedded database once a day in the night hours, or whenever two days have passed without it (a
 * server that is never up at night). Returns the tables done, or null when it was not due.
 */
export async function maintainEmbeddedDatabase(now: Date = new Date()) {
  const hour = Number(
    new Intl.DateTimeFormat('en-US', {
      timeZone: getEnv().APP_TIME_ZONE,
      hour: 'numeric',
      hourCycle: 'h23',
    }).format(now),
  )
  const night = hour >= MAINTENANCE_HOURS[0] && hour <= MAINTENANCE_HOURS[1]
  const run = await runJobOnce(
    DATABASE_MAINTENANCE_JOB,
    { notWithinMs: (night ? 20 : 48) * CLEANUP_INTERVAL_MS, now },
    vacuumEmbeddedDatabase,
  )
  return run.ran ? run.result : null
}

/** The scheduled jobs, each once per period across all servers; what a run did is logged. */
export async function runScheduledJobs(now: Date = new Date()) {
  try {
    const cleanup = await runJobOnce(UNPAID_CLEANUP_JOB, { notWithinMs: RUN_AT_MOST_EVERY_MS, now }, () =>
      cleanupUnpaidEvents(now),
    )
    if (cleanup.ran && cleanup.result.removed.length)
      console.info(`Removed ${cleanup.result.removed.length} unpaid event(s) older than a day`)
  } catch (error) {
    logError(error, { msg: 'Removing unpaid events failed' })
  }
  try {
    const purge = await runJobOnce(EXPIRED_ROWS_JOB, { notWithinMs: RUN_AT_MOST_EVERY_MS, now }, () =>
      purgeExpiredSignIns(now),
    )
    if (purge.ran && (purge.result.sessions || purge.result.signInAttempts))
      console.info(
        `Purged ${purge.result.sessions} expired session(s) and ${purge.result.signInAttempts} sign-in attempt record(s)`,
      )
  } catch (error) {
    logError(error, { msg: 'Purging expired sessions and sign-in attempts failed' })
  }
  try {
    const mail = await runJobOnce(OUTBOX_PURGE_JOB, { notWithinMs: RUN_AT_MOST_EVERY_MS, now }, () =>
      purgeOldMail(now),
    )
    if (mail.ran && (mail.result.sent || mail.result.failed))
      console.info(
        `Purged ${mail.result.sent} sent and ${mail.result.failed} failed email(s) from the outbox`,
      )
  } catch (error) {
    logError(error, { msg: 'Purging old emails from the outbox failed' })
  }
  try {
    const ended = await runJobOnce(
      ENDED_AD_TEXTS_JOB,
      { notWithinMs: RUN_AT_MOST_EVERY_MS, now },
      deleteEndedAdTexts,
    )
    if (ended.ran && ended.result) {
      endedAdTextsRemoved.inc(ended.result)
      console.info(`Removed ${ended.result} ended ad(s) from the keyword search`)
    }
  } catch (error) {
    logError(error, { msg: 'Removing ended ads from the keyword search failed' })
  }
  try {
    const swept = await runJobOnce(
      SHARE_IMAGES_SWEEP_JOB,
      { notWithinMs: 24 * CLEANUP_INTERVAL_MS - RUN_AT_MOST_EVERY_MS, now },
      deleteShareImagesOfEventsNotLive,
    )
    if (swept.ran && swept.result)
      console.info(`Removed ${swept.result} share image(s) of ads no longer live`)
  } catch (error) {
    logError(error, { msg: 'Removing the share images of ads no longer live failed' })
  }
  await runScheduledSubscriberJobs(now)
  try {
    const digests = await runModerationDigestJob(now)
    if (digests) console.info(`Queued the daily moderation digest to ${digests} administrator(s)`)
  } catch (error) {
    logError(error, { msg: 'Sending the daily moderation digest failed' })
  }
  try {
    const started = performance.now()
    const tables = await maintainEmbeddedDatabase(now)
    if (tables?.length)
      console.info(
        `Vacuumed and analysed the embedded database (${tables.length} tables) in ${Math.round(performance.now() - started)} ms`,
      )
  } catch (error) {
    logError(error, { msg: 'Vacuuming the embedded database failed' })
  }
}

/** One round at a time; a shutdown waits for the round under way. */
function runScheduledRound() {
  schedule.running ??= asBackgroundWork(() => runScheduledJobs()).finally(
    () => (schedule.running = undefined),
  )
}

/**
 * Runs the jobs inside the server: shortly after start, then hourly. Returns a function that stops the schedule and
 * resolves once a round under way has finished.
 */
export function startCleanupSchedule() {
  let first: NodeJS.Timeout | undefined
  if (!schedule.timer) {
    first = setTimeout(runScheduledRound, FIRST_RUN_DELAY_MS)
    first.unref()
    schedule.timer = setInterval(runScheduledRound, CLEANUP_INTERVAL_MS)
    schedule.timer.unref()
  }
  return async () => {
    clearTimeout(first)
    if (schedule.timer) clearInterval(schedule.timer)
    schedule.timer = undefined
    await schedule.running
  }
}
