/**
 * Database restart benchmark: `npm run bench:db-restart` after `npx remix vite:build`.
 *
 * Starts a private PostgreSQL cluster (tests/support/private-postgres.ts: a temporary folder and a free port, never
 * the shared server), seeds it with the demo data, runs the built server against it and sends mixed public traffic
 * over 50 connections for 60 s (BENCH_SECONDS to change). Halfway through, the cluster is restarted with
 * `pg_ctl restart -m fast`. Every request is classed by whether it was in flight during the window around the
 * restart (from 0.5 s before it begins until 1.5 s after it ends: 2 s plus the restart itself). Budget: every request
 * outside the window succeeds, and the server process stays up; exits 1 otherwise.
 */
import { execFile, type ChildProcess } from 'node:child_process'
import { promisify } from 'node:util'
import { startPrivateCluster, type PrivateCluster } from '#tests/support/private-postgres.ts'
import { benchEnvironment, builtAppExists } from './bench-server.ts'
import { startServerProcess, stopServer } from '#tests/support/server-process.ts'

const CONNECTIONS = 50
const SECONDS = Number(process.env.BENCH_SECONDS || 60)
const WINDOW_BEFORE_MS = 500
const WINDOW_AFTER_MS = 1500
const REQUEST_TIMEOUT_MS = 30_000

interface Sample {
  path: string
  start: number
  end: number
  status: number
  retryAfter: string | null
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0

async function publicPaths(base: string) {
  const response = await fetch(`${base}/api/events`)
  const body = (await response.json()) as { events?: { eventID: number }[] } | { eventID: number }[]
  const list = Array.isArray(body) ? body : (body.events ?? [])
  const ids = list.slice(0, 5).map((event) => event.eventID)
  return [
    '/healthz',
    '/api/events',
    '/api/events/active',
    '/api/public-events',
    '/landing',
    '/public',
    '/calendar',
    '/calendar?keyword=music',
    ...ids.flatMap((id) => [`/event/${id}?viewMode=true`, `/api/events/${id}`]),
  ]
}

async function load(base: string, paths: string[], until: number, samples: Sample[]) {
  let next = 0
  const worker = async () => {
    while (Date.now() < until) {
      const path = paths[next++ % paths.length]!
      const start = Date.now()
      let status = 0
      let retryAfter: string | null = null
      try {
        const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
        await response.arrayBuffer()
        status = response.status
        retryAfter = response.headers.get('Retry-After')
      } catch {
        // status 0: no answer (refused, reset or timed out)
      }
      samples.push({ path, start, end: Date.now(), status, retryAfter })
    }
  }
  await Promise.all(Array.from({ length: CONNECTIONS }, worker))
}

function report(samples: Sample[], restart: { start: number; end: number }, server: ChildProcess) {
  const windowStart = restart.start - WINDOW_BEFORE_MS
  const windowEnd = restart.end + WINDOW_AFTER_MS
  const inWindow = (s: Sample) => s.end >= windowStart && s.start <= windowEnd
  const ok = (s: Sample) => s.status >= 200 && s.status < 400
  const outside = samples.filter((s) => !inWindow(s))
  const inside = samples.filter(inWindow)
  const outsideFailures = outside.filter((s) => !ok(s))
  const insideFailures = inside.filter((s) => !ok(s))
  const latencies = samples.map((s) => s.end - s.start).sort((a, b) => a - b)
  const insideLatencies = inside.map((s) => s.end - s.start).sort((a, b) => a - b)
  const byStatus = (list: Sample[]) =>
    Object.entries(
      list.reduce<Record<string, number>>((acc, s) => ({ ...acc, [s.status]: (acc[s.status] ?? 0) + 1 }), {}),
    )
      .map(([status, n]) => `${status === '0' ? 'no answer' : status}×${n}`)
      .join(', ') || 'none'
  const lastFailure = Math.max(0, ...insideFailures.map((s) => s.end))
  console.info(`restart: ${restart.end - restart.start} ms (pg_ctl restart -m fast)`)
  console.info(`requests: ${samples.length} in ${SECONDS} s over ${CONNECTIONS} connections`)
  console.info(
    `outside the window: ${outside.length - outsideFailures.length}/${outside.length} succeeded ` +
      `(${((100 * (outside.length - outsideFailures.length)) / Math.max(1, outside.length)).toFixed(2)} %); ` +
      `failures: ${byStatus(outsideFailures)}`,
  )
  console.info(
    `inside the window (${windowEnd - windowStart} ms): ${inside.length} requests, ${insideFailures.length} failed ` +
      `(${byStatus(insideFailures)}); ${insideFailures.filter((s) => s.status === 503 && s.retryAfter).length} were ` +
      `503 with Retry-After; max latency ${insideLatencies.at(-1) ?? 0} ms`,
  )
  if (insideFailures.length)
    console.info(`last failure ${lastFailure - restart.end} ms after the restart ended`)
  console.info(
    `latency: median ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${latencies.at(-1)} ms`,
  )
  const slowest = [...samples].sort((a, b) => b.end - b.start - (a.end - a.start)).slice(0, 5)
  console.info(
    `slowest: ${slowest.map((s) => `${s.path} ${s.status || 'no answer'} ${s.end - s.start} ms (sent ${s.start - restart.start} ms from the restart)`).join('; ')}`,
  )
  const up = server.exitCode === null && server.signalCode === null
  console.info(`server process: ${up ? 'still up' : `exited (${server.exitCode ?? server.signalCode})`}`)
  return outsideFailures.length === 0 && up
}

async function main() {
  if (!builtAppExists()) return false
  const { env } = benchEnvironment('eventshout-bench-db-')
  let cluster: PrivateCluster | undefined
  let server: ChildProcess | undefined
  try {
    cluster = await startPrivateCluster()
    const dbEnv = { ...env, DATABASE_URL: cluster.url }
    await promisify(execFile)('npx', ['tsx', 'scripts/seed.ts'], { env: dbEnv })
    const started = await startServerProcess({ env: dbEnv })
    server = started.server
    const { base, log } = started
    const paths = await publicPaths(base)
    const samples: Sample[] = []
    const startedAt = Date.now()
    const traffic = load(base, paths, startedAt + SECONDS * 1000, samples)
    await new Promise((resolve) => setTimeout(resolve, (SECONDS * 1000) / 2))
    const restart = { start: Date.now(), end: 0 }
    await cluster.restart()
    restart.end = Date.now()
    await traffic
    const passed = report(samples, restart, server)
    if (!passed && log()) console.info(`server stderr (last part):\n${log().slice(-3000)}`)
    return passed
  } finally {
    if (server) await stopServer(server)
    await cluster?.destroy()
  }
}

process.exitCode = (await main()) ? 0 : 1
