/**
 * Digest benchmark: `npm run bench:digests` after `npx remix vite:build`.
 *
 * 100,000 events (bench-events.ts, as bench:calendar loads them; the live ones approved over the last 30 days, so
 * about a quarter during the last week) and 10,000 confirmed subscribers with varied saved searches (keyword, category, part of a ZIP, near a ZIP,
 * several together, none), and 10,000 confirmed follows of businesses (their new live ads, daily), on the embedded
 * database. The built server runs; `/calendar` is loaded on cache misses at
 * half the server's throughput, first alone, then while `npm run jobs -- digests --now` asks the server to queue
 * every digest.
 *
 * Budget (exit 1 over it): the digests and the follows' emails are queued in ≤ 60 s, and the `/calendar` p99 meanwhile
 * is within 2× of idle (the command prints the follows' part on its own).
 * Options: --events=<n> (default 100000), --subscribers=<n> (default 10000), --follows=<n> (default 10000),
 * --duration=<idle seconds> (default 15),
 * --seed-only (seed, print the data folder and keep it, e.g. to profile the job on it; no server),
 * --from=<folder> (run on a copy of a folder --seed-only kept, instead of seeding).
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import { promisify } from 'node:util'
import autocannon from 'autocannon'
import { sql } from 'drizzle-orm'
import { DEFAULT_CATEGORIES } from '#app/constants.ts'
import { todayInZone } from '#app/utils/time.ts'
import { openEmbeddedDatabase } from '#db/client.server.ts'
import { startServerProcess, stopServer } from '#tests/support/server-process.ts'
import { cacheMissPaths, KEYWORDS, rowsOf, seed } from './bench-events.ts'
import { benchEnvironment, builtAppExists, option, vacuumAsMaintenanceRun } from './bench-server.ts'

const EVENTS = Number(option('events') ?? 100_000)
const SUBSCRIBERS = Number(option('subscribers') ?? 10_000)
const FOLLOWS = Number(option('follows') ?? 10_000)
const DURATION_S = Number(option('duration') ?? 15)
const SEED_ONLY = option('seed-only') !== undefined
const SEEDED_FOLDER = option('from')
const BUDGET_MS = 60_000
const P99_BUDGET = 2
const run = promisify(execFile)
const { dataDir, env } = benchEnvironment('eventshout-bench-digests-')
const today = todayInZone(process.env.APP_TIME_ZONE ?? 'America/New_York')

const literalArray = (values: readonly string[]) =>
  `ARRAY[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}]::text[]`

/** The events, a week of approvals, and the subscribers: each search a mix the calendar's form can make. */
async function seedData() {
  const handle = await openEmbeddedDatabase(dataDir)
  try {
    const seeded = await seed(handle.db, today, { events: EVENTS, liveEvery: 10 })
    console.info(`seeded ${seeded.total} events (${seeded.live} live) in ${seeded.seconds.toFixed(1)} s`)
    await handle.db
      .execute(sql`UPDATE events SET "reviewedAt" = now() - (("eventID" % 720) || ' hours')::interval
      WHERE "eventStatus" = 'approved' AND "paymentStatus" = 'paid'`)
    const zips = rowsOf(
      await handle.db.execute(sql`SELECT "businessZip" AS zip FROM business b
        JOIN zip_centroids z ON z.zip = b."businessZip" GROUP BY 1 ORDER BY 1 LIMIT 200`),
    ).map((row) => String(row.zip))
    const near = zips.length ? zips : ['62704']
    await handle.db.execute(
      sql.raw(`INSERT INTO subscriptions (email, kind, frequency, filters, "filterKey", "confirmedAt", "coveredUntil")
      SELECT 'subscriber-' || g || '@example.com', 'search', CASE WHEN g % 3 = 0 THEN 'daily' ELSE 'weekly' END,
        jsonb_build_object(
          'keyword', CASE WHEN g % 4 IN (0, 1) THEN (${literalArray(KEYWORDS)})[1 + g % ${KEYWORDS.length}] ELSE '' END,
          'category', CASE WHEN g % 3 IN (0, 2) THEN (${literalArray(DEFAULT_CATEGORIES)})[1 + g % ${DEFAULT_CATEGORIES.length}] ELSE '' END,
          'zip', CASE WHEN g % 10 = 3 THEN left((60000 + (g * 7919) % 40000)::text, 3) ELSE '' END,
          'near', CASE WHEN g % 5 = 4 THEN (${literalArray(near)})[1 + g % ${near.length}] ELSE '' END,
          'radius', (ARRAY[5, 10, 25, 50])[1 + g % 4], 'sort', 'soonest', 'from', null, 'to', null),
        'search:bench-' || g, now() - interval '8 days', now() - interval '7 days'
      FROM generate_series(1, ${SUBSCRIBERS}) AS g`),
    )
    console.info(`${SUBSCRIBERS} confirmed subscribers (a third daily, the rest weekly)`)
    // Followers spread over the businesses, each told of the ads approved up to a week ago.
    await handle.db.execute(
      sql.raw(`INSERT INTO subscriptions (email, kind, frequency, filters, "filterKey", "businessId", "confirmedAt",
        "coveredUntil")
      SELECT 'follower-' || g || '@example.com', 'business', 'daily', '{}'::jsonb, 'business:' || b."businessID",
        b."businessID", now() - interval '8 days', now() - interval '7 days'
      FROM generate_series(1, ${FOLLOWS}) AS g
      JOIN (SELECT "businessID", row_number() OVER (ORDER BY "businessID") - 1 AS n, count(*) OVER () AS total
        FROM business) AS b ON b.n = g % b.total`),
    )
    console.info(`${FOLLOWS} confirmed follows of businesses`)
    // As the hourly maintenance leaves a running site: the approvals' update above left stale statistics behind.
    await vacuumAsMaintenanceRun(handle.db)
  } finally {
    await handle.close()
  }
}

function calendarLoad(
  base: string,
  next: () => string,
  { rate, until }: { rate?: number; until: Promise<unknown> },
) {
  return new Promise<{ rps: number; p99: number; failures: number }>((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections: 10,
        duration: 3600,
        ...(rate && { overallRate: rate }),
        requests: [{ method: 'GET', setupRequest: (req: autocannon.Request) => ({ ...req, path: next() }) }],
      },
      (error, result) =>
        error
          ? reject(error)
          : resolve({
              rps: result.requests.average,
              p99: result.latency.p99,
              failures: result.non2xx + result.errors + result.timeouts,
            }),
    )
    void until.finally(() => instance.stop())
  })
}

const forSeconds = (s: number) => new Promise((resolve) => setTimeout(resolve, s * 1000))

async function main() {
  if (!builtAppExists()) return 1
  if (SEEDED_FOLDER) fs.cpSync(SEEDED_FOLDER, dataDir, { recursive: true })
  else await seedData()
  if (SEED_ONLY) {
    console.info(`seeded data folder kept: ${dataDir}`)
    return 0
  }
  const server = await startServerProcess({ env })
  try {
    const next = cacheMissPaths(today)
    await calendarLoad(server.base, next, { until: forSeconds(3) })
    const most = await calendarLoad(server.base, next, { until: forSeconds(5) })
    const rate = Math.max(1, Math.round(most.rps / 2))
    console.info(`/calendar throughput ${most.rps.toFixed(0)} req/s; measuring at ${rate} req/s`)
    const idle = await calendarLoad(server.base, next, { rate, until: forSeconds(DURATION_S) })
    const started = performance.now()
    const job = run(process.execPath, ['--import', 'tsx', 'scripts/jobs.ts', 'digests', '--now'], { env })
    const during = await calendarLoad(server.base, next, { rate, until: job.catch(() => {}) })
    const { stdout } = await job
    const wallMs = performance.now() - started
    console.info(stdout.trim())
    console.info(
      `digests and follows: ${(wallMs / 1000).toFixed(1)} s from the command's start to its exit (budget ${BUDGET_MS / 1000} s)`,
    )
    const ratio = during.p99 / Math.max(1, idle.p99)
    console.info(
      `/calendar p99 idle ${idle.p99} ms, while queueing ${during.p99} ms (${ratio.toFixed(2)}×; budget ${P99_BUDGET}×); failures ${idle.failures + during.failures}`,
    )
    return wallMs <= BUDGET_MS && ratio <= P99_BUDGET ? 0 : 1
  } finally {
    await stopServer(server.server)
  }
}

try {
  process.exitCode = await main()
} finally {
  if (!SEED_ONLY) fs.rmSync(dataDir, { recursive: true, force: true })
}
