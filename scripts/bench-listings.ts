/**
 * Listings benchmark: `npm run bench:listings` after `npx remix vite:build`.
 *
 * `/admin/listings` for a month (31 days) at 100,000 events (10,000 live: bench-calendar's seed, bench-events.ts),
 * asked by a signed-in administrator, each request a month starting on another day, so nothing answers it from
 * memory: the server's CPU per request (user + system, from /proc: both threads, the embedded database's too),
 * and the same for the month's CSV and for a month of one category. At this size a month holds more than
 * LISTINGS_MAX_ENTRIES entries even in one category, so each is cut there, as it is for anyone.
 *
 * Budget (exit 1 over it): at most 50 ms of server CPU per request for each.
 *
 * Runs on the embedded database (PGlite), and also on PostgreSQL when DATABASE_URL is set or `--postgres=<url>` is
 * given (a database of its own is created on that server and dropped afterwards). On PostgreSQL the database
 * server's own work is not in the server's CPU: the listing query's time, as the app runs it, is printed beside.
 *
 * Options: --requests=<per case> (default 40), --postgres[=<url>], --only=pglite|postgres.
 */
import fs from 'node:fs'
import { execFileSync } from 'node:child_process'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import { openBenchDatabase } from './bench-database.ts'
import { seed, type Scale } from './bench-events.ts'
import { benchEnvironment, builtAppExists, option, postgresTarget } from './bench-server.ts'
import { startServerProcess, stopServer } from '#tests/support/server-process.ts'

const SCALE: Scale = { events: 100_000, liveEvery: 10 }
const BUDGET_MS = 50
const MONTH_DAYS = 31
const REQUESTS = Number(option('requests') ?? 40)
const WARM_UP_REQUESTS = 15
const POSTGRES_URL = postgresTarget()
const ONLY = option('only')
const CLOCK_TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100

type DatabaseKind = 'pglite' | 'postgres'

/** The CPU time (user + system) a process has used so far, ms. */
function cpuTimeMs(pid: number) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/**
 * A fresh database seeded at SCALE with an administrator: where it is, the administrator's session cookie, how long
 * the listing query of a month takes there (fastest of 7), and how to remove it.
 */
async function prepareDatabase(kind: DatabaseKind, today: string) {
  const { useDatabase } = await import('#db/client.server.ts')
  const { insertUser } = await import('#db/factories.ts')
  const { sessionCookieFor } = await import('#tests/support/auth.ts')
  const { listingEntries } = await import('#app/models/calendar/listings.server.ts')
  const { EMPTY_CALENDAR_FILTERS } = await import('#app/models/calendar/calendar-filters.ts')
  const { LISTINGS_MAX_ENTRIES } = await import('#app/models/calendar/listings.ts')
  const { handle, dataDir, url, drop } = await openBenchDatabase(kind, {
    name: 'listings',
    postgresUrl: POSTGRES_URL,
  })
  useDatabase(handle)
  try {
    const seeded = await seed(handle.db, today, SCALE)
    console.info(
      `\n[${kind}] seeded ${seeded.total} events (${seeded.live} live) in ${seeded.seconds.toFixed(1)} s (today ${today})`,
    )
    const user = await insertUser(handle.db, { roles: ['admin'] })
    const cookie = await sessionCookieFor({ user })
    const queryMs: number[] = []
    for (let i = 0; i < 7; i++) {
      const from = addDaysIso(today, 20 + i)
      const started = performance.now()
      await listingEntries(
        { from, to: addDaysIso(from, MONTH_DAYS - 1) },
        { ...EMPTY_CALENDAR_FILTERS },
        { today, limit: LISTINGS_MAX_ENTRIES + 1 },
      )
      queryMs.push(performance.now() - started)
    }
    return {
      env: { DATA_DIR: dataDir, DATABASE_URL: url },
      cookie,
      queryMs: Math.min(...queryMs),
      async remove() {
        fs.rmSync(dataDir, { recursive: true, force: true })
        await drop()
      },
    }
  } finally {
    useDatabase(undefined)
    await handle.close()
  }
}

interface Case {
  label: string
  path: (from: string, to: string) => string
}

const CASES: Case[] = [
  { label: 'page, a month', path: (from, to) => `/admin/listings?from=${from}&to=${to}` },
  { label: 'CSV, a month', path: (from, to) => `/admin/listings.csv?from=${from}&to=${to}` },
  {
    label: 'page, a month of Concert',
    path: (from, to) => `/admin/listings?from=${from}&to=${to}&category=Concert`,
  },
]

/** Sequential requests of a case, each a month starting on another day: the server's CPU per request. */
async function measure(
  base: string,
  pid: number,
  cookie: string,
  today: string,
  c: Case,
  count: number,
  offset: number,
) {
  const wall: number[] = []
  let entries = 0
  const cpuBefore = cpuTimeMs(pid)
  for (let i = 0; i < count; i++) {
    const from = addDaysIso(today, offset + i)
    const started = performance.now()
    const res = await fetch(`${base}${c.path(from, addDaysIso(from, MONTH_DAYS - 1))}`, {
      headers: { Cookie: cookie },
    })
    const body = await res.text()
    wall.push(performance.now() - started)
    if (res.status !== 200) throw new Error(`${c.label}: ${res.status} ${body.slice(0, 200)}`)
    // fetch drops the CSV's byte-order mark: its lines are told by their CRLF ends (header line less).
    entries = body.includes('\r\n')
      ? body.split('\r\n').length - 2
      : (body.match(/<li class="mb-3 break-inside-avoid"/g)?.length ?? 0)
  }
  return { cpuMs: (cpuTimeMs(pid) - cpuBefore) / count, wallMs: median(wall), entries }
}

async function runOn(kind: DatabaseKind, env: NodeJS.ProcessEnv, today: string) {
  const prepared = await prepareDatabase(kind, today)
  const started = await startServerProcess({
    env: { ...env, ...prepared.env, NODE_ENV: 'production' },
    healthPath: '/healthz?db=0',
  })
  const over: string[] = []
  try {
    const pid = started.server.pid!
    console.info(
      `[${kind}] the listing query of a month, in the app: ${prepared.queryMs.toFixed(2)} ms (fastest of 7)`,
    )
    for (const c of CASES) {
      // Months never asked before the measured ones: first-use code paths are not what is measured.
      await measure(started.base, pid, prepared.cookie, today, c, WARM_UP_REQUESTS, 100)
      const result = await measure(started.base, pid, prepared.cookie, today, c, REQUESTS, 0)
      const verdict = result.cpuMs <= BUDGET_MS ? 'ok' : `OVER the ${BUDGET_MS} ms budget`
      console.info(
        `[${kind}] ${c.label.padEnd(26)} ${result.cpuMs.toFixed(1).padStart(6)} ms CPU/request, ` +
          `${result.wallMs.toFixed(1).padStart(6)} ms median, ${result.entries} entries — ${verdict}`,
      )
      if (result.cpuMs > BUDGET_MS) over.push(`${kind}: ${c.label}`)
    }
  } catch (error) {
    console.error(`Server output (tail):\n${started.log()}`)
    throw error
  } finally {
    await stopServer(started.server)
    await prepared.remove()
  }
  return over
}

async function main() {
  if (!builtAppExists()) process.exit(1)
  const { env, dataDir } = benchEnvironment('eventshout-bench-listings-env-')
  fs.rmSync(dataDir, { recursive: true, force: true })
  const { getEnv } = await import('#app/services/platform/env.server.ts')
  const today = todayInZone(getEnv().APP_TIME_ZONE)
  const kinds: DatabaseKind[] = []
  if (ONLY !== 'postgres') kinds.push('pglite')
  if (POSTGRES_URL && ONLY !== 'pglite') kinds.push('postgres')
  const over: string[] = []
  for (const kind of kinds) over.push(...(await runOn(kind, env, today)))
  if (over.length > 0) {
    console.error(`Over budget: ${over.join('; ')}`)
    process.exit(1)
  }
  console.info(`\nEvery case within ${BUDGET_MS} ms of server CPU per request.`)
}

await main()
