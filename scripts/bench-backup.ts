/**
 * Backup benchmark: `npm run bench:backup` after `npx remix vite:build`.
 *
 * At the demo size (`npm run seed`) and at 100,000 events (bench-events.ts, as bench:calendar loads them) it times
 * `npm run backup` against the running server and `npm run restore` into an empty target, with the archive's size
 * and the first start of a server on the restored data. At 100,000 events it also measures what a backup costs the
 * site: the p99 latency of `/calendar` on cache misses (every request queries the database; see bench-events.ts)
 * at a steady rate of half the server's throughput, without a backup and then while one runs.
 *
 * Budget (exit 1 over it): the p99 while a backup runs is within 2× of the p99 without one.
 *
 * Runs on the embedded database (PGlite), and also on PostgreSQL when DATABASE_URL is set or `--postgres=<url>` is
 * given (databases of its own are created on that server and dropped afterwards).
 * Options: --duration=<seconds of the run without a backup> (default 15), --events=<n> (default 100000),
 * --postgres[=<url>], --only=pglite|postgres, --no-demo.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import autocannon from 'autocannon'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import { todayInZone } from '#app/utils/time.ts'
import type { Database } from '#db/client.server.ts'
import * as schema from '#db/schema.ts'
import { startServerProcess, stopServer, type ServerProcess } from '#tests/support/server-process.ts'
import { cacheMissPaths, seed } from './bench-events.ts'
import { benchEnvironment, builtAppExists, option, postgresTarget } from './bench-server.ts'

const args = process.argv.slice(2)
const DURATION_S = Number(option('duration') ?? 15)
const EVENTS = Number(option('events') ?? 100_000)
const DEMO = !args.includes('--no-demo')
const POSTGRES_URL = postgresTarget(args)
const ONLY = option('only')
const BUDGET = 2
const run = promisify(execFile)

type Kind = 'pglite' | 'postgres'
interface Target {
  DATA_DIR: string
  DATABASE_URL: string
}

const { dataDir: root, env: baseEnv } = benchEnvironment('eventshout-bench-backup-')
const today = todayInZone(process.env.APP_TIME_ZONE ?? 'America/New_York')
const dropDatabases: string[] = []

/** A new data folder (and, on PostgreSQL, a new database) named `name`. */
async function newTarget(kind: Kind, name: string): Promise<Target> {
  const target = { DATA_DIR: path.join(root, name), DATABASE_URL: '' }
  if (kind === 'postgres') {
    const database = `bench_backup_${process.pid}_${name.replace(/\W/g, '_')}`
    const admin = postgres(POSTGRES_URL, { max: 1, onnotice: () => {} })
    await admin.unsafe(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
    await admin.unsafe(`CREATE DATABASE ${database}`)
    await admin.end()
    dropDatabases.push(database)
    const url = new URL(POSTGRES_URL)
    url.pathname = `/${database}`
    target.DATABASE_URL = url.toString()
  }
  return target
}

const envOf = (target: Target) => ({ ...baseEnv, ...target })
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

/** The command line of `npm run <script>` (its `nice -n 19`, say), without npm's own start-up. */
function commandOf(script: string, command: string[]): [string, string[]] {
  const scripts = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> })
    .scripts
  const nice = /^nice -n (\d+) /.exec(scripts[script] ?? '')
  return nice ? ['nice', ['-n', nice[1]!, ...command]] : [command[0]!, command.slice(1)]
}

/** `npm run <script> -- …args`; fails with its output when it fails. */
async function npmScript(script: string, scriptArgs: string[], target: Target) {
  const started = performance.now()
  try {
    const { stdout } = await run(
      ...commandOf(script, [process.execPath, '--import', 'tsx', `scripts/${script}.ts`, ...scriptArgs]),
      {
        env: envOf(target),
        maxBuffer: 16 * 1024 * 1024,
      },
    )
    return { ms: performance.now() - started, out: stdout.trim() }
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string }
    throw new Error(`npm run ${script} failed:\n${failed.stdout ?? ''}${failed.stderr ?? ''}`)
  }
}

/** 100,000 events (bench-events.ts) in `target`, migrated by the app's own code. */
async function seedEvents(kind: Kind, target: Target) {
  const { openEmbeddedDatabase, openServerDatabase } = await import('#db/client.server.ts')
  let handle: { db: Database; close(): Promise<unknown> }
  if (kind === 'postgres') {
    await (await openServerDatabase(target.DATABASE_URL)).close()
    // Without the app's statement timeout: the bulk inserts take longer than a request may.
    const client = postgres(target.DATABASE_URL, { max: 1, onnotice: () => {} })
    handle = { db: drizzlePostgres(client, { schema }) as unknown as Database, close: () => client.end() }
  } else {
    handle = await openEmbeddedDatabase(target.DATA_DIR)
  }
  try {
    const seeded = await seed(handle.db, today, { events: EVENTS, liveEvery: 10 })
    console.info(`  seeded ${seeded.total} events (${seeded.live} live) in ${seconds(seeded.seconds * 1000)}`)
  } finally {
    await handle.close()
  }
}

interface Latency {
  rps: number
  p50: number
  p99: number
  requests: number
  failures: number
}

function latencyOf(result: autocannon.Result): Latency {
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  }
}

/** Cache-miss calendar requests at `rate` per second (or as fast as 10 connections go) until `until` settles. */
function calendarLoad(
  base: string,
  next: () => string,
  { rate, until }: { rate?: number; until: Promise<unknown> },
) {
  return new Promise<Latency>((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections: 10,
        duration: 3600,
        ...(rate && { overallRate: rate }),
        requests: [{ method: 'GET', setupRequest: (req: autocannon.Request) => ({ ...req, path: next() }) }],
      },
      (error, result) => (error ? reject(error) : resolve(latencyOf(result))),
    )
    void until.finally(() => instance.stop())
  })
}

const forSeconds = (s: number) => new Promise((resolve) => setTimeout(resolve, s * 1000))

interface Round {
  label: string
  backupMs: number
  backupOut: string
  archiveBytes: number
  restoreMs: number
  firstStartMs: number
  before?: Latency
  during?: Latency
}

/** Backup of `source` by its running server (under load if asked), restore into a new target, a server on that. */
async function round(kind: Kind, label: string, source: Target, withLoad: boolean): Promise<Round> {
  const archive = path.join(root, `${kind}-${label.replace(/\W/g, '-')}.tar.gz`)
  let server: ServerProcess | undefined = await startServerProcess({ env: envOf(source) })
  let backup: { ms: number; out: string }
  let before: Latency | undefined
  let during: Latency | undefined
  try {
    if (withLoad) {
      const next = cacheMissPaths(today)
      await calendarLoad(server.base, next, { until: forSeconds(3) })
      const most = await calendarLoad(server.base, next, { until: forSeconds(5) })
      const rate = Math.max(1, Math.round(most.rps / 2))
      console.info(`  throughput ${most.rps.toFixed(0)} req/s; measuring at ${rate} req/s`)
      before = await calendarLoad(server.base, next, { rate, until: forSeconds(DURATION_S) })
      const backingUp = npmScript('backup', [archive], source)
      during = await calendarLoad(server.base, next, { rate, until: backingUp.catch(() => {}) })
      backup = await backingUp
    } else {
      backup = await npmScript('backup', [archive], source)
    }
  } finally {
    await stopServer(server.server)
    server = undefined
  }
  const target = await newTarget(kind, `${label}-restored`)
  const restore = await npmScript('restore', [archive], target)
  const starting = performance.now()
  server = await startServerProcess({ env: envOf(target) })
  const firstStartMs = performance.now() - starting
  await stopServer(server.server)
  return {
    label,
    backupMs: backup.ms,
    backupOut: backup.out,
    archiveBytes: fs.statSync(archive).size,
    restoreMs: restore.ms,
    firstStartMs,
    before,
    during,
  }
}

function print(kind: Kind, rounds: Round[]) {
  console.info(`\n[${kind}] backup and restore (commands timed from start to exit, tsx start-up included)`)
  for (const r of rounds) {
    console.info(
      `  ${r.label.padEnd(16)} backup ${seconds(r.backupMs).padStart(7)}  archive ${mb(r.archiveBytes).padStart(9)}  ` +
        `restore ${seconds(r.restoreMs).padStart(7)}  first start after it ${seconds(r.firstStartMs)}`,
    )
    console.info(`    ${r.backupOut.split('\n').join('\n    ')}`)
    if (r.before && r.during) {
      const line = (name: string, l: Latency) =>
        `    /calendar (cache misses) ${name.padEnd(15)} p50 ${l.p50.toFixed(0).padStart(5)} ms  p99 ${l.p99
          .toFixed(0)
          .padStart(5)} ms  ${l.rps.toFixed(0)} req/s, ${l.requests} requests, ${l.failures} failed`
      console.info(line('without backup', r.before))
      console.info(line('during backup', r.during))
    }
  }
}

async function runKind(kind: Kind) {
  const rounds: Round[] = []
  if (DEMO) {
    console.info(`\n[${kind}] demo data (npm run seed)`)
    const demo = await newTarget(kind, 'demo')
    await npmScript('seed', [], demo)
    rounds.push(await round(kind, 'demo', demo, false))
  }
  console.info(`\n[${kind}] ${EVENTS.toLocaleString('en-US')} events`)
  const events = await newTarget(kind, `${EVENTS}-events`)
  await seedEvents(kind, events)
  rounds.push(await round(kind, `${EVENTS.toLocaleString('en-US')} events`, events, true))
  print(kind, rounds)
  const loaded = rounds.at(-1)!
  const ratio = loaded.during!.p99 / Math.max(1, loaded.before!.p99)
  const within = ratio <= BUDGET && loaded.during!.failures === 0
  console.info(
    `  budget: p99 during a backup ≤ ${BUDGET}× without one, no failed request: ${ratio.toFixed(2)}× ` +
      `${within ? 'OK' : 'OVER'}`,
  )
  return within
}

async function main() {
  if (!builtAppExists()) return 1
  const kinds: Kind[] = (['pglite', 'postgres'] as const).filter(
    (kind) => (!ONLY || ONLY === kind) && (kind === 'pglite' || POSTGRES_URL),
  )
  let ok = true
  try {
    for (const kind of kinds) ok = (await runKind(kind)) && ok
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
    if (dropDatabases.length) {
      const admin = postgres(POSTGRES_URL, { max: 1, onnotice: () => {} })
      for (const name of dropDatabases) await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    }
  }
  return ok ? 0 : 1
}

process.exitCode = await main()
