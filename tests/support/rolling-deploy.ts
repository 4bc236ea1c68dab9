/**
 * What a rolling deploy needs around the servers, for tests/integration/rolling-deploy.test.ts and
 * `npm run bench:rolling-deploy`: the "new build" (the current one with one more migration, from
 * tests/fixtures/rolling-deploy-migration), a round-robin proxy that drains a server before it is stopped (as a
 * load balancer does), a steady load through it, and a replacement of every server, one at a time.
 */
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { MIGRATIONS_FOLDER } from '#db/client.server.ts'
import { startServerProcess, stopServer, type ServerProcess } from './server-process.ts'

export const FIXTURE_MIGRATIONS = path.resolve('tests/fixtures/rolling-deploy-migration')
/** A release the one before cannot live with (a column renamed), after the fixture's: every start-up refuses it. */
export const RENAMING_MIGRATIONS = path.resolve('tests/fixtures/rolling-deploy-rename')

interface Journal {
  entries: Array<{ idx: number; version: string; when: number; tag: string; breakpoints: boolean }>
}

/**
 * A copy of db/migrations (or of `base`) in `into` with the fixture's migrations added after the last one (their
 * journal entries written here), and its `concurrent/` and `backfills/` files: the migrations folder of the "new
 * build". Returns the tags added.
 */
export function withFixtureMigrations(into: string, fixture = FIXTURE_MIGRATIONS, base = MIGRATIONS_FOLDER) {
  fs.rmSync(into, { recursive: true, force: true })
  fs.cpSync(base, into, { recursive: true })
  const journalFile = path.join(into, 'meta/_journal.json')
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as Journal
  const added: string[] = []
  for (const file of fs
    .readdirSync(fixture)
    .filter((name) => name.endsWith('.sql'))
    .sort()) {
    const last = journal.entries.at(-1)!
    const tag = file.replace(/\.sql$/, '')
    fs.copyFileSync(path.join(fixture, file), path.join(into, file))
    journal.entries.push({
      idx: last.idx + 1,
      version: last.version,
      when: last.when + 1,
      tag,
      breakpoints: true,
    })
    added.push(tag)
  }
  fs.writeFileSync(journalFile, JSON.stringify(journal, null, 2))
  for (const folder of ['concurrent', 'backfills'])
    if (fs.existsSync(path.join(fixture, folder)))
      fs.cpSync(path.join(fixture, folder), path.join(into, folder), { recursive: true })
  return added
}

export interface ProxiedRequest {
  target: string
  start: number
  end: number
  status: number
}

/**
 * Round robin over the targets, passing everything through. `drain(target)` stops sending it new requests and
 * resolves once those it has in flight are answered: then it may be stopped without cutting any.
 */
export async function startDrainingProxy(initial: string[]) {
  const targets = [...initial]
  const inFlight = new Map<string, number>()
  const waiters = new Map<string, () => void>()
  const log: ProxiedRequest[] = []
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })
  let next = 0
  const server = http.createServer((req, res) => {
    const base = targets[next++ % targets.length]!
    const target = new URL(base)
    const start = Date.now()
    inFlight.set(base, (inFlight.get(base) ?? 0) + 1)
    let done = false
    const finish = (status: number) => {
      if (done) return
      done = true
      log.push({ target: base, start, end: Date.now(), status })
      const left = inFlight.get(base)! - 1
      inFlight.set(base, left)
      if (left === 0) waiters.get(base)?.()
    }
    const forward = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '' },
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
        answer.on('end', () => finish(answer.statusCode ?? 502))
        answer.on('error', () => finish(599))
      },
    )
    forward.on('error', () => {
      finish(599)
      if (!res.headersSent) res.writeHead(502).end()
      else res.destroy()
    })
    req.pipe(forward)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  return {
    base,
    log,
    targets,
    add(target: string) {
      targets.push(target)
    },
    async drain(target: string) {
      targets.splice(targets.indexOf(target), 1)
      if ((inFlight.get(target) ?? 0) === 0) return
      await new Promise<void>((resolve) => waiters.set(target, resolve))
    },
    close() {
      agent.destroy()
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

export type DrainingProxy = Awaited<ReturnType<typeof startDrainingProxy>>

export interface LoadResult {
  path: string
  start: number
  end: number
  status: number
  error?: string
}

/**
 * `connections` loops sending requests through `base` back to back until stopped: the calendar (a few filters, so
 * some miss the page cache), the public events API, a live ad read from the database (every column of its row, as
 * drizzle names them), and a click on a live ad (a write) every fifth request.
 */
export function startLoad(
  base: string,
  { liveEventIds, connections = 4 }: { liveEventIds: number[]; connections?: number },
) {
  const results: LoadResult[] = []
  let running = true
  let n = 0
  const paths = [
    () => '/calendar',
    () => `/calendar?category=Community&n=${n % 7}`,
    () => `/api/public-events?limit=20&page=${(n % 3) + 1}`,
    () => `/api/events/${liveEventIds[n % liveEventIds.length]}`,
    () => `/api/events/${liveEventIds[n % liveEventIds.length]}/track-click`,
  ]
  async function loop() {
    while (running) {
      const i = n++
      const pathname = paths[i % paths.length]!()
      const post = pathname.endsWith('/track-click')
      const start = Date.now()
      try {
        const res = await fetch(`${base}${pathname}`, {
          method: post ? 'POST' : 'GET',
          headers: post ? { Origin: base, 'Content-Type': 'application/json' } : {},
          body: post ? '{}' : undefined,
        })
        await res.arrayBuffer()
        results.push({ path: pathname, start, end: Date.now(), status: res.status })
      } catch (error) {
        results.push({ path: pathname, start, end: Date.now(), status: 0, error: String(error) })
      }
    }
  }
  const loops = Array.from({ length: connections }, loop)
  return {
    results,
    async stop() {
      running = false
      await Promise.all(loops)
      return results
    },
  }
}

/** Answers that count as failed: no answer, or a server error (a 503 of a server shutting down included). */
export const failed = (results: LoadResult[]) => results.filter((r) => r.status === 0 || r.status >= 500)

/** The longest time between two answers (either a request's own duration, or a gap no request was answered in). */
export function longestPause(results: LoadResult[], from: number, to: number) {
  const ends = results
    .filter((r) => r.status > 0 && r.status < 500 && r.end >= from && r.end <= to)
    .map((r) => r.end)
    .sort((x, y) => x - y)
  let longest = 0
  for (let i = 1; i < ends.length; i++) longest = Math.max(longest, ends[i]! - ends[i - 1]!)
  const slowest = Math.max(
    0,
    ...results.filter((r) => r.end >= from && r.end <= to).map((r) => r.end - r.start),
  )
  return { gapMs: longest, slowestRequestMs: slowest }
}

export interface Replacement {
  old: ServerProcess
  next: ServerProcess
  /** From the new server's spawn to its first 200 on /healthz: its migration happened in there. */
  startedAt: number
  upAt: number
  drainedAt: number
  stoppedAt: number
  oldExitCode: number | null
  /**
   * The new server's log lines of its background work (`"msg":"Backfill …"`), all of them: its output() keeps only
   * the last 200,000 characters, which a few thousand requests' log lines fill.
   */
  backfillLines: string[]
}

/** Every line `server` writes to stdout from now on that matches `pattern`. */
function linesMatching(server: ServerProcess, pattern: RegExp) {
  const lines: string[] = []
  let partial = ''
  server.server.stdout?.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString()
    const complete = text.split('\n')
    partial = complete.pop() ?? ''
    lines.push(...complete.filter((line) => pattern.test(line)))
  })
  return lines
}

/**
 * Starts a server of a release that may be refused at start-up: `refusal` is what it wrote before it exited, or
 * undefined when it started (it is then in `server`).
 */
export async function startOrRefused(env: NodeJS.ProcessEnv) {
  const startedAt = Date.now()
  try {
    const server = await startServerProcess({ env })
    return { server, refusal: undefined, startedAt, endedAt: Date.now() }
  } catch (error) {
    return { server: undefined, refusal: (error as Error).message, startedAt, endedAt: Date.now() }
  }
}

/**
 * Replaces each server by one started with `env(i)`, one at a time: start the new one (it migrates while the old
 * ones serve), add it to the proxy, drain the old one, SIGTERM it and wait for its exit.
 */
export async function replaceOneAtATime(
  proxy: DrainingProxy,
  servers: ServerProcess[],
  env: (i: number) => NodeJS.ProcessEnv,
) {
  const replacements: Replacement[] = []
  for (const [i, old] of servers.entries()) {
    const startedAt = Date.now()
    const next = await startServerProcess({ env: env(i), stdout: 'keep' })
    const upAt = Date.now()
    // The backfill starts seconds after start-up, so nothing of it is missed.
    const backfillLines = linesMatching(next, /"msg":"Backfill /)
    proxy.add(next.base)
    await proxy.drain(old.base)
    const drainedAt = Date.now()
    await stopServer(old.server)
    replacements.push({
      old,
      next,
      startedAt,
      upAt,
      drainedAt,
      stoppedAt: Date.now(),
      oldExitCode: old.server.exitCode,
      backfillLines,
    })
  }
  return replacements
}
