import { adsWithOpenReports } from '#app/models/moderation/ad-report.server.ts'
import { runJobOnce } from '#app/models/platform/job-runs.server.ts'
import {
  adsWaitingSince,
  enqueueToAdministrators,
  queueHealth,
} from '#app/models/moderation/decision-times.server.ts'
import { isoDateInZone } from '#app/utils/time.ts'
import { linkOrigin } from '../http/site-url.server.ts'
import { getEnv } from '../platform/env.server.ts'
import { moderationDigestsSent } from '../platform/metrics.server.ts'
import { moderationDigestMail } from './moderation-mail.server.ts'

const HOUR_MS = 60 * 60 * 1000
/** An ad waiting longer than this is in the administrators' daily digest. */
export const DIGEST_WAIT_MS = 24 * HOUR_MS
export const MODERATION_DIGEST_JOB = 'moderation-digest'
/** The digest runs once a day across all servers (the hourly schedule finds it due once in 24 hours). */
const DIGEST_EVERY_MS = 23.5 * HOUR_MS
/** The most ads of each kind the email lists by name. */
const DIGEST_LIST_MAX = 20

/** "3 h", "2 d 5 h", "12 min": an age for the queue's figures. */
export function formatAge(seconds: number | null): string {
  if (seconds === null) return '—'
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return `${hours} h`
  return `${Math.floor(hours / 24)} d ${hours % 24} h`
}

/** The figures on /admin: ads waiting (of which auto-approved ads to check), the oldest one's age, the median time to a decision over 7 days, reports. */
export async function queueHealthView(now = new Date()) {
  const health = await queueHealth(now)
  return {
    waiting: health.waiting,
    checks: health.checks,
    oldestAge: formatAge(health.oldest ? (now.getTime() - health.oldest.getTime()) / 1000 : null),
    medianDecision: formatAge(health.medianDecisionSeconds),
    openReports: health.openReports.reports,
    reportedAds: health.openReports.ads,
  }
}

export type QueueHealthView = Awaited<ReturnType<typeof queueHealthView>>

/**
 * The administrators' digest: ads that have waited more than 24 hours (for a review, or for the check of an
 * auto-approved ad) and ads with open reports. Nothing is sent
 * when nothing waits. Once per platform day (a second run the same day queues nothing). Returns the emails queued.
 */
export async function sendModerationDigest(now = new Date(), origin = linkOrigin()): Promise<number> {
  const [waiting, reported] = await Promise.all([
    adsWaitingSince(new Date(now.getTime() - DIGEST_WAIT_MS), DIGEST_LIST_MAX),
    adsWithOpenReports(DIGEST_LIST_MAX),
  ])
  const waitingTotal = waiting[0]?.total ?? 0
  if (waitingTotal === 0 && reported.total === 0) return 0
  const mail = moderationDigestMail({
    origin,
    waiting: waiting.map((ad) => ({
      eventID: ad.eventID,
      eventTitle: ad.eventTitle,
      waitedHours: Math.floor((now.getTime() - ad.waitingSince.getTime()) / HOUR_MS),
    })),
    waitingTotal,
    reportedAds: reported.ads,
    reportedAdsTotal: reported.total,
  })
  const day = isoDateInZone(now, getEnv().APP_TIME_ZONE)
  const queued = await enqueueToAdministrators('moderation-digest', mail, `moderation-digest:${day}`)
  moderationDigestsSent.inc(queued)
  return queued
}

/** The digest as a scheduled job: once a day across all servers. Returns the emails queued (0 when not due). */
export async function runModerationDigestJob(now = new Date()) {
  const run = await runJobOnce(MODERATION_DIGEST_JOB, { notWithinMs: DIGEST_EVERY_MS, now }, () =>
    sendModerationDigest(now),
  )
  return run.ran ? run.result : 0
}
