/**
 * IndexNow (off unless INDEXNOW_ENDPOINT and INDEXNOW_KEY are set): tells a search engine which event pages went
 * live, changed or ended, so it reads them again without waiting for the sitemap (docs/decisions/042). The change
 * itself only queues its ad, in its own transaction (the database does it: index-now-queue.server.ts); the ping
 * happens here, in the background, so it never slows or fails the request that made the change. Every server runs
 * the rounds; one at a time sends (the job lock), and a row leaves the queue only once a ping naming it was
 * accepted, so each change is sent once whatever the number of servers, and again after a failure.
 */
import { Counter } from 'prom-client'
import { eventPageUrl } from '#app/models/ads/event-address.ts'
import { zonedInstant } from '#app/models/ads/zoned-times.ts'
import {
  dropQueuedBefore,
  queueEndedListings,
  queuedListings,
  removeQueued,
  type QueuedListing,
} from '#app/models/calendar/index-now-queue.server.ts'
import { runJobOnce, takeJobLock } from '#app/models/platform/job-runs.server.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { asBackgroundWork } from '#db/background-work.server.ts'
import { linkOrigin } from '../http/site-url.server.ts'
import { getEnv } from '../platform/env.server.ts'
import { logError, logger } from '../platform/logger.server.ts'
import { registers } from '../platform/metrics.server.ts'

export const INDEX_NOW_JOB = 'index-now'
/** The daily look for the ads whose last date ended yesterday. */
export const INDEX_NOW_ENDED_JOB = 'index-now-ended'
/** Where the key file is served (the pings name it as their `keyLocation`). */
export const INDEX_NOW_KEY_PATH = '/indexnow-key.txt'

const ROUND_EVERY_MS = 30_000
const FIRST_ROUND_AFTER_MS = 10_000
/** Ads per ping (two addresses at most each, an old and a new one): IndexNow takes up to 10,000 addresses. */
const ADS_PER_PING = 1000
/** Pings in one round at most: the rest waits for the next round. */
const PINGS_PER_ROUND = 10
const PING_TIMEOUT_MS = 10_000
/** A change queued longer ago (IndexNow was off, or failing) is left to the sitemap. */
const QUEUED_AT_MOST_MS = 24 * 60 * 60 * 1000
/** After failed rounds, the next waits twice as long each time, up to an hour. */
const MAX_BACKOFF_MS = 60 * 60 * 1000

const pings = new Counter({
  name: 'eventshout_indexnow_pings_total',
  help: 'IndexNow pings (one POST of changed event pages each) by outcome: sent (accepted with 200 or 202) or failed (refused, timed out or unreachable).',
  labelNames: ['outcome'] as const,
  registers,
})
const pingedUrls = new Counter({
  name: 'eventshout_indexnow_urls_total',
  help: 'Event page addresses in IndexNow pings, by the ping outcome (sent or failed).',
  labelNames: ['outcome'] as const,
  registers,
})

export interface IndexNowSettings {
  endpoint: string
  key: string
  /** The site's origin: the pings' host, key location and addresses. */
  origin: string
}

/** The settings when IndexNow is on, else null. */
export function indexNowSettings(): IndexNowSettings | null {
  const { INDEXNOW_ENDPOINT: endpoint, INDEXNOW_KEY: key } = getEnv()
  return endpoint && key ? { endpoint, key, origin: linkOrigin() } : null
}

/** The key file's text (the key itself), or null when IndexNow is off. */
export function indexNowKeyFile(): string | null {
  return getEnv().INDEXNOW_KEY ?? null
}

export interface IndexNowRound {
  /** False when another server was sending. */
  ran: boolean
  sent: number
  failed: number
  urls: number
}

/** The addresses a ping names for these ads: each page, and its address before its title changed. */
export function pingedAddresses(rows: readonly QueuedListing[], origin: string): string[] {
  const urls = rows.flatMap((row) => [
    eventPageUrl(row, origin),
    ...(row.previousTitle
      ? [eventPageUrl({ eventID: row.eventID, eventTitle: row.previousTitle }, origin)]
      : []),
  ])
  return [...new Set(urls)]
}

/** One POST of the IndexNow protocol: true when the search engine accepted it (200, or 202 while it checks the key). */
async function ping({ endpoint, key, origin }: IndexNowSettings, urlList: string[]) {
  const outcome = await fetch(endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    body: JSON.stringify({
      host: new URL(origin).host,
      key,
      keyLocation: new URL(INDEX_NOW_KEY_PATH, `${origin}/`).toString(),
      urlList,
    }),
    signal: AbortSignal.timeout(PING_TIMEOUT_MS),
  }).then(
    async (response) => {
      await response.body?.cancel()
      return response.status === 200 || response.status === 202 ? null : `answered ${response.status}`
    },
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  )
  const label = { outcome: outcome === null ? 'sent' : 'failed' }
  pings.inc(label)
  pingedUrls.inc(label, urlList.length)
  if (outcome !== null)
    logger.warn({ endpoint, urls: urlList.length, problem: outcome }, 'IndexNow ping failed')
  return outcome === null
}

/** Once per platform day (on one server): queues the ads whose last date was yesterday. */
async function queueEndedYesterday(now: Date) {
  const zone = getEnv().APP_TIME_ZONE
  const today = todayInZone(zone, now)
  const sinceMidnight = now.getTime() - zonedInstant(today, '00:00', zone).getTime()
  await runJobOnce(INDEX_NOW_ENDED_JOB, { notWithinMs: sinceMidnight, now }, () =>
    queueEndedListings(addDaysIso(today, -1)),
  )
}

/**
 * One round: queues yesterday's ended ads (once a day), then, unless another server is sending, pings the queued
 * ads, oldest first, in pings of ADS_PER_PING, taking each off the queue once its ping is accepted. A failed ping
 * ends the round (the ads stay queued); changes queued more than a day ago are dropped.
 */
export async function runIndexNowRound(settings: IndexNowSettings, now = new Date()): Promise<IndexNowRound> {
  await queueEndedYesterday(now)
  const release = await takeJobLock(INDEX_NOW_JOB)
  if (!release) return { ran: false, sent: 0, failed: 0, urls: 0 }
  const round = { ran: true, sent: 0, failed: 0, urls: 0 }
  try {
    await dropQueuedBefore(new Date(now.getTime() - QUEUED_AT_MOST_MS))
    while (round.sent < PINGS_PER_ROUND) {
      const rows = await queuedListings(ADS_PER_PING)
      if (rows.length === 0) break
      const urls = pingedAddresses(rows, settings.origin)
      if (!(await ping(settings, urls))) {
        round.failed++
        break
      }
      round.sent++
      round.urls += urls.length
      await removeQueued(rows)
      if (rows.length < ADS_PER_PING) break
    }
    return round
  } finally {
    await release()
  }
}

/**
 * Pings IndexNow in the background when it is configured: a round soon after start, then every 30 s (a failed one
 * puts the next off, doubling up to an hour). Returns its stop, which waits for the round under way.
 */
export function startIndexNow(): () => Promise<void> {
  const settings = indexNowSettings()
  if (!settings) return async () => {}
  let running: Promise<void> | undefined
  let stopped = false
  let failures = 0
  let nextRoundAt = 0
  const round = () => {
    if (stopped || running || Date.now() < nextRoundAt) return
    running = asBackgroundWork(() => runIndexNowRound(settings))
      .then(({ failed }) => {
        failures = failed ? failures + 1 : 0
        nextRoundAt = failed ? Date.now() + Math.min(MAX_BACKOFF_MS, ROUND_EVERY_MS * 2 ** failures) : 0
      })
      .catch((error: unknown) => logError(error, { msg: 'IndexNow round failed' }))
      .finally(() => (running = undefined))
  }
  const first = setTimeout(round, FIRST_ROUND_AFTER_MS)
  const timer = setInterval(round, ROUND_EVERY_MS)
  first.unref()
  timer.unref()
  return async () => {
    stopped = true
    clearTimeout(first)
    clearInterval(timer)
    await running
  }
}
