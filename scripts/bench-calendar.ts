/**
 * Calendar benchmark: `npm run bench:calendar` after `npx remix vite:build`.
 *
 * Seeds a fresh embedded database with 100,000 events (10,000 live) in bulk, prints EXPLAIN (ANALYZE) of the
 * listing queries, then starts the built server on that database and loads /calendar with typical filter
 * combinations, and /healthz?db=0 (no database, the framework's floor) in the same run, with autocannon at 10 and 50
 * connections. Budget: /calendar with filters keeps at least 60 % of the floor's throughput. Exits 1 over budget.
 * For reference it also loads every calendar page rendered (each URL new, so the shared page cache cannot answer).
 *
 * Options: --duration=<seconds per run> (default 10), --explain-only (seed and print plans, no server),
 * --keep-data (keep the seeded data folder).
 */
import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import autocannon from 'autocannon'
import { sql, type SQLWrapper } from 'drizzle-orm'
import { DEFAULT_CATEGORIES } from '#app/constants.ts'
import { addDaysIso, todayInZone } from '#app/utils/time.ts'
import type { Database } from '#db/client.server.ts'
import { DEMO_EVENT_IDEAS } from '#db/demo-data.ts'
import { benchEnvironment, builtAppExists } from './bench-server.ts'
import { startServerProcess, stopServer } from '#tests/support/server-process.ts'

const TOTAL_EVENTS = 100_000
const BUSINESSES = 2_000
/** Every tenth event is live. */
const LIVE_EVERY = 10
const BUDGET_RATIO = 0.6
/** The ZIP code of 'Bench Business 11', which has live events (see the seed). */
const ZIP_WITH_LIVE_EVENTS = String(60000 + ((11 * 7919) % 40000))

const args = process.argv.slice(2)
const durationArg = args.find((a) => a.startsWith('--duration='))
const DURATION_S = durationArg ? Number(durationArg.split('=')[1]) : 10
const EXPLAIN_ONLY = args.includes('--explain-only')
/** Keeps the seeded data folder (its path is printed), e.g. to profile the server on it afterwards. */
const KEEP_DATA = args.includes('--keep-data')

function literal(value: string) {
  return `'${value.replace(/'/g, "''")}'`
}

function textArray(values: readonly string[]) {
  return `ARRAY[${values.map(literal).join(', ')}]::text[]`
}

/**
 * Bulk rows with generate_series. Live events start between 2 days ago and 60 days ahead and run 3–14 dates (every
 * day, every other day or every third day); a third also have a single event date. The rest are over (last date
 * before today), awaiting review, rejected, or saved in the last day and not paid yet.
 */
async function seed(db: Database, today: string) {
  const started = performance.now()
  const ideas = DEMO_EVENT_IDEAS
  await db.execute(
    sql.raw(`INSERT INTO "categoryList" ("categoryName")
    SELECT unnest(${textArray(DEFAULT_CATEGORIES)}) ON CONFLICT DO NOTHING`),
  )
  await db.execute(
    sql.raw(`INSERT INTO "business" ("businessName", "businessEmail", "businessAddress", "businessCity",
      "businessState", "businessZip", "businessPhone", "businessContact", "businessNameEmail")
    SELECT 'Bench Business ' || g, 'bench-' || g || '@example.com', g || ' Main Street', 'Springfield', 'IL',
      (60000 + (g * 7919) % 40000)::text, '217555' || lpad((g % 10000)::text, 4, '0'), 'Owner ' || g, ''
    FROM generate_series(1, ${BUSINESSES}) AS g`),
  )
  await db.execute(
    sql.raw(`WITH ideas AS (
      SELECT i AS idx, t AS title, d AS description
      FROM unnest(${textArray(ideas.map((i) => i.title))}, ${textArray(ideas.map((i) => i.description))})
        WITH ORDINALITY AS u(t, d, i)
    ), cats AS (SELECT ${textArray(DEFAULT_CATEGORIES)} AS names),
    businesses AS (SELECT "businessID", "businessName", row_number() OVER (ORDER BY "businessID") - 1 AS n FROM business),
    plan AS (
      SELECT g,
        CASE WHEN g % ${LIVE_EVERY} = 0 THEN 'live'
             WHEN g % ${LIVE_EVERY} IN (1, 2, 3, 4) THEN 'ended'
             WHEN g % ${LIVE_EVERY} IN (5, 6) THEN 'review'
             WHEN g % ${LIVE_EVERY} = 7 THEN 'rejected'
             ELSE 'unpaid' END AS state,
        3 + (g / ${LIVE_EVERY}) % 12 AS days,
        1 + (g / 7) % 3 AS step
      FROM generate_series(1, ${TOTAL_EVENTS}) AS g
    ), dated AS (
      SELECT p.*,
        CASE WHEN p.state = 'live' THEN DATE ${literal(today)} + ((p.g * 13) % 63) - 2
             WHEN p.state = 'ended' THEN DATE ${literal(today)} - 400 + (p.g * 7) % 360
             ELSE DATE ${literal(today)} + (p.g * 11) % 61 END AS start
      FROM plan p
    ), rows AS (
      SELECT d.*,
        ARRAY(SELECT d.start + s * d.step FROM generate_series(0, d.days - 1) AS s) AS shows,
        CASE WHEN d.g % 3 = 0 THEN d.start + d.days * d.step ELSE DATE '1989-01-01' END AS event_date
      FROM dated d
    )
    INSERT INTO events ("businessID", "businessName", "eventTitle", "eventDescription", category, "showAdOnDates",
      "eventDate", "firstShowDate", "lastShowDate", "daysOrdered", "totalCost", "paymentStatus", "eventStatus",
      "approvedDateByBusiness", "approvedDateByAdmin", "createdDate")
    SELECT b."businessID", b."businessName", i.title || ' #' || r.g, i.description || ' Ref ' || r.g || '.',
      CASE WHEN r.g % 3 = 0 THEN ARRAY[c.names[1 + r.g % 11]]
           ELSE ARRAY[c.names[1 + r.g % 11], c.names[1 + (r.g / 11) % 11]] END,
      r.shows, r.event_date,
      CASE WHEN r.event_date <> DATE '1989-01-01' THEN LEAST(r.shows[1], r.event_date) ELSE r.shows[1] END,
      CASE WHEN r.event_date <> DATE '1989-01-01' THEN GREATEST(r.shows[r.days], r.event_date) ELSE r.shows[r.days] END,
      r.days, 29,
      CASE WHEN r.state = 'unpaid' THEN 'pending' ELSE 'paid' END,
      CASE WHEN r.state IN ('live', 'ended') THEN 'approved' WHEN r.state = 'rejected' THEN 'rejected' ELSE 'pending' END,
      DATE ${literal(today)} - 3,
      CASE WHEN r.state IN ('live', 'ended') THEN DATE ${literal(today)} - 2 ELSE DATE '1989-01-01' END,
      -- Drafts older than a day are removed by the cleanup job, so unpaid ones are recent.
      CASE WHEN r.state = 'unpaid' THEN now() - ((r.g * 37) % 1200) * interval '1 minute'
           ELSE now() - ((r.g % 90) * interval '1 day') - ((r.g * 37) % 1440) * interval '1 minute' END
    FROM rows r
    JOIN ideas i ON i.idx = 1 + r.g % ${ideas.length}
    JOIN businesses b ON b.n = r.g % ${BUSINESSES}
    CROSS JOIN cats c`),
  )
  // An embedded database has no autovacuum: statistics and the visibility map come from an explicit pass.
  await db.execute(sql.raw('VACUUM ANALYZE'))
  const [counts] = rowsOf(
    await db.execute(
      sql`SELECT count(*)::int AS total,
        (count(*) FILTER (WHERE "eventStatus" = 'approved' AND "paymentStatus" = 'paid'
          AND "lastShowDate" >= ${today}::date))::int AS live FROM events`,
    ),
  )
  return {
    total: Number(counts?.total),
    live: Number(counts?.live),
    seconds: (performance.now() - started) / 1000,
  }
}

/** The filter combinations the load test cycles through: what visitors typically ask for. */
function calendarPaths(today: string) {
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

function rowsOf(result: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(result)) return result as Array<Record<string, unknown>>
  return (result as { rows?: Array<Record<string, unknown>> }).rows ?? []
}

/** EXPLAIN (ANALYZE) of the exact queries the pages run: the calendar's listing and count, and the moderation queue. */
async function explainQueries(db: Database, today: string) {
  const { CALENDAR_PAGE_SIZE, countLiveEventsQuery, liveEventsQuery } =
    await import('#app/models/public-events.server.ts')
  const { normalizeCalendarFilters } = await import('#app/models/calendar-filters.ts')
  const { pendingEventsQuery } = await import('#app/models/moderation.server.ts')
  const { getEnv } = await import('#app/services/env.server.ts')
  const summary: string[] = []

  async function explain(label: string, query: SQLWrapper) {
    const plan = rowsOf(await db.execute(sql`EXPLAIN (ANALYZE, COSTS OFF) ${query}`))
    const lines = plan.map((r) => String(Object.values(r)[0]))
    console.info(`\n-- ${label}`)
    for (const line of lines) console.info(`   ${line}`)
    const indexes = new Set(
      lines.flatMap((l) =>
        [...l.matchAll(/(?:Index(?: Only)? Scan using|Bitmap Index Scan on) (\w+)/g)].map((m) => m[1]),
      ),
    )
    const time = lines.find((l) => l.startsWith('Execution Time'))?.replace('Execution Time: ', '') ?? '?'
    summary.push(`${label.padEnd(62)} ${time.padStart(10)}  ${[...indexes].join(', ') || 'no index'}`)
  }

  const inAWeek = addDaysIso(today, 7)
  for (const p of [
    '/calendar',
    '/calendar?category=Concert',
    '/calendar?keyword=jazz',
    `/calendar?from=${today}&to=${inAWeek}`,
    `/calendar?zip=${ZIP_WITH_LIVE_EVENTS}`,
  ]) {
    const { filters } = normalizeCalendarFilters(new URL(p, 'http://bench').searchParams)
    await explain(`listing ${p}`, liveEventsQuery(filters, { today, limit: CALENDAR_PAGE_SIZE }))
    await explain(`count ${p}`, countLiveEventsQuery(filters, { today }))
  }
  const uploadDate = addDaysIso(today, -3)
  await explain(
    `pending events uploaded on ${uploadDate}`,
    pendingEventsQuery(uploadDate, { timeZone: getEnv().APP_TIME_ZONE }),
  )
  console.info('\nQuery plans (execution time, indexes used):')
  for (const line of summary) console.info(`  ${line}`)
}

interface LoadResult {
  label: string
  connections: number
  rps: number
  p50: number
  p99: number
  requests: number
  failures: number
}

let uniqueRequest = 0

/**
 * Each connection cycles through the paths in turn. With `unique`, every request's URL is new (an extra parameter
 * the page ignores), so the shared page cache never answers and every page is rendered.
 */
async function load(
  base: string,
  label: string,
  paths: string[],
  connections: number,
  { unique = false } = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url: base,
    connections,
    duration: DURATION_S,
    requests: paths.map((p) => ({
      method: 'GET',
      path: p,
      ...(unique && {
        setupRequest: (req: autocannon.Request) => ({
          ...req,
          path: `${p}${p.includes('?') ? '&' : '?'}nocache=${++uniqueRequest}`,
        }),
      }),
    })),
  })
  return {
    label,
    connections,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  }
}

function row(r: LoadResult) {
  return `${r.label.padEnd(22)} ${String(r.connections).padStart(5)} ${r.rps.toFixed(0).padStart(9)} ${`${r.p50} ms`.padStart(9)} ${`${r.p99} ms`.padStart(9)} ${String(r.requests).padStart(9)} ${String(r.failures).padStart(8)}`
}

async function main() {
  if (!EXPLAIN_ONLY && !builtAppExists()) return 2
  const { dataDir, env } = benchEnvironment('eventshout-bench-calendar-')
  const { getEnv } = await import('#app/services/env.server.ts')
  const today = todayInZone(getEnv().APP_TIME_ZONE)

  let server: ChildProcess | undefined
  let serverLog = () => ''
  try {
    const { openEmbeddedDatabase, useDatabase } = await import('#db/client.server.ts')
    const handle = await openEmbeddedDatabase(dataDir)
    useDatabase(handle)
    try {
      const seeded = await seed(handle.db, today)
      console.info(
        `Seeded ${seeded.total} events (${seeded.live} live) in ${seeded.seconds.toFixed(1)} s (today ${today})`,
      )
      await explainQueries(handle.db, today)
    } finally {
      useDatabase(undefined)
      await handle.close()
    }
    if (EXPLAIN_ONLY) return 0

    const started = await startServerProcess({ env, healthPath: '/healthz?db=0' })
    server = started.server
    const { base } = started
    serverLog = started.log

    const calendar = calendarPaths(today)
    for (const p of calendar) {
      const res = await fetch(`${base}${p}`)
      const html = await res.text()
      const found = /We found (\d+) event\(s\) for you!/.exec(html)?.[1]
      if (res.status !== 200 || found === undefined) throw new Error(`GET ${p} → ${res.status}`)
      console.info(`GET ${p} → ${res.status}, ${found} matches, ${(html.length / 1024).toFixed(0)} KiB`)
    }
    // Warm-up: JIT and first-use code paths are not what is being measured.
    await autocannon({
      url: base,
      connections: 10,
      duration: 2,
      requests: calendar.map((p) => ({ path: p })),
    })
    await autocannon({ url: `${base}/healthz?db=0`, connections: 10, duration: 2 })

    const results: LoadResult[] = []
    for (const connections of [10, 50]) {
      results.push(await load(base, 'GET /healthz?db=0', ['/healthz?db=0'], connections))
      results.push(await load(base, 'GET /calendar (filters)', calendar, connections))
    }
    // For reference only: every /calendar page rendered (no shared page cache; the listing cache still answers), and
    // a static page through the same rendering (root loader, layout, React).
    results.push(await load(base, 'GET /calendar (render)', calendar, 10, { unique: true }))
    results.push(await load(base, 'GET /landing (render)', ['/landing'], 10, { unique: true }))

    console.info(
      `\n${'route'.padEnd(22)} ${'conns'.padStart(5)} ${'req/s'.padStart(9)} ${'p50'.padStart(9)} ${'p99'.padStart(9)} ${'requests'.padStart(9)} ${'failures'.padStart(8)}`,
    )
    for (const r of results) console.info(row(r))
    let ok = true
    for (const connections of [10, 50]) {
      const floor = results.find((r) => r.connections === connections && r.label.includes('healthz'))!
      const page = results.find(
        (r) => r.connections === connections && r.label === 'GET /calendar (filters)',
      )!
      const ratio = page.rps / floor.rps
      const within = ratio >= BUDGET_RATIO && page.failures === 0 && floor.failures === 0
      ok &&= within
      console.info(
        `${connections} connections: /calendar keeps ${(ratio * 100).toFixed(1)} % of the floor's throughput ` +
          `(budget ≥ ${BUDGET_RATIO * 100} %) ${within ? 'OK' : 'OVER BUDGET'}`,
      )
    }
    if (results.some((r) => r.failures > 0) || server.exitCode !== null) {
      console.error(
        `Some requests failed (server exit code ${server.exitCode}). Server output (tail):\n${serverLog()}`,
      )
    }
    return ok ? 0 : 1
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    if (serverLog()) console.error(`Server output (tail):\n${serverLog()}`)
    return 1
  } finally {
    if (server) await stopServer(server)
    if (KEEP_DATA) console.info(`Data kept in ${dataDir}`)
    else fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

process.exitCode = await main()
