import crypto from 'node:crypto'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import { reviewQueueBacklog } from '#app/models/moderation/pending-review.server.ts'
import { outboxBacklog } from '#app/models/mail/outbox.server.ts'
import { embeddedDatabaseQueueDepth } from '#db/pglite-thread.server.ts'
import { timeQueries } from '#db/query-timing.server.ts'

/**
 * The server's metrics in the Prometheus text format (GET /metrics). Everything counted on the request path is a
 * number in memory; what the database knows (the outbox, the review queue) is read when a scrape asks, by indexed
 * counts, and left out of that scrape when the database does not answer in time.
 */
export const registry = new Registry()

// Process and runtime: CPU, memory, garbage collection and the event loop's delay (nodejs_eventloop_lag_*).
collectDefaultMetrics({ register: registry })

/** The registry every metric of the app is registered in (a domain's own gauges included). */
export const registers = [registry]

export const requestDuration = new Histogram({
  name: 'eventshout_http_request_duration_seconds',
  help: 'Time from a request to the end of its response, by route pattern and status class (2xx, 4xx, 5xx…).',
  labelNames: ['route', 'status_class'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers,
})

export const requestsInFlight = new Gauge({
  name: 'eventshout_http_requests_in_flight',
  help: 'Requests received and not yet answered.',
  registers,
})

const queryDuration = new Histogram({
  name: 'eventshout_db_query_duration_seconds',
  help: 'Time from a query to its answer, waiting for a connection (PostgreSQL) or the one session (embedded) included.',
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
  registers,
})
timeQueries((seconds) => queryDuration.observe(seconds))

new Gauge({
  name: 'eventshout_db_queue_depth',
  help: 'Embedded database: calls sent to its thread and not answered yet (the one running and those waiting).',
  registers,
  collect() {
    this.set(embeddedDatabaseQueueDepth())
  },
})

export const robotRefusals = new Counter({
  name: 'eventshout_robot_form_refusals_total',
  help: 'Registration and ad-report form posts refused as robotic, by form and reason (honeypot, stamp, too_fast, stale, reused).',
  labelNames: ['form', 'reason'] as const,
  registers,
})

export const moderationDigestsSent = new Counter({
  name: 'eventshout_moderation_digest_emails_total',
  help: 'Daily moderation digests queued to administrators (one per administrator and day when something waits).',
  registers,
})

export const autoApprovalChecksDecided = new Counter({
  name: 'eventshout_auto_approval_checks_total',
  help: 'Administrators’ checks of auto-approved ads, by outcome (confirmed, taken_down).',
  labelNames: ['outcome'] as const,
  registers,
})

export const adReportsFiled = new Counter({
  name: 'eventshout_ad_reports_total',
  help: 'Visitors’ reports of ads, by outcome (filed, hidden: the report that hid the ad, repeat).',
  labelNames: ['outcome'] as const,
  registers,
})

export const endedAdTextsRemoved = new Counter({
  name: 'eventshout_ended_ad_search_rows_removed_total',
  help: 'Rows of ads that are over removed from the keyword search’s table of live ads by the hourly job.',
  registers,
})

export const pageCacheHits = new Counter({
  name: 'eventshout_page_cache_hits_total',
  help: 'Shareable pages served from the shared page cache.',
  registers,
})

export const pageCacheMisses = new Counter({
  name: 'eventshout_page_cache_misses_total',
  help: 'Shareable pages rendered because the shared page cache held no fresh copy.',
  registers,
})

export const shareImagesDrawn = new Counter({
  name: 'eventshout_share_images_drawn_total',
  help: 'Share images of live events drawn and stored (once per event, kind and photo or title), by kind.',
  labelNames: ['kind'] as const,
  registers,
})

const databaseGauges = {
  up: new Gauge({
    name: 'eventshout_metrics_database_up',
    help: '1 when this scrape read the outbox and review-queue gauges from the database, 0 when it did not answer.',
    registers,
  }),
  outboxPending: new Gauge({
    name: 'eventshout_outbox_pending_messages',
    help: 'Emails queued and not yet sent (pending or being sent).',
    registers,
  }),
  outboxOldestPending: new Gauge({
    name: 'eventshout_outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest email still to be sent (0 when none).',
    registers,
  }),
  outboxFailed: new Gauge({
    name: 'eventshout_outbox_failed_messages',
    help: 'Emails given up on after their last retry (kept for a while for the administrators).',
    registers,
  }),
  reviewQueue: new Gauge({
    name: 'eventshout_review_queue_ads',
    help: 'Paid ads awaiting an administrator’s review.',
    registers,
  }),
  reviewQueueOldest: new Gauge({
    name: 'eventshout_review_queue_oldest_age_seconds',
    help: 'Age of the oldest paid ad awaiting review, from its upload (0 when none).',
    registers,
  }),
}

/** A scrape waits this long for the database, then answers without its gauges. */
const DATABASE_GAUGES_TIMEOUT_MS = 2000

const ageSeconds = (since: Date | null, now: number) =>
  since ? Math.max(0, (now - since.getTime()) / 1000) : 0

async function readDatabaseGauges() {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), DATABASE_GAUGES_TIMEOUT_MS)
  })
  try {
    const [outbox, review] = await Promise.race([
      Promise.all([outboxBacklog(), reviewQueueBacklog()]),
      timeout,
    ])
    const now = Date.now()
    databaseGauges.outboxPending.set(outbox.pending)
    databaseGauges.outboxOldestPending.set(ageSeconds(outbox.oldestPending, now))
    databaseGauges.outboxFailed.set(outbox.failed)
    databaseGauges.reviewQueue.set(review.count)
    databaseGauges.reviewQueueOldest.set(ageSeconds(review.oldest, now))
    databaseGauges.up.set(1)
  } catch {
    // Left out rather than shown stale or as zero: "no data" is what an alert on them should see.
    for (const [name, gauge] of Object.entries(databaseGauges)) if (name !== 'up') gauge.remove()
    databaseGauges.up.set(0)
  } finally {
    clearTimeout(timer)
  }
}

/** The text a scrape gets. */
export async function scrapeMetrics() {
  await readDatabaseGauges()
  return { body: await registry.metrics(), contentType: registry.contentType }
}

/** Whether an Authorization header carries `token` as its bearer token, compared in constant time. */
export function hasBearerToken(authorization: string | null, token: string) {
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '')
  if (!match) return false
  // Digests of the same length, so neither the comparison nor its length check tells how much of the token matched.
  const digest = (value: string) => crypto.createHash('sha256').update(value).digest()
  return crypto.timingSafeEqual(digest(match[1]!), digest(token))
}
