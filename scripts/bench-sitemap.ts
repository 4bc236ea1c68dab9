/**
 * Sitemap benchmark: `npm run bench:sitemap` after `npx remix vite:build`.
 *
 * Seeds 100,000 events (bench-events.ts, as bench:calendar loads them: every tenth ad live; SITEMAP_BENCH_EVENTS=
 * 1000000 for a million), starts the built server on them and loads, with autocannon (10 connections), the sitemap
 * index /sitemap.xml, the pages file and the last events file it names (an events file is a range of ids, so every
 * one holds about as many live ads). Each answer's size and URL count are checked against the protocol (50,000 URLs,
 * 50 MB). A /sitemap.xml that is itself a list of URLs (a single file, as before the index) is measured as it is.
 * Runs on the embedded database, and also on PostgreSQL when DATABASE_URL is set or `--postgres[=<url>]` is given,
 * where it prints the plans of the index's and a file's queries. Three repetitions, min/median/max of the server
 * process's CPU time per request (user + system; on the embedded database its thread is in the same process).
 *
 * Budget (exit 1 over it): every answer within the protocol, and under 25 ms of server CPU per request for the index
 * and for a file.
 * Options: --duration=<seconds per run> (default 5), --repeat=<n> (default 3), --only=pglite|postgres.
 */
import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import autocannon from 'autocannon'
import { sql } from 'drizzle-orm'
import { todayInZone } from '#app/utils/time.ts'
import { startServerProcess, stopServer } from '#tests/support/server-process.ts'
import { openBenchDatabase } from './bench-database.ts'
import { rowsOf, seed } from './bench-events.ts'
import { benchEnvironment, builtAppExists, option, postgresTarget } from './bench-server.ts'

const EVENTS = Number(process.env.SITEMAP_BENCH_EVENTS ?? 100_000)
const CPU_BUDGET_MS = 25
const PROTOCOL_URLS = 50_000
const PROTOCOL_BYTES = 50 * 1024 * 1024
const CONNECTIONS = 10
const DURATION_S = Number(option('duration') ?? 5)
const REPEAT = Number(option('repeat') ?? 3)
const ONLY = option('only')
const POSTGRES_URL = postgresTarget()
const CLOCK_TICKS_PER_S = 100
/** As app/services/calendar/feeds.server.ts writes them (a copy, so the script measures a build of any version). */
const IDS_PER_FILE = 10_000

type DatabaseKind = 'pglite' | 'postgres'

/** User plus system CPU time a process has used, in milliseconds (Linux). */
function cpuMs(pid: number) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S
}

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!

/** The plans of the index's query and of one file's, as the app asks them (PostgreSQL only: PGlite's are alike). */
async function explain(db: Parameters<typeof seed>[0], today: string) {
  const [maxRow] = rowsOf(await db.execute(sql`SELECT max("eventID") AS id FROM events`))
  const lastFile = Math.ceil(Number(maxRow?.id) / IDS_PER_FILE)
  const changed = sql`coalesce("visibleChangedAt", greatest("reviewedAt", "scheduleChangedAt"))`
  const live = sql`"eventStatus" = 'approved' AND "paymentStatus" = 'paid' AND "lastShowDate" >= ${today}::date`
  const queries = {
    index: sql`SELECT ("eventID" - 1) / ${sql.raw(String(IDS_PER_FILE))} + 1 AS file, max(${changed}),
        (max("approvedDateByAdmin") FILTER (WHERE ${changed} IS NULL))::text
      FROM events WHERE ${live} GROUP BY 1 ORDER BY 1`,
    [`events-${lastFile}.xml`]: sql`SELECT "eventID", "eventTitle", "approvedDateByAdmin", ${changed}
      FROM events WHERE ${live} AND "eventID" > ${(lastFile - 1) * IDS_PER_FILE}
        AND "eventID" <= ${lastFile * IDS_PER_FILE} ORDER BY "eventID" LIMIT ${IDS_PER_FILE}`,
  }
  for (const [name, query] of Object.entries(queries)) {
    const plan = rowsOf(await db.execute(sql`EXPLAIN (ANALYZE, BUFFERS) ${query}`))
    console.info(
      `[postgres] plan of the ${name} query:\n  ${plan.map((r) => Object.values(r)[0]).join('\n  ')}`,
    )
  }
}

async function prepare(kind: DatabaseKind, today: string) {
  const { handle, dataDir, url, drop } = await openBenchDatabase(kind, {
    name: 'sitemap',
    postgresUrl: POSTGRES_URL,
  })
  try {
    const seeded = await seed(handle.db, today, { events: EVENTS, liveEvery: 10 })
    console.info(
      `\n[${kind}] seeded ${seeded.total} events (${seeded.live} live) in ${seeded.seconds.toFixed(1)} s`,
    )
    if (kind === 'postgres') await explain(handle.db, today)
  } finally {
    await handle.close()
  }
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url },
    async remove() {
      fs.rmSync(dataDir, { recursive: true, force: true })
      await drop()
    },
  }
}

let uniqueRequest = 0

async function load(base: string, pid: number, path: string) {
  const cpuBefore = cpuMs(pid)
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: DURATION_S,
    requests: [
      {
        method: 'GET',
        setupRequest: (req: autocannon.Request) => ({ ...req, path: `${path}?nocache=${++uniqueRequest}` }),
      },
    ],
  })
  return {
    rps: result.requests.average,
    cpuPerRequest: (cpuMs(pid) - cpuBefore) / Math.max(1, result.requests.total),
    failures: result.non2xx + result.errors,
  }
}

/** What the answer holds: its size, and its URLs or the files it names. */
async function inspect(base: string, path: string) {
  const response = await fetch(`${base}${path}`)
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`)
  const body = await response.text()
  const locs = [...body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!)
  return { bytes: Buffer.byteLength(body), locs, isIndex: body.includes('<sitemapindex') }
}

async function measure(kind: DatabaseKind, base: string, pid: number, label: string, path: string) {
  const { bytes, locs, isIndex } = await inspect(base, path)
  await load(base, pid, path) // warm-up: the route's module, the prepared statements
  const runs = []
  for (let i = 0; i < REPEAT; i++) runs.push(await load(base, pid, path))
  const cpu = runs.map((r) => r.cpuPerRequest)
  const failures = runs.reduce((n, r) => n + r.failures, 0)
  const withinProtocol = locs.length <= PROTOCOL_URLS && bytes <= PROTOCOL_BYTES
  console.info(
    `[${kind}] ${label} ${path}: ${(bytes / 1024).toFixed(1)} KiB, ${locs.length} ${isIndex ? 'files' : 'URLs'}${withinProtocol ? '' : ' (past the protocol)'}; ${median(runs.map((r) => r.rps)).toFixed(0)} req/s; server CPU per request min ${Math.min(...cpu).toFixed(2)} / median ${median(cpu).toFixed(2)} / max ${Math.max(...cpu).toFixed(2)} ms (budget < ${CPU_BUDGET_MS} ms); failures ${failures}`,
  )
  return { locs, isIndex, ok: withinProtocol && median(cpu) < CPU_BUDGET_MS && failures === 0 }
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
    const pid = server.pid!
    const index = await measure(kind, started.base, pid, 'index', '/sitemap.xml')
    if (!index.isIndex) return index.ok
    const paths = index.locs.map((loc) => new URL(loc).pathname)
    let ok = index.ok
    const pages = paths.find((p) => p.endsWith('/pages.xml'))
    if (pages) ok = (await measure(kind, started.base, pid, 'pages file', pages)).ok && ok
    const lastEvents = paths.filter((p) => /\/events-\d+\.xml$/.test(p)).at(-1)
    if (lastEvents) ok = (await measure(kind, started.base, pid, 'events file', lastEvents)).ok && ok
    return ok
  } finally {
    if (server) await stopServer(server)
    await prepared.remove()
  }
}

async function main() {
  if (!builtAppExists()) return 2
  const { dataDir, env } = benchEnvironment('eventshout-bench-sitemap-')
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
