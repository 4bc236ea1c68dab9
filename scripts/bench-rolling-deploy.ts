/**
 * Rolling-deploy benchmark: `npm run bench:rolling-deploy` after `npx remix vite:build`.
 *
 * 1. Start-up migration time at 100,000 events (10,000 live), on the embedded database (in this process) and on
 *    PostgreSQL (a database of its own on DATABASE_URL's server, `--postgres=<url>`, or 127.0.0.1:5432): a database
 *    migrated up to the release before this one (found from git, scripts/previous-release.ts) is seeded as
 *    `npm run bench:calendar` seeds, then timed: the migrations this release adds, a start-up with nothing left to
 *    migrate, and the release of
 *    tests/fixtures/rolling-deploy-migration (a nullable column, an index built CONCURRENTLY; its backfill timed
 *    apart, as a server runs it). Budget (docs/decisions/041): a start-up migration takes at most 2 s at 100,000 events.
 * 2. The deploy, on that PostgreSQL database: two servers of the current build behind a round-robin proxy under a
 *    steady load (4 connections: the calendar, the public events API, live ads read by id, clicks on them), each
 *    replaced in turn by the build with the fixture's migration (the proxy drains a server before SIGTERM). Prints
 *    the failed requests, the longest gap between two answers and the slowest request during the deploy, and how
 *    long the backfill took on the new servers while they served. Budget: no failed request.
 *
 * Options: --events=<n> (default 100000), --only=pglite|postgres, --postgres=<url>, --since=<the previous
 * release's last migration> (default: the one scripts/previous-release.ts finds). `--check`: the whole run on
 * 2,000 events (unless --events says otherwise) without the time budget, which small data and a busy machine make
 * meaningless: it fails only on an error or a failed request. tests/integration/rolling-deploy.test.ts runs it, so
 * the benchmark keeps working as the migrations grow.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import postgres from 'postgres'
import { listBackfills } from '#app/models/platform/backfills.server.ts'
import { runToTheEnd } from '#app/services/operations/backfills.server.ts'
import { todayInZone } from '#app/utils/time.ts'
import {
  migrateServerDatabase,
  MIGRATIONS_FOLDER,
  openPglite,
  useDatabase,
  type Database,
} from '#db/client.server.ts'
import { readJournal } from '#db/migration-rules.js'
import { listOnlineSteps, withoutConcurrently } from '#db/online-steps.js'
import * as schema from '#db/schema.ts'
import {
  failed,
  longestPause,
  replaceOneAtATime,
  startDrainingProxy,
  startLoad,
  withFixtureMigrations,
} from '#tests/support/rolling-deploy.ts'
import { startServerProcess, stopServer, type ServerProcess } from '#tests/support/server-process.ts'
import { quoteIdent, withDatabase } from '#tests/support/test-database.ts'
import { rowsOf, seed } from './bench-events.ts'
import { builtAppExists, option, postgresTarget, sleep } from './bench-server.ts'
import { copyPreviousRelease, previousRelease } from './previous-release.ts'

const CHECK = option('check') !== undefined
const EVENTS = Number(option('events') || (CHECK ? 2_000 : 100_000))
const LIVE_EVERY = 10
const MIGRATION_BUDGET_MS = 2000
const only = option('only')
const today = todayInZone(process.env.APP_TIME_ZONE || 'America/New_York')
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-rolling-deploy-'))

/**
 * db/migrations as the previous release had it, in a folder of its own: the journal up to its last migration (the
 * one scripts/previous-release.ts finds, or `--since=<tag>`), and the concurrent steps and backfills of those
 * migrations only (a later migration's index is on columns the previous release does not have).
 */
function migrationsBefore() {
  const tags = readJournal(MIGRATIONS_FOLDER).map((entry) => entry.tag)
  const since = option('since')
  let previous: string[]
  if (since) {
    const at = tags.indexOf(since)
    if (at < 0) throw new Error(`No migration ${since} in the journal`)
    previous = tags.slice(0, at + 1)
    console.info(`The previous release: up to ${since} (--since)`)
  } else {
    const found = previousRelease(MIGRATIONS_FOLDER)
    previous = found.tags
    console.info(`The previous release: ${found.source}`)
  }
  const into = path.join(work, 'migrations-before')
  const kept = copyPreviousRelease(MIGRATIONS_FOLDER, into, previous)
  const added = tags.slice(kept.length)
  console.info(
    `  its last migration ${kept.at(-1) ?? '(none)'}; this release adds ${added.length}: ${added.join(', ') || 'none'}`,
  )
  return into
}

const ms = (start: number) => Math.round(performance.now() - start)
const verdict = (value: number) =>
  value <= MIGRATION_BUDGET_MS
    ? 'ok'
    : `OVER the ${MIGRATION_BUDGET_MS} ms budget${CHECK ? ' (not enforced with --check)' : ''}`
const rows: Array<[string, string, string, string]> = []
let overBudget = false
function report(database: string, what: string, valueMs: number, budget = true) {
  if (budget && valueMs > MIGRATION_BUDGET_MS) overBudget = true
  rows.push([database, what, `${valueMs.toLocaleString('en-US')} ms`, budget ? verdict(valueMs) : ''])
  console.info(`  ${database}: ${what}: ${valueMs} ms${budget ? ` (${verdict(valueMs)})` : ''}`)
}

/** The fixture's backfill, run to its end as a server runs it (batches of ~50 ms, a pause as long between them). */
async function timeBackfill(folder: string) {
  const [backfill] = listBackfills(folder)
  const start = performance.now()
  const run = await runToTheEnd(backfill!)
  if (!run) throw new Error('The backfill did not run')
  return { ms: ms(start), batches: run.batches, longestBatchMs: Math.round(run.longestBatchMs) }
}

async function benchEmbedded(before: string, current: string, fixture: string) {
  console.info(`Embedded database: seeding ${EVENTS.toLocaleString('en-US')} events…`)
  const { client, db } = await openPglite()
  const applyPglite = async (folder: string) => {
    await migratePglite(db as never, { migrationsFolder: folder })
    for (const step of listOnlineSteps(folder)) await client.exec(withoutConcurrently(step.sql))
  }
  try {
    await applyPglite(before)
    const seeded = await seed(db, today, { events: EVENTS, liveEvery: LIVE_EVERY })
    console.info(`  seeded ${seeded.total} events (${seeded.live} live) in ${seeded.seconds.toFixed(1)} s`)
    let start = performance.now()
    await applyPglite(current)
    report('embedded', "this release's migrations", ms(start))
    start = performance.now()
    await applyPglite(current)
    report('embedded', 'a start-up with nothing to migrate', ms(start))
    start = performance.now()
    await applyPglite(fixture)
    report('embedded', 'the fixture release (column + index)', ms(start))
    useDatabase({ db, kind: 'pglite', close: () => client.close() })
    const backfill = await timeBackfill(fixture)
    report('embedded', `its backfill, in the background (${backfill.batches} batches)`, backfill.ms, false)
    report('embedded', 'its longest batch (the database busy that long)', backfill.longestBatchMs, false)
  } finally {
    useDatabase(undefined)
    await client.close()
  }
}

async function benchPostgres(serverUrl: string, before: string, current: string, fixture: string) {
  const name = `bench_rolling_${crypto.randomBytes(4).toString('hex')}`
  const admin = postgres(serverUrl, { onnotice: () => {}, max: 1 })
  await admin.unsafe(`CREATE DATABASE ${quoteIdent(name)}`)
  const url = withDatabase(serverUrl, name)
  const servers: ServerProcess[] = []
  try {
    console.info(`PostgreSQL (${name}): seeding ${EVENTS.toLocaleString('en-US')} events…`)
    await migrateServerDatabase(url, before)
    const client = postgres(url, { onnotice: () => {}, max: 4 })
    const db = drizzlePostgres(client, { schema }) as unknown as Database
    const seeded = await seed(db, today, { events: EVENTS, liveEvery: LIVE_EVERY })
    console.info(`  seeded ${seeded.total} events (${seeded.live} live) in ${seeded.seconds.toFixed(1)} s`)
    let start = performance.now()
    await migrateServerDatabase(url, current)
    report('PostgreSQL', "this release's migrations", ms(start))
    start = performance.now()
    await migrateServerDatabase(url, current)
    report('PostgreSQL', 'a start-up with nothing to migrate', ms(start))
    const live = rowsOf(
      await db.execute(
        sql`SELECT "eventID" FROM events WHERE "eventStatus" = 'approved' AND "paymentStatus" = 'paid'
          AND "lastShowDate" >= ${today}::date ORDER BY "eventID" LIMIT 50`,
      ),
    ).map((row) => Number(row.eventID))

    console.info('The deploy: two servers under load, each replaced by the build with the fixture migration…')
    const env = (label: string, migrationsDir?: string) => ({
      ...process.env,
      NODE_ENV: 'production' as const,
      APP_ENV: 'development',
      DATABASE_URL: url,
      DATA_DIR: path.join(work, label),
      TRUST_PROXY: 'loopback',
      ...(migrationsDir ? { MIGRATIONS_DIR: migrationsDir } : {}),
    })
    const secret = crypto.randomBytes(24).toString('hex')
    const withSecret = (e: NodeJS.ProcessEnv) => ({ ...e, SESSION_SECRET: secret })
    const [a, b] = await Promise.all([
      startServerProcess({ env: withSecret(env('a')) }),
      startServerProcess({ env: withSecret(env('b')) }),
    ])
    servers.push(a, b)
    const proxy = await startDrainingProxy([a.base, b.base])
    const load = startLoad(proxy.base, { liveEventIds: live })
    await sleep(CHECK ? 1000 : 3000)
    const deployStart = Date.now()
    const replacements = await replaceOneAtATime(proxy, [a, b], (i) => withSecret(env(`new-${i}`, fixture)))
    servers.push(...replacements.map((r) => r.next))
    const deployEnd = Date.now()
    const fixtureTag = listBackfills(fixture)[0]!.name
    let backfill: { ms: number | null } | undefined
    for (let waited = 0; waited < 600_000 && backfill?.ms == null; waited += 250) {
      ;[backfill] = await client<{ ms: number | null }[]>`
        SELECT (extract(epoch FROM "finishedAt" - "startedAt") * 1000)::int AS ms
        FROM backfill_runs WHERE name = ${fixtureTag}`
      await sleep(250)
    }
    const backfillEnd = Date.now()
    const results = await load.stop()
    await proxy.close()
    await client.end()

    const during = results.filter((r) => r.end >= deployStart && r.end <= deployEnd)
    const pause = longestPause(results, deployStart, deployEnd)
    const backfillPause = longestPause(results, deployEnd, backfillEnd)
    const bad = failed(results)
    console.info(
      `  ${results.length} requests in all, ${during.length} during the deploy (${deployEnd - deployStart} ms): ` +
        `${bad.length} failed`,
    )
    for (const r of bad.slice(0, 10)) console.info(`    ${r.status} ${r.path} ${r.error ?? ''}`)
    for (const [i, r] of replacements.entries())
      report(
        'PostgreSQL',
        `new server ${i + 1}: start to answering (the fixture migration in it for the first)`,
        r.upAt - r.startedAt,
        false,
      )
    report('PostgreSQL', 'longest gap between two answers during the deploy', pause.gapMs, false)
    report('PostgreSQL', 'slowest request during the deploy', pause.slowestRequestMs, false)
    if (backfill?.ms != null)
      report(
        'PostgreSQL',
        'the backfill on the new servers, under the load (start to end)',
        backfill.ms,
        false,
      )
    report('PostgreSQL', 'slowest request while the backfill ran', backfillPause.slowestRequestMs, false)
    rows.push([
      'PostgreSQL',
      'failed requests during the deploy',
      String(bad.length),
      bad.length ? 'FAILED' : 'ok',
    ])
    return bad.length
  } finally {
    await Promise.all(servers.map((s) => stopServer(s.server)))
    await admin.unsafe(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`)
    await admin.end()
  }
}

async function main() {
  if (!builtAppExists()) process.exit(1)
  const before = migrationsBefore()
  const fixture = path.join(work, 'migrations-fixture')
  withFixtureMigrations(fixture)
  let failures = 0
  try {
    if (only !== 'postgres') await benchEmbedded(before, MIGRATIONS_FOLDER, fixture)
    if (only !== 'pglite')
      failures = await benchPostgres(
        postgresTarget() || 'postgres://postgres@127.0.0.1:5432/postgres',
        before,
        MIGRATIONS_FOLDER,
        fixture,
      )
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
  console.info(`\n| database | what | time | budget |\n| --- | --- | --- | --- |`)
  for (const row of rows) console.info(`| ${row.join(' | ')} |`)
  process.exit(failures > 0 || (overBudget && !CHECK) ? 1 : 0)
}

await main()
