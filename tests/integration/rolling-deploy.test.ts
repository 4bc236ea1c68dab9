/**
 * A rolling deploy with a migration, on PostgreSQL (a cluster of the test's own, whatever DATABASE_URL says): two
 * servers of the current build behind a round-robin proxy take a steady load (the calendar, the public events API,
 * live ads read by id, clicks on them), then each is replaced, one at a time, by the "new build": the same build
 * started with MIGRATIONS_DIR pointing at db/migrations plus tests/fixtures/rolling-deploy-migration (a nullable
 * column, its index built CONCURRENTLY, a background backfill; docs/decisions/041). The proxy drains a server
 * before it gets SIGTERM.
 * No request fails, the old servers answer while the new one migrates, and the backfill runs to its end once.
 * Then the release after it, which renames a column (tests/fixtures/rolling-deploy-rename), is refused at its
 * start-up before it migrates anything, while the servers it would replace go on answering. Last,
 * `npm run bench:rolling-deploy -- --check` runs on small data, so the benchmark keeps working.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import postgres from 'postgres'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import {
  getDatabaseHandle,
  MIGRATIONS_FOLDER,
  openServerDatabase,
  useDatabase,
  type DatabaseHandle,
} from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { ensureBuild } from '#tests/support/built-app.ts'
import { insertTestEvent } from '#tests/support/events.ts'
import { startPrivateCluster, type PrivateCluster } from '#tests/support/private-postgres.ts'
import {
  failed,
  longestPause,
  RENAMING_MIGRATIONS,
  replaceOneAtATime,
  startDrainingProxy,
  startLoad,
  startOrRefused,
  withFixtureMigrations,
  type DrainingProxy,
  type LoadResult,
  type Replacement,
} from '#tests/support/rolling-deploy.ts'
import { startServerProcess, stopServer, type ServerProcess } from '#tests/support/server-process.ts'
import { TMP_DIR, withDatabase } from '#tests/support/test-database.ts'

/** Ads besides the live ones, so the index build and the backfill have a few batches to do. */
const OTHER_ADS = 4_500

let cluster: PrivateCluster
let runDatabase: DatabaseHandle
let database: DatabaseHandle
let url: string
let proxy: DrainingProxy
const running: ServerProcess[] = []
const dataDir = path.join(TMP_DIR, `rolling-deploy-${process.pid}`)
const newMigrations = path.join(dataDir, 'migrations')
const renamingMigrations = path.join(dataDir, 'migrations-renaming')
const today = todayInZone('America/New_York')

let results: LoadResult[] = []
let replacements: Replacement[] = []
let deployStart = 0
let deployEnd = 0
let addedTags: string[] = []
let renaming: Awaited<ReturnType<typeof startOrRefused>>

const env = (name: string, migrationsDir?: string) => ({
  ...process.env,
  NODE_ENV: 'production' as const,
  APP_ENV: 'test',
  DATABASE_URL: url,
  DATA_DIR: path.join(dataDir, name),
  TRUST_PROXY: 'loopback',
  METRICS_TOKEN,
  ...(migrationsDir ? { MIGRATIONS_DIR: migrationsDir } : {}),
})

const METRICS_TOKEN = 'rolling-deploy-metrics-token-0123456789'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

beforeAll(async () => {
  await ensureBuild()
  runDatabase = getDatabaseHandle()
  cluster = await startPrivateCluster()
  const admin = postgres(cluster.url, { onnotice: () => {}, max: 1 })
  await admin.unsafe('create database rolling_deploy')
  await admin.end()
  url = withDatabase(cluster.url, 'rolling_deploy')
  addedTags = withFixtureMigrations(newMigrations)
  withFixtureMigrations(renamingMigrations, RENAMING_MIGRATIONS, newMigrations)

  const [a, b] = await Promise.all([
    startServerProcess({ env: env('a') }),
    startServerProcess({ env: env('b') }),
  ])
  running.push(a!, b!)
  database = await openServerDatabase(url, { runMigrations: false })
  useDatabase(database)
  const business = await insertBusiness(database.db)
  const live: number[] = []
  for (let n = 0; n < 12; n++)
    live.push(
      (await insertTestEvent(business, { showAdOnDates: [addDaysIso(today, n % 4), addDaysIso(today, 5)] }))
        .eventID,
    )
  const client = postgres(url, { onnotice: () => {}, max: 1 })
  const columns = (
    await client<{ name: string }[]>`
      select column_name as name from information_schema.columns
      where table_name = 'events' and column_name <> 'eventID' and is_generated = 'NEVER'`
  ).map((row) => `"${row.name}"`)
  await client.unsafe(
    `insert into events (${columns.join(', ')})
     select ${columns.map((c) => (c === '"eventTitle"' ? `'Archived ' || n` : `e.${c}`)).join(', ')}
     from events e, generate_series(1, ${OTHER_ADS}) n where e."eventID" = ${live[0]}`,
  )
  await client.end()

  proxy = await startDrainingProxy([a!.base, b!.base])
  const load = startLoad(proxy.base, { liveEventIds: live })
  await sleep(1500)
  deployStart = Date.now()
  replacements = await replaceOneAtATime(proxy, [a!, b!], (i) => env(`new-${i}`, newMigrations))
  running.push(...replacements.map((r) => r.next))
  deployEnd = Date.now()
  // The backfill starts a few seconds after the first new server answers; the load goes on until it is over.
  const probe = postgres(url, { onnotice: () => {}, max: 1 })
  for (let waited = 0; waited < 30_000; waited += 200) {
    const [row] = await probe`select "finishedAt" from backfill_runs where name = ${addedTags[0]!}`
    if (row?.finishedAt) break
    await sleep(200)
  }
  await probe.end()
  // The next release, which renames a column, started as a deploy starts it beside the servers it would replace.
  renaming = await startOrRefused(env('renaming', renamingMigrations))
  if (renaming.server) running.push(renaming.server)
  await sleep(500)
  results = await load.stop()
}, 240_000)

afterAll(async () => {
  useDatabase(runDatabase)
  await proxy?.close()
  await Promise.all(running.map((s) => stopServer(s.server)))
  await database?.close()
  await cluster?.destroy()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

test('no request fails while each server is replaced by the build with a migration', () => {
  const during = results.filter((r) => r.end >= deployStart && r.end <= deployEnd)
  const pause = longestPause(results, deployStart, deployEnd)
  console.info(
    `${results.length} requests (${during.length} during the deploy of ${deployEnd - deployStart} ms), ` +
      `${failed(results).length} failed; longest gap between answers ${pause.gapMs} ms, slowest request ` +
      `${pause.slowestRequestMs} ms`,
  )
  expect(failed(results)).toEqual([])
  expect(proxy.log.filter((r) => r.status >= 500)).toEqual([])
  expect(during.length).toBeGreaterThan(50)
  // Every kind of request, the writes included, answered as it should.
  for (const r of results) expect(r.status, r.path).toBe(r.path.endsWith('/track-click') ? 204 : 200)
  for (const r of replacements) expect(r.oldExitCode, 'an old server cut requests at its shutdown').toBe(0)
})

test('the next release, which renames a column, is refused at start-up before it migrates; the servers go on', async () => {
  expect(renaming.server, 'the renaming release started').toBeUndefined()
  expect(renaming.refusal).toContain('The server exited with code 1')
  expect(renaming.refusal).toContain(
    '0101_event_title_renamed.sql, statement 1 (line 4): ALTER TABLE "events" RENAME COLUMN "eventTitle" TO "title"',
  )
  expect(renaming.refusal).toContain('What to do: Rename in two releases')
  const serving = new Set(replacements.map((r) => r.next.base))
  const meanwhile = proxy.log.filter((r) => r.start >= renaming.startedAt && r.end <= renaming.endedAt)
  console.info(
    `The renaming release was refused ${renaming.endedAt - renaming.startedAt} ms after its start; the ` +
      `servers it would replace answered ${meanwhile.length} requests meanwhile`,
  )
  expect(meanwhile.length).toBeGreaterThan(0)
  expect(meanwhile.filter((r) => !serving.has(r.target) || r.status >= 500)).toEqual([])
  const client = postgres(url, { onnotice: () => {}, max: 1 })
  try {
    const columns = await client<{ name: string }[]>`
      select column_name as name from information_schema.columns
      where table_name = 'events' and column_name in ('eventTitle', 'title')`
    expect(columns.map((c) => c.name)).toEqual(['eventTitle'])
  } finally {
    await client.end()
  }
})

test('the old servers answer while the first new server migrates', async () => {
  const first = replacements[0]!
  const oldBases = new Set(replacements.map((r) => r.old.base))
  const answeredByOld = proxy.log.filter(
    (r) => oldBases.has(r.target) && r.start >= first.startedAt && r.end <= first.upAt && r.status < 500,
  )
  console.info(
    `The first new server took ${first.upAt - first.startedAt} ms from its start to answering (its migration ` +
      `included); the old servers answered ${answeredByOld.length} requests meanwhile`,
  )
  expect(answeredByOld.length).toBeGreaterThan(0)

  const client = postgres(url, { onnotice: () => {}, max: 1 })
  try {
    const journal = JSON.parse(
      fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8'),
    ) as {
      entries: unknown[]
    }
    const [applied] = await client<
      [{ count: number }]
    >`select count(*)::int as count from drizzle.__drizzle_migrations`
    expect(applied!.count).toBe(journal.entries.length + addedTags.length)
    const [index] = await client<[{ valid: boolean }]>`
      select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
      where c.relname = 'events_title_length_idx'`
    expect(index).toEqual({ valid: true })
  } finally {
    await client.end()
  }
})

test('the backfill fills every ad once, on one server, and /metrics shows it done', async () => {
  const client = postgres(url, { onnotice: () => {}, max: 1 })
  try {
    const [run] = await client<[{ rowsDone: number; finishedAt: Date | null }]>`
      select "rowsDone"::int as "rowsDone", "finishedAt" from backfill_runs where name = ${addedTags[0]!}`
    const [counts] = await client<[{ total: number; empty: number }]>`
      select count(*)::int as total, count(*) filter (where "titleLength" is null)::int as empty from events`
    expect(run!.finishedAt).not.toBeNull()
    // Each ad gone through once: a batch counted twice (two servers at once, or a batch done again) would exceed it.
    expect(run!.rowsDone).toBe(counts!.total)
    expect(counts!.empty).toBe(0)
    const [wrong] = await client<[{ count: number }]>`
      select count(*)::int as count from events where "titleLength" <> char_length("eventTitle")`
    expect(wrong!.count).toBe(0)
  } finally {
    await client.end()
  }
  const finishedLines = replacements.flatMap((r) =>
    r.backfillLines.filter((line) => line.includes('"msg":"Backfill finished"')),
  )
  expect(finishedLines).toHaveLength(1)

  const metric = (text: string, name: string) =>
    new RegExp(`^${name}\\{backfill="${addedTags[0]}"\\} (\\d+)$`, 'm').exec(text)?.[1]
  const scrape = () =>
    Promise.all(
      replacements.map((r) =>
        fetch(`${r.next.base}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } }).then(
          (res) => res.text(),
        ),
      ),
    )
  // Each server looks at the backfills 5 s after it starts, and every 5 s while another server runs one: the second
  // one may not have looked since the first finished.
  await expect
    .poll(async () => (await scrape()).map((text) => metric(text, 'eventshout_backfill_rows_remaining')), {
      timeout: 15_000,
    })
    .toEqual(['0', '0'])
  for (const text of await scrape()) {
    expect(metric(text, 'eventshout_backfill_running')).toBe('0')
    expect(metric(text, 'eventshout_backfill_rows_done')).toBe(String(OTHER_ADS + 12))
  }
})

/** Its exit code and everything it wrote. */
function run(args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('exit', (code) => resolve({ code, output }))
  })
}

test('`npm run bench:rolling-deploy -- --check` runs from the previous release it finds to this one', async () => {
  // On small data, on the embedded database and on this test's cluster (a database of its own), the deploy included.
  const { code, output } = await run(
    ['--import', 'tsx', 'scripts/bench-rolling-deploy.ts', '--check', `--postgres=${cluster.url}`],
    { ...process.env, DATABASE_URL: '' },
  )
  const table = output.slice(output.lastIndexOf('| database |'))
  console.info(table)
  expect(code, output.slice(-4000)).toBe(0)
  expect(output).toMatch(/^The previous release: /m)
  expect(table).toContain("| embedded | this release's migrations |")
  expect(table).toContain("| PostgreSQL | this release's migrations |")
  expect(table).toContain('| PostgreSQL | failed requests during the deploy | 0 | ok |')
}, 300_000)
