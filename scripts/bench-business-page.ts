/**
 * Business page benchmark: `npm run bench:business-page` after `npx remix vite:build`.
 *
 * Seeds 100,000 events (bench-events.ts, as bench:calendar loads them: 2,000 businesses, every tenth ad live) and
 * starts the built server on them, then loads /business/{id}-{slug} with autocannon (10 connections), every request
 * a page nobody asked for just before (its own query string), so the shared page cache never answers: each
 * connection walks through the businesses that have a page. Runs on the embedded database, and also on PostgreSQL
 * when DATABASE_URL is set or `--postgres[=<url>]` is given. Three repetitions, min/median/max of the server process's
 * CPU time per request (user + system; on the embedded database its thread is in the same process).
 *
 * Budget (exit 1 over it): under 50 ms of server CPU per business page on a cache miss.
 * Options: --duration=<seconds per run> (default 5), --repeat=<n> (default 3), --only=pglite|postgres.
 */
import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import autocannon from 'autocannon'
import { sql } from 'drizzle-orm'
import { businessPagePath } from '#app/models/calendar/business-links.ts'
import { todayInZone } from '#app/utils/time.ts'
import { startServerProcess, stopServer } from '#tests/support/server-process.ts'
import { openBenchDatabase } from './bench-database.ts'
import { rowsOf, seed } from './bench-events.ts'
import { benchEnvironment, builtAppExists, option, postgresTarget } from './bench-server.ts'

const EVENTS = 100_000
const CPU_BUDGET_MS = 50
const CONNECTIONS = 10
const DURATION_S = Number(option('duration') ?? 5)
const REPEAT = Number(option('repeat') ?? 3)
const ONLY = option('only')
const POSTGRES_URL = postgresTarget()
const CLOCK_TICKS_PER_S = 100

type DatabaseKind = 'pglite' | 'postgres'

/** User plus system CPU time a process has used, in milliseconds (Linux). */
function cpuMs(pid: number) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S
}

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!

/** A fresh database with the events, and the pages of the businesses that have one. */
async function prepare(kind: DatabaseKind, today: string) {
  const { handle, dataDir, url, drop } = await openBenchDatabase(kind, {
    name: 'business-page',
    postgresUrl: POSTGRES_URL,
  })
  let paths: string[]
  try {
    const seeded = await seed(handle.db, today, { events: EVENTS, liveEvery: 10 })
    console.info(
      `\n[${kind}] seeded ${seeded.total} events (${seeded.live} live) in ${seeded.seconds.toFixed(1)} s`,
    )
    const rows = rowsOf(
      await handle.db.execute(sql`SELECT b."businessID" AS id, b."businessName" AS name FROM business b
        WHERE EXISTS (SELECT 1 FROM events e WHERE e."businessID" = b."businessID" AND e."eventStatus" = 'approved'
          AND e."paymentStatus" = 'paid' AND e."lastShowDate" >= ${today}::date)
        ORDER BY b."businessID" LIMIT 500`),
    )
    paths = rows.map((row) => businessPagePath(Number(row.id), String(row.name)))
    console.info(`[${kind}] ${paths.length} business pages to walk through`)
  } finally {
    await handle.close()
  }
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url },
    paths,
    async remove() {
      fs.rmSync(dataDir, { recursive: true, force: true })
      await drop()
    },
  }
}

let uniqueRequest = 0

async function load(base: string, pid: number, paths: string[]) {
  let next = 0
  const cpuBefore = cpuMs(pid)
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: DURATION_S,
    requests: [
      {
        method: 'GET',
        setupRequest: (req: autocannon.Request) => ({
          ...req,
          path: `${paths[next++ % paths.length]}?nocache=${++uniqueRequest}`,
        }),
      },
    ],
  })
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    cpuPerRequest: (cpuMs(pid) - cpuBefore) / Math.max(1, result.requests.total),
    failures: result.non2xx + result.errors,
  }
}

async function runDatabase(kind: DatabaseKind, today: string, baseEnv: NodeJS.ProcessEnv) {
  const prepared = await prepare(kind, today)
  let server: ChildProcess | undefined
  try {
    const started = await startServerProcess({
      env: { ...baseEnv, ...prepared.env },
      healthPath: '/healthz?db=0',
    })
    server = started.server
    const first = await fetch(`${started.base}${prepared.paths[0]}`)
    if (first.status !== 200) throw new Error(`${prepared.paths[0]} answered ${first.status}`)
    // Warm-up: the routes' modules, the prepared statements.
    await load(started.base, server.pid!, prepared.paths)
    const runs = []
    for (let i = 0; i < REPEAT; i++) runs.push(await load(started.base, server.pid!, prepared.paths))
    const cpu = runs.map((r) => r.cpuPerRequest)
    const failures = runs.reduce((n, r) => n + r.failures, 0)
    console.info(
      `[${kind}] /business/{id}-{slug} on a cache miss: ${median(runs.map((r) => r.rps)).toFixed(0)} req/s, p99 ${median(runs.map((r) => r.p99))} ms; server CPU per request min ${Math.min(...cpu).toFixed(2)} / median ${median(cpu).toFixed(2)} / max ${Math.max(...cpu).toFixed(2)} ms (budget < ${CPU_BUDGET_MS} ms); failures ${failures}`,
    )
    return median(cpu) < CPU_BUDGET_MS && failures === 0
  } finally {
    if (server) await stopServer(server)
    await prepared.remove()
  }
}

async function main() {
  if (!builtAppExists()) return 2
  const { dataDir, env } = benchEnvironment('eventshout-bench-business-page-')
  fs.rmSync(dataDir, { recursive: true, force: true })
  const { getEnv } = await import('#app/services/platform/env.server.ts')
  const today = todayInZone(getEnv().APP_TIME_ZONE)
  const kinds = (['pglite', 'postgres'] as const).filter(
    (k) => (k === 'pglite' || POSTGRES_URL) && (!ONLY || ONLY === k),
  )
  let ok = true
  for (const kind of kinds) ok = (await runDatabase(kind, today, env)) && ok
  return ok ? 0 : 1
}

process.exitCode = await main()
