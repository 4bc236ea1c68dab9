/**
 * Calendar benchmark: `npm run bench:calendar` after `npx remix vite:build`.
 *
 * The headline is the date-window page (`/calendar?to=<date>`: every live event matches, a full page) with a new end
 * date each request (both caches miss) against the same page rendered with its listing from memory (one end date, a
 * new ignored parameter each request), side by side with autocannon at 10 connections: the ratio of their server CPU
 * per request (from /proc, both threads), i.e. of throughput. A narrow keyword (`keyword=Ref+<n>`, 1–11 matches) is
 * measured the same way. Both at 100,000 events (10,000 live); the date-window miss again at 200,000 events (100,000
 * live), each run beside one at 100,000 on that scale's server (kept up for it), to show that a request's cost does
 * not grow with the number of live events.
 *
 * For reference: `/healthz?db=0` (no database: the framework's floor), cache misses of every kind (each request a
 * filter combination nobody asked for just before: a later page, a category, a date range, a keyword, a ZIP, mixes of
 * them) at 10 and 50 connections, a few fixed calendar URLs (answered by the shared page cache) and the same URLs
 * rendered (each URL new; the listing cache warm), with the server's event-loop delay
 * (`perf_hooks.monitorEventLoopDelay`, see event-loop-probe.js). Every statement a page runs is printed with its plan
 * and its planning and execution time (the fastest of EXPLAIN_RUNS runs of EXPLAIN (ANALYZE, SUMMARY)).
 *
 * Budgets (exit 1 over any): each cache miss above costs at most 2× the CPU of its page from memory (≥ 0.5× its
 * throughput); the date-window miss's CPU at 100,000 live events is within 20 % of that at 10,000; counting a broad
 * keyword (the seeded word nearest 10 % of the live ads, not under it) and filling the month grid with it cost at most
 * 5 ms of database time each (planning and execution); on the embedded database no request blocks the event loop for
 * more than 10 ms. That last one is read from a run of mixed cache misses at half the throughput the server managed,
 * one request every 1/rate s (p99 of the delay): at full load the delay is the queue of every request's work, which
 * even `/healthz?db=0` pushes past 10 ms, while below it the delay is the longest single block. Both are printed.
 *
 * Runs on the embedded database (PGlite), and also on PostgreSQL when DATABASE_URL is set or `--postgres=<url>` is
 * given (a database of its own is created on that server and dropped afterwards).
 *
 * Options: --duration=<seconds per run> (default 10), --repeat=<runs at 10 connections> (default 3),
 * --postgres[=<url>], --only=pglite|postgres, --explain-only (seed and print plans, no server), --keep-data,
 * --headline-only (the 100,000-event scale alone: no growth figure, a few minutes less of seeding),
 * --views (instead of the above: the calendar with ad views counted vs VIEW_COUNTING=off, at 100,000 events; every
 * request from a visitor of its own, so each is counted; budget: counting costs at most 5 % more server CPU per
 * request, i.e. at most 5 % of the throughput).
 */
import { execFileSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { sql, type SQLWrapper } from 'drizzle-orm'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import type { Database, DatabaseHandle } from '#db/client.server.ts'
import * as schema from '#db/schema.ts'
import { cacheMissPaths, rowsOf, seed, type Scale } from './bench-events.ts'
import { benchEnvironment, builtAppExists, option, postgresTarget, sleep } from './bench-server.ts'
import { startServerProcess, stopServer } from '#tests/support/server-process.ts'

/**
 * The scales the benchmark runs at: the headline (100,000 events, every tenth live) and ten times as many live
 * events (200,000 events, every other one live), to show that a request's cost does not grow with them.
 */
const HEADLINE: Scale = { events: 100_000, liveEvery: 10 }
const SCALES: Scale[] = process.argv.includes('--headline-only')
  ? [HEADLINE]
  : [HEADLINE, { events: 200_000, liveEvery: 2 }]
const scaleText = ({ events, liveEvery }: Scale) =>
  `${events.toLocaleString('en-US')} events (${(events / liveEvery).toLocaleString('en-US')} live)`
const THROUGHPUT_BUDGET = 0.5
const CPU_GROWTH_BUDGET = 0.2
const EVENT_LOOP_BUDGET_MS = 10
const VIEW_COUNTING_BUDGET = 0.05
/** The ZIP code of 'Bench Business 11', which has live events (see the seed). */
const ZIP_WITH_LIVE_EVENTS = String(60000 + ((11 * 7919) % 40000))

const args = process.argv.slice(2)
const DURATION_S = Number(option('duration') ?? 10)
const REPEAT = Number(option('repeat') ?? 3)
const EXPLAIN_ONLY = args.includes('--explain-only')
const VIEWS = args.includes('--views')
/** Keeps the seeded databases (their paths or URLs are printed), e.g. to profile the server on them afterwards. */
const KEEP_DATA = args.includes('--keep-data')
const POSTGRES_URL = postgresTarget(args)
const ONLY = option('only')
const PROBE = path.resolve(import.meta.dirname, 'event-loop-probe.js')
const CLOCK_TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100

/** A few fixed filter URLs: what the shared page cache answers once they have been asked. */
function fixedCalendarPaths(today: string) {
  const inAWeek = addDaysIso(today, 7)
  const inAMonth = addDaysIso(today, 30)
  return [
    '/calendar',
    '/calendar?category=Concert',
    '/calendar?keyword=jazz',
    `/calendar?from=${today}&to=${inAWeek}`,
    `/calendar?category=Food+%26+Drink&from=${inAWeek}&to=${inAMonth}`,
    `/calendar?zip=${ZIP_WITH_LIVE_EVENTS}`,
    `/calendar?keyword=pancakes&category=Fundraiser&from=${today}`,
    '/calendar?page=3',
  ]
}

/** How many times each statement is EXPLAINed: the fastest run is reported (the first ones warm the code up). */
const EXPLAIN_RUNS = 7

/**
 * The broad keyword: the word of the seeded descriptions in the share of live ads nearest 10 % (and not under it),
 * and that share.
 */
async function broadKeyword(db: Database, today: string) {
  const { KEYWORDS } = await import('./bench-events.ts')
  const live = Number(
    rowsOf(
      await db.execute(
        sql`SELECT count(*)::int AS n FROM live_event_texts WHERE last_date >= ${today}::date`,
      ),
    )[0]?.n,
  )
  let best = { word: KEYWORDS[0]!, share: Infinity }
  for (const word of KEYWORDS) {
    const n = Number(
      rowsOf(
        await db.execute(
          sql`SELECT count(*)::int AS n FROM live_event_texts
            WHERE last_date >= ${today}::date AND description LIKE ${`%${word}%`}`,
        ),
      )[0]?.n,
    )
    const share = n / live
    if (share >= 0.1 && share < best.share) best = { word, share }
  }
  return best
}

/** The database time (planning and execution) a statement is allowed, for those with a budget. */
const DATABASE_TIME_BUDGET_MS = 5

interface Plans {
  /** One summary line per statement. */
  lines: string[]
  /** The statements with a database-time budget: the broad keyword's count and its month grid. */
  budgeted: Array<{ label: string; ms: number }>
}

/** EXPLAIN (ANALYZE) of the queries the calendar runs for a few filter mixes; one summary line each. */
async function explainQueries(db: Database, today: string): Promise<Plans> {
  const { explainCalendarQueries } = await import('./explain-calendar.ts')
  const { normalizeCalendarFilters } = await import('#app/models/calendar/calendar-filters.ts')
  const summary: string[] = []
  const budgeted: Plans['budgeted'] = []
  const broad = await broadKeyword(db, today)
  const withBudget = new Set([
    `count /calendar?keyword=${broad.word}`,
    `month /calendar?view=month&keyword=${broad.word}`,
  ])
  summary.push(`(broad keyword: '${broad.word}', in ${(broad.share * 100).toFixed(1)} % of live ads)`)

  async function explain(label: string, query: SQLWrapper) {
    const runs: Array<{ planning: number; execution: number }> = []
    let lines: string[] = []
    for (let i = 0; i < EXPLAIN_RUNS; i++) {
      const plan = rowsOf(await db.execute(sql`EXPLAIN (ANALYZE, SUMMARY, COSTS OFF, TIMING OFF) ${query}`))
      lines = plan.map((r) => String(Object.values(r)[0]))
      const time = (name: string) =>
        Number(/([\d.]+) ms/.exec(lines.find((l) => l.startsWith(name)) ?? '')?.[1])
      runs.push({ planning: time('Planning Time'), execution: time('Execution Time') })
    }
    console.info(`\n-- ${label}`)
    for (const line of lines) console.info(`   ${line}`)
    const indexes = new Set(
      lines.flatMap((l) =>
        [...l.matchAll(/(?:Index(?: Only)? Scan using|Bitmap Index Scan on) (\w+)/g)].map((m) => m[1]),
      ),
    )
    const fastest = (key: 'planning' | 'execution') => `${Math.min(...runs.map((r) => r[key])).toFixed(3)} ms`
    if (withBudget.has(label))
      budgeted.push({ label, ms: Math.min(...runs.map((r) => r.planning + r.execution)) })
    summary.push(
      `${label.padEnd(70)} ${fastest('planning').padStart(10)} ${fastest('execution').padStart(10)}  ` +
        `${[...indexes].join(', ') || 'no index'}`,
    )
  }

  const inAWeek = addDaysIso(today, 7)
  for (const p of [
    '/calendar',
    `/calendar?to=${addDaysIso(today, 90)}`,
    '/calendar?page=3',
    '/calendar?category=Concert',
    `/calendar?keyword=${broad.word}`,
    `/calendar?keyword=${broad.word}&category=Concert`,
    '/calendar?keyword=Ref+1234',
    `/calendar?from=${inAWeek}&to=${addDaysIso(inAWeek, 3)}`,
    `/calendar?zip=${ZIP_WITH_LIVE_EVENTS}`,
    `/calendar?zip=${ZIP_WITH_LIVE_EVENTS}&keyword=${broad.word}`,
    `/calendar?near=${ZIP_WITH_LIVE_EVENTS}&radius=50`,
    `/calendar?near=${ZIP_WITH_LIVE_EVENTS}&radius=50&sort=nearest&category=Concert`,
    `/calendar?near=${ZIP_WITH_LIVE_EVENTS}&radius=10&from=${inAWeek}&to=${addDaysIso(inAWeek, 3)}`,
  ]) {
    const { filters, page } = normalizeCalendarFilters(new URL(p, 'http://bench').searchParams)
    for (const [name, query] of await explainCalendarQueries(filters, { today, page })) {
      await explain(`${name} ${p}`, query)
    }
  }

  // The month grid: the days from today on, and those before today in the current month.
  const { eventsByDayQueries } = await import('#app/models/calendar/calendar-month-grid.server.ts')
  const { monthGrid, MONTH_DAY_EVENTS_LIMIT } = await import('#app/models/calendar/calendar-month.ts')
  const grid = monthGrid(inAWeek.slice(0, 7))
  for (const p of [
    '/calendar?view=month',
    '/calendar?view=month&category=Concert',
    `/calendar?view=month&keyword=${broad.word}`,
  ]) {
    const { filters } = normalizeCalendarFilters(new URL(p, 'http://bench').searchParams)
    const range = { today, from: grid.first, to: grid.last, perDay: MONTH_DAY_EVENTS_LIMIT }
    for (const [name, query] of eventsByDayQueries(filters, range)) await explain(`${name} ${p}`, query)
  }
  return { lines: summary, budgeted }
}

interface LoopDelay {
  p50: number
  p99: number
  max: number
}

interface LoadResult {
  rps: number
  p50: number
  p99: number
  requests: number
  failures: number
  /** Server CPU time (user + system) per request, ms. */
  cpuMs: number
  loop: LoopDelay
}

/** The CPU time (user + system) a process has used so far, ms. */
function cpuTimeMs(pid: number) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S
}

/** The server's event-loop delay since the previous call (see event-loop-probe.js). */
async function eventLoopDelay(server: ChildProcess, file: string): Promise<LoopDelay> {
  fs.rmSync(file, { force: true })
  server.kill('SIGUSR2')
  // A busy machine may take a while to schedule the server.
  for (let i = 0; i < 1500 && !fs.existsSync(file); i++) await sleep(20)
  return JSON.parse(fs.readFileSync(file, 'utf8')) as LoopDelay
}

interface Target {
  base: string
  server: ChildProcess
  probeFile: string
}

let visitorNumber = 0
/** A new visitor's address (the server trusts the loopback proxy's word in the --views runs). */
function nextVisitor() {
  const n = ++visitorNumber
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`
}

async function load(
  target: Target,
  nextPath: () => string,
  connections: number,
  { newVisitors = false }: { newVisitors?: boolean } = {},
): Promise<LoadResult> {
  const pid = target.server.pid!
  await eventLoopDelay(target.server, target.probeFile)
  const cpuBefore = cpuTimeMs(pid)
  const result = await autocannon({
    url: target.base,
    connections,
    duration: DURATION_S,
    requests: [
      {
        method: 'GET',
        setupRequest: (req: autocannon.Request) => ({
          ...req,
          path: nextPath(),
          ...(newVisitors ? { headers: { ...req.headers, 'x-forwarded-for': nextVisitor() } } : {}),
        }),
      },
    ],
  })
  const cpu = cpuTimeMs(pid) - cpuBefore
  const loop = await eventLoopDelay(target.server, target.probeFile)
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
    cpuMs: cpu / Math.max(1, result.requests.total),
    loop,
  }
}

/**
 * `rate` requests a second, each sent on its own schedule (every 1/rate s) whether or not the ones before were
 * answered. autocannon's rate sends each connection's share of a second back to back at the start of the second, so at
 * "half load" the server works at full load for half of every second and its event loop shows the queue again.
 */
async function pacedLoad(target: Target, nextPath: () => string, rate: number): Promise<LoadResult> {
  const pid = target.server.pid!
  await eventLoopDelay(target.server, target.probeFile)
  const cpuBefore = cpuTimeMs(pid)
  const latencies: number[] = []
  let failures = 0
  const answers: Array<Promise<void>> = []
  const start = performance.now()
  const total = Math.round(rate * DURATION_S)
  for (let i = 0; i < total; i++) {
    const wait = start + (i * 1000) / rate - performance.now()
    if (wait > 0) await sleep(wait)
    const sent = performance.now()
    answers.push(
      fetch(`${target.base}${nextPath()}`)
        .then(async (res) => {
          await res.arrayBuffer()
          if (res.status !== 200) failures++
          latencies.push(performance.now() - sent)
        })
        .catch(() => void failures++),
    )
  }
  await Promise.all(answers)
  const seconds = (performance.now() - start) / 1000
  const cpu = cpuTimeMs(pid) - cpuBefore
  const loop = await eventLoopDelay(target.server, target.probeFile)
  latencies.sort((a, b) => a - b)
  const at = (q: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0)
  return {
    rps: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    requests: total,
    failures,
    cpuMs: cpu / Math.max(1, total),
    loop,
  }
}

function cycle(paths: readonly string[]) {
  let i = 0
  return () => paths[i++ % paths.length]!
}

let uniqueRequest = 0
/** The same paths, each request's URL made new by a parameter the page ignores (the shared page cache misses). */
function uniqueCycle(paths: readonly string[]) {
  const next = cycle(paths)
  return () => {
    const p = next()
    return `${p}${p.includes('?') ? '&' : '?'}nocache=${++uniqueRequest}`
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!

interface Case {
  label: string
  /** 0: requests sent on a schedule, not over a number of connections. */
  connections: number
  runs: LoadResult[]
}

function summarize(c: Case) {
  const rps = c.runs.map((r) => r.rps)
  return {
    rps: median(rps),
    rpsText:
      c.runs.length > 1
        ? `${Math.min(...rps).toFixed(0)} / ${median(rps).toFixed(0)} / ${Math.max(...rps).toFixed(0)}`
        : rps[0]!.toFixed(0),
    cpuMs: median(c.runs.map((r) => r.cpuMs)),
    p99: Math.max(...c.runs.map((r) => r.p99)),
    loopP99: Math.max(...c.runs.map((r) => r.loop.p99)),
    loopMax: Math.max(...c.runs.map((r) => r.loop.max)),
    failures: c.runs.reduce((sum, r) => sum + r.failures, 0),
  }
}

function printCases(cases: Case[], floor: Case) {
  const floorRps = summarize(floor).rps
  console.info(
    `  ${'case'.padEnd(34)} ${'conns'.padStart(5)} ${'req/s min / med / max'.padStart(22)} ${'p99'.padStart(8)} ` +
      `${'CPU/req'.padStart(8)} ${'loop p99 / max'.padStart(16)} ${'fail'.padStart(5)} ${'vs floor'.padStart(8)}`,
  )
  for (const c of cases) {
    const s = summarize(c)
    console.info(
      `  ${c.label.padEnd(34)} ${(c.connections ? String(c.connections) : '—').padStart(5)} ${s.rpsText.padStart(22)} ${`${s.p99} ms`.padStart(8)} ` +
        `${`${s.cpuMs.toFixed(2)} ms`.padStart(8)} ${`${s.loopP99} / ${s.loopMax} ms`.padStart(16)} ` +
        `${String(s.failures).padStart(5)} ${`${(s.rps / floorRps).toFixed(2)}×`.padStart(8)}`,
    )
  }
}

type DatabaseKind = 'pglite' | 'postgres'

/** A fresh database seeded at `scale`: where it is, what the server needs to use it, and how to remove it. */
async function prepareDatabase(kind: DatabaseKind, scale: Scale, today: string) {
  const totalEvents = scale.events
  const { openEmbeddedDatabase, openServerDatabase, useDatabase } = await import('#db/client.server.ts')
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventshout-bench-calendar-'))
  let url = ''
  let drop = async () => {}
  if (kind === 'postgres') {
    const name = `bench_calendar_${process.pid}_${totalEvents}`
    const admin = postgres(POSTGRES_URL, { max: 1, onnotice: () => {} })
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name}`)
    await admin.unsafe(`CREATE DATABASE ${name}`)
    await admin.end()
    const u = new URL(POSTGRES_URL)
    u.pathname = `/${name}`
    url = u.toString()
    drop = async () => {
      const again = postgres(POSTGRES_URL, { max: 1, onnotice: () => {} })
      await again.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await again.end()
    }
  }
  let handle: DatabaseHandle
  if (kind === 'postgres') {
    // Migrated by the app's own code; seeded over a connection without the app's 15 s statement timeout.
    await (await openServerDatabase(url)).close()
    const client = postgres(url, { max: 1, onnotice: () => {} })
    handle = {
      db: drizzlePostgres(client, { schema }) as unknown as Database,
      kind,
      close: () => client.end(),
    }
  } else {
    handle = await openEmbeddedDatabase(dataDir)
  }
  useDatabase(handle)
  let plans: Plans = { lines: [], budgeted: [] }
  try {
    const seeded = await seed(handle.db, today, scale)
    console.info(
      `\n[${kind}] seeded ${seeded.total} events (${seeded.live} live) in ${seeded.seconds.toFixed(1)} s (today ${today})`,
    )
    if (scale === HEADLINE) plans = await explainQueries(handle.db, today)
  } finally {
    useDatabase(undefined)
    await handle.close()
  }
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url },
    plans,
    async remove() {
      if (KEEP_DATA && kind === 'pglite') return console.info(`Data kept in ${dataDir}`)
      fs.rmSync(dataDir, { recursive: true, force: true })
      if (KEEP_DATA) return console.info(`Database kept: ${url}`)
      await drop()
    },
  }
}

async function withServer<T>(env: NodeJS.ProcessEnv, run: (target: Target) => Promise<T>): Promise<T> {
  const probeFile = path.join(os.tmpdir(), `eventshout-event-loop-${process.pid}.json`)
  const started = await startServerProcess({
    env: {
      ...env,
      NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --import=${PROBE}`.trim(),
      EVENT_LOOP_PROBE_FILE: probeFile,
    },
    healthPath: '/healthz?db=0',
  })
  try {
    return await run({ base: started.base, server: started.server, probeFile })
  } catch (error) {
    console.error(`Server output (tail):\n${started.log()}`)
    throw error
  } finally {
    await stopServer(started.server)
    fs.rmSync(probeFile, { force: true })
  }
}

/** Asks a few cache-miss URLs once, to show what they find. */
async function sampleMisses(base: string, today: string) {
  const next = cacheMissPaths(today)
  const found: number[] = []
  for (let i = 0; i < 24; i++) {
    const p = next()
    const res = await fetch(`${base}${p}`)
    const html = await res.text()
    const n = /We found (\d+) event\(s\) for you!/.exec(html)?.[1]
    if (res.status !== 200 || n === undefined) throw new Error(`GET ${p} → ${res.status}`)
    found.push(Number(n))
  }
  const sorted = [...found].sort((a, b) => a - b)
  console.info(
    `  cache-miss URLs find ${sorted[0]}–${sorted.at(-1)} matches (median ${median(sorted)}), ` +
      `${found.filter((n) => n === 0).length} of ${found.length} none`,
  )
}

/** Two seconds of cache misses (tomorrow's filters): JIT and first-use code paths are not what is measured. */
async function warmUp(target: Target, today: string) {
  const paths = cacheMissPaths(addDaysIso(today, 1))
  await autocannon({
    url: target.base,
    connections: 10,
    duration: 2,
    requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: paths() }) }],
  })
}

interface ScaleResult {
  scale: Scale
  floor: Case
  miss: Case
  /** Cache misses at half the throughput the server managed: the event loop's delay is then its longest blocks. */
  paced: Case
  cases: Case[]
  /** The date-window page on a cache miss, and the same page rendered with its listing from memory. */
  windowMiss: Case
  rendered: Case
  /** At the headline scale: a narrow keyword (1–11 matches) on a cache miss, and the same page from memory. */
  narrow?: { miss: Case; rendered: Case }
  /** At a larger scale: the headline scale's date-window miss, each run just before this scale's. */
  windowMissAlongside?: Case
}

/**
 * The date-window page on a cache miss: every live event matches a window ending after the last show date, a full
 * page. A new end date each request misses both caches.
 */
function newWindowPaths(today: string) {
  let windowEnd = 0
  return () => `/calendar?to=${addDaysIso(today, 90 + (++windowEnd % 5000))}&w=${windowEnd}`
}

/**
 * The cases of one scale on its server. With `alongside` (the headline scale's server, still up), each run of the
 * date-window miss is preceded by the same run there, so the growth from one scale to the other is measured side by
 * side rather than minutes apart on a machine whose speed drifts.
 */
async function measureScale(target: Target, scale: Scale, today: string, alongside?: Target) {
  await sampleMisses(target.base, today)
  await warmUp(target, today)
  await autocannon({ url: `${target.base}/healthz?db=0`, connections: 10, duration: 2 })

  const headline = scale === HEADLINE
  const floor: Case = { label: 'GET /healthz?db=0', connections: 10, runs: [] }
  const miss: Case = { label: 'GET /calendar, cache miss', connections: 10, runs: [] }
  const windowMiss: Case = { label: 'GET /calendar?to=<new>, cache miss', connections: 10, runs: [] }
  const rendered: Case = { label: 'GET /calendar?to=<d>, from memory', connections: 10, runs: [] }
  const windowMissAlongside: Case = {
    label: `GET /calendar?to=<new> at ${HEADLINE.events / 1000}k`,
    connections: 10,
    runs: [],
  }
  const misses = cacheMissPaths(today)
  const floorPath = () => '/healthz?db=0'
  const newWindow = newWindowPaths(today)
  // One end date with a new ignored parameter renders from the listing cache.
  const sameWindow = uniqueCycle([`/calendar?to=${addDaysIso(today, 89)}`])
  if (alongside) await warmUp(alongside, today)
  // A narrow keyword: 'Ref <n>' is in the description of ad n and of ads n0 to n9, so a four-digit n finds 1–11
  // ads (a tenth of them live). A new n each request misses both caches; one n renders from the listing cache.
  const narrow = headline
    ? {
        miss: { label: 'GET /calendar?keyword=Ref+<new>, miss', connections: 10, runs: [] as LoadResult[] },
        rendered: {
          label: 'GET /calendar?keyword=Ref+<n>, memory',
          connections: 10,
          runs: [] as LoadResult[],
        },
      }
    : undefined
  let reference = 0
  const newReference = () => `/calendar?keyword=Ref+${1000 + (++reference % 9000)}`
  const sameReference = uniqueCycle(['/calendar?keyword=Ref+999'])
  // Side by side, so a busy moment of the machine touches all alike.
  for (let i = 0; i < REPEAT; i++) {
    floor.runs.push(await load(target, floorPath, 10))
    rendered.runs.push(await load(target, sameWindow, 10))
    if (alongside) windowMissAlongside.runs.push(await load(alongside, newWindow, 10))
    windowMiss.runs.push(await load(target, newWindow, 10))
    miss.runs.push(await load(target, misses, 10))
    if (narrow) {
      narrow.rendered.runs.push(await load(target, sameReference, 10))
      narrow.miss.runs.push(await load(target, newReference, 10))
    }
  }
  // At full load the delay is everyone's queued work; at half load, evenly paced, it shows the longest single block.
  const rate = Math.max(5, Math.round(summarize(miss).rps / 2))
  const paced: Case = {
    label: `GET /calendar, cache miss, ${rate} req/s even`,
    connections: 0,
    runs: [await pacedLoad(target, misses, rate)],
  }
  const cases = [
    floor,
    rendered,
    ...(alongside ? [windowMissAlongside] : []),
    windowMiss,
    ...(narrow ? [narrow.rendered, narrow.miss] : []),
    miss,
    paced,
  ]
  if (headline) {
    const fixed = fixedCalendarPaths(today)
    cases.push(
      { label: 'GET /healthz?db=0', connections: 50, runs: [await load(target, floorPath, 50)] },
      { label: 'GET /calendar, cache miss', connections: 50, runs: [await load(target, misses, 50)] },
      {
        label: 'GET /calendar, fixed URLs (cached)',
        connections: 10,
        runs: [await load(target, cycle(fixed), 10)],
      },
      {
        label: 'GET /calendar, rendered (warm)',
        connections: 10,
        runs: [await load(target, uniqueCycle(fixed), 10)],
      },
    )
  }
  const result: ScaleResult = { scale, floor, miss, paced, cases, windowMiss, rendered, narrow }
  if (alongside) result.windowMissAlongside = windowMissAlongside
  return result
}

/**
 * Every scale on `kind`: the headline scale's server stays up while the larger scale is seeded and measured, for the
 * side-by-side growth figure.
 */
async function runScales(kind: DatabaseKind, today: string, baseEnv: NodeJS.ProcessEnv) {
  const headlineData = await prepareDatabase(kind, HEADLINE, today)
  const results: ScaleResult[] = []
  try {
    if (EXPLAIN_ONLY) return { plans: headlineData.plans, results }
    await withServer({ ...baseEnv, ...headlineData.env }, async (headlineTarget) => {
      results.push(await measureScale(headlineTarget, HEADLINE, today))
      for (const scale of SCALES.filter((s) => s !== HEADLINE)) {
        const data = await prepareDatabase(kind, scale, today)
        try {
          await withServer({ ...baseEnv, ...data.env }, async (target) => {
            results.push(await measureScale(target, scale, today, headlineTarget))
          })
        } finally {
          await data.remove()
        }
      }
    })
    return { plans: headlineData.plans, results }
  } finally {
    await headlineData.remove()
  }
}

/**
 * The calendar with views counted and with VIEW_COUNTING=off, one server after the other and back (REPEAT times),
 * so a busy moment of the machine touches both alike. Each request is a new visitor, so each listed ad is counted.
 */
async function compareViewCounting(kind: DatabaseKind, today: string, baseEnv: NodeJS.ProcessEnv) {
  const database = await prepareDatabase(kind, HEADLINE, today)
  const fixed = fixedCalendarPaths(today)
  const misses = cacheMissPaths(today)
  const settings = ['on', 'off'] as const
  const cases = Object.fromEntries(
    settings.map((setting) => [
      setting,
      {
        cached: { label: `cached, counting ${setting}`, connections: 10, runs: [] as LoadResult[] },
        miss: { label: `cache miss, counting ${setting}`, connections: 10, runs: [] as LoadResult[] },
      },
    ]),
  ) as Record<(typeof settings)[number], { cached: Case; miss: Case }>
  try {
    for (let i = 0; i < REPEAT; i++) {
      for (const setting of i % 2 === 0 ? settings : [...settings].reverse()) {
        await withServer(
          { ...baseEnv, ...database.env, VIEW_COUNTING: setting, TRUST_PROXY: 'loopback' },
          async (target) => {
            await warmUp(target, today)
            cases[setting].cached.runs.push(await load(target, cycle(fixed), 10, { newVisitors: true }))
            cases[setting].miss.runs.push(await load(target, misses, 10, { newVisitors: true }))
          },
        )
      }
    }
  } finally {
    await database.remove()
  }
  console.info(`\n[${kind}] ${scaleText(HEADLINE)}, every request a new visitor:`)
  const all = settings.flatMap((setting) => [cases[setting].cached, cases[setting].miss])
  printCases(all, cases.off.cached)
  let ok = true
  // Judged on the server's CPU time per request (throughput is its inverse on a quiet machine, and far noisier on
  // a busy one); the throughput change is printed beside it.
  for (const kindOfPage of ['cached', 'miss'] as const) {
    const on = summarize(cases.on[kindOfPage])
    const off = summarize(cases.off[kindOfPage])
    const cost = on.cpuMs / off.cpuMs - 1
    const within = cost <= VIEW_COUNTING_BUDGET
    ok &&= within
    console.info(
      `[${kind}] counting views costs the ${kindOfPage === 'cached' ? 'cached' : 'cache-miss'} calendar ` +
        `${(cost * 100).toFixed(1)} % more CPU per request (throughput ${((on.rps / off.rps - 1) * 100).toFixed(1)} %) ` +
        `(budget ≤ ${VIEW_COUNTING_BUDGET * 100} %) ${within ? 'OK' : 'OVER BUDGET'}`,
    )
  }
  return ok
}

async function runDatabase(kind: DatabaseKind, today: string, baseEnv: NodeJS.ProcessEnv) {
  if (VIEWS) return compareViewCounting(kind, today, baseEnv)
  const { plans, results } = await runScales(kind, today, baseEnv)
  console.info(
    `\n[${kind}] every statement a page runs at ${scaleText(HEADLINE)} (planning time, execution time: the fastest of ${EXPLAIN_RUNS} runs; indexes used):`,
  )
  for (const line of plans.lines) console.info(`  ${line}`)
  let databaseTimeOk = true
  for (const { label, ms } of plans.budgeted) {
    const within = ms <= DATABASE_TIME_BUDGET_MS
    databaseTimeOk &&= within
    console.info(
      `[${kind}] ${label}: ${ms.toFixed(2)} ms of database time (budget ≤ ${DATABASE_TIME_BUDGET_MS} ms) ` +
        `${within ? 'OK' : 'OVER BUDGET'}`,
    )
  }
  if (EXPLAIN_ONLY) return databaseTimeOk

  for (const r of results) {
    console.info(`\n[${kind}] ${scaleText(r.scale)}:`)
    printCases(r.cases, r.floor)
  }
  const headline = results[0]!
  const large = results.length > 1 ? results.at(-1)! : undefined
  const floor = summarize(headline.floor)
  const miss = summarize(headline.miss)
  const windowMiss = summarize(headline.windowMiss)
  const rendered = summarize(headline.rendered)
  // Judged on the server's CPU per request (all threads): on a busy machine req/s is far noisier; it is its inverse
  // when the server is the bottleneck, and printed beside it.
  const ratio = rendered.cpuMs / windowMiss.cpuMs
  const throughputOk =
    ratio >= THROUGHPUT_BUDGET && windowMiss.failures === 0 && rendered.failures === 0 && miss.failures === 0
  const narrowMiss = summarize(headline.narrow!.miss)
  const narrowRendered = summarize(headline.narrow!.rendered)
  const narrowRatio = narrowRendered.cpuMs / narrowMiss.cpuMs
  const narrowOk =
    narrowRatio >= THROUGHPUT_BUDGET && narrowMiss.failures === 0 && narrowRendered.failures === 0
  const alongside = large && summarize(large.windowMissAlongside!)
  const growth = large && alongside ? summarize(large.windowMiss).cpuMs / alongside.cpuMs - 1 : 0
  const growthOk = Math.abs(growth) <= CPU_GROWTH_BUDGET
  const paced = summarize(headline.paced)
  const loopOk = kind !== 'pglite' || paced.loopP99 <= EVENT_LOOP_BUDGET_MS
  console.info(
    `\n[${kind}] HEADLINE: the cache-miss date-window /calendar costs ${windowMiss.cpuMs.toFixed(2)} ms of server CPU ` +
      `per request, the same page rendered from memory ${rendered.cpuMs.toFixed(2)} ms: ${ratio.toFixed(2)}× its ` +
      `throughput (req/s ${(windowMiss.rps / rendered.rps).toFixed(2)}×) (budget ≥ ${THROUGHPUT_BUDGET}×, stretch 0.8×) ` +
      `${throughputOk ? 'OK' : 'OVER BUDGET'}`,
  )
  console.info(
    `[${kind}] a narrow keyword on a cache miss costs ${narrowMiss.cpuMs.toFixed(2)} ms per request, the same page ` +
      `from memory ${narrowRendered.cpuMs.toFixed(2)} ms: ${narrowRatio.toFixed(2)}× its throughput ` +
      `(req/s ${(narrowMiss.rps / narrowRendered.rps).toFixed(2)}×) (budget ≥ ${THROUGHPUT_BUDGET}×) ` +
      `${narrowOk ? 'OK' : 'OVER BUDGET'}`,
  )
  console.info(
    `[${kind}] reference: the mixed cache misses ${miss.cpuMs.toFixed(2)} ms per request, ` +
      `${((miss.rps / floor.rps) * 100).toFixed(1)} % of /healthz?db=0 throughput (${floor.cpuMs.toFixed(2)} ms)`,
  )
  if (large && alongside)
    console.info(
      `[${kind}] CPU per cache-miss date-window request, side by side: ${alongside.cpuMs.toFixed(2)} ms at ` +
        `${scaleText(headline.scale)}, ${summarize(large.windowMiss).cpuMs.toFixed(2)} ms at ${scaleText(large.scale)}: ` +
        `${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(0)} % ` +
        `(budget ±${CPU_GROWTH_BUDGET * 100} %) ${growthOk ? 'OK' : 'OVER BUDGET'}`,
    )
  console.info(
    `[${kind}] event-loop delay, cache misses at full load: p99 ${miss.loopP99} ms, max ${miss.loopMax} ms; ` +
      `at half load (${headline.paced.label.split(', ').at(-1)}): p99 ${paced.loopP99} ms, max ${paced.loopMax} ms` +
      (kind === 'pglite'
        ? ` (budget: p99 at half load ≤ ${EVENT_LOOP_BUDGET_MS} ms) ${loopOk ? 'OK' : 'OVER BUDGET'}`
        : ''),
  )
  return throughputOk && narrowOk && growthOk && loopOk && databaseTimeOk
}

async function main() {
  if (!EXPLAIN_ONLY && !builtAppExists()) return 2
  const { dataDir, env } = benchEnvironment('eventshout-bench-calendar-')
  fs.rmSync(dataDir, { recursive: true, force: true })
  const { getEnv } = await import('#app/services/platform/env.server.ts')
  const today = todayInZone(getEnv().APP_TIME_ZONE)
  const kinds: DatabaseKind[] = (['pglite', 'postgres'] as const).filter(
    (k) => (k === 'pglite' || POSTGRES_URL) && (!ONLY || ONLY === k),
  )
  let ok = true
  try {
    for (const kind of kinds) ok = (await runDatabase(kind, today, env)) && ok
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    return 1
  }
  return ok ? 0 : 1
}

process.exitCode = await main()
