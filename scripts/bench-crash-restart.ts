/**
 * Restart-under-load benchmark: `npm run bench:crash-restart` after `npx remix vite:build`.
 *
 * Starts the built server on a folder of demo data (the embedded database) and keeps a write load on it from 4
 * connections: two register businesses (POST /api/business), one saves ads as unpaid drafts (POST
 * /api/approve-event without a photo), one saves ads with a photo (the same call with an 800×450 PNG). While the load
 * runs, the server is killed with SIGKILL (RUNS times, default 6) and started again as soon as it has exited, as a
 * supervisor does; then, in a second series, stopped with SIGTERM as a deploy does and started again once it has
 * exited. Each run reports the time from the signal until `/healthz` answers 200, and the start-up phases the new
 * server logged. Afterwards every write that was acknowledged (a 2xx answer) must be in the database: the businesses
 * by email, the ads by id (and the photos' media rows).
 *
 * Then the SIGKILL series again twice: with the machine loaded (BUSY_PROCESSES processes spinning on the CPU, as a
 * busy host has), and with `npm start` (the newcomer's command: build if stale, demo data, serve) in place of the
 * server alone, on the same folder.
 *
 * Budgets (exits 1 otherwise): every restart of the quiet machine serves within 3 s; loaded, the median restart is
 * at most twice the quiet one's; `npm start` on the existing folder is no slower than the server alone (its median
 * within 10 %); no acknowledged write is missing.
 *
 * BENCH_EVENTS=100000 seeds that many events (the calendar benchmark's seed) in place of the demo data;
 * DATABASE_URL also runs both series on a new database of that PostgreSQL server; RUNS changes the runs per series.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import { inArray } from 'drizzle-orm'
import postgres from 'postgres'
import sharp from 'sharp'
import { benchEnvironment, builtAppExists, sleep } from './bench-server.ts'
import { registrationFields } from '#tests/support/registration-fields.ts'
import { freePort, SERVER_BUILD, SERVER_SCRIPT } from '#tests/support/server-process.ts'
import { quoteIdent, withDatabase } from '#tests/support/test-database.ts'

const RUNS = Number(process.env.RUNS || 6)
const BENCH_EVENTS = Number(process.env.BENCH_EVENTS || 0)
const BUDGET_MS = 3000
const LOADED_FACTOR = 2
/**
 * `npm start` may take what the npm command's own start takes (measured: `npm run env`, a script that does
 * nothing) longer than the server alone, or 10 %, whichever is more.
 */
const NPM_START_TOLERANCE = 1.1
const BUSY_PROCESSES = Number(process.env.BUSY_PROCESSES || 2)
/** How long the load runs against a serving server before each signal. */
const LOAD_BEFORE_SIGNAL_MS = 2000

if (!builtAppExists()) process.exit(1)

interface Started {
  server: ChildProcess
  how: How
  /** The start-up line the server logged (phase → ms), once it has. */
  startup: Promise<Record<string, unknown> | undefined>
}

type How = 'server' | 'npm start'

/**
 * The server alone (`node server.js build/server/index.js`), or `npm start` in its own process group, so a signal
 * reaches npm and the server it runs alike.
 */
function start(env: NodeJS.ProcessEnv, port: number, how: How = 'server'): Started {
  const server =
    how === 'server'
      ? spawn(process.execPath, [SERVER_SCRIPT, SERVER_BUILD], {
          env: { ...env, PORT: String(port) },
          stdio: ['ignore', 'pipe', 'pipe'],
        })
      : spawn('npm', ['start', '--silent'], {
          env: { ...env, PORT: String(port) },
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: true,
        })
  const startup = new Promise<Record<string, unknown> | undefined>((resolve) => {
    let pending = ''
    const scan = (chunk: Buffer) => {
      pending += chunk.toString()
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      for (const line of lines) {
        if (!line.includes('"msg":"started"')) continue
        try {
          resolve(JSON.parse(line) as Record<string, unknown>)
        } catch {
          // not the line we want
        }
      }
    }
    // Both streams are read to the end, so the server never waits on a full pipe.
    server.stdout.on('data', scan)
    server.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString()
      if (/error|refused|exited/i.test(text) && !text.includes('"level":40')) process.stderr.write(text)
      scan(chunk)
    })
    server.once('exit', () => resolve(undefined))
  })
  return { server, how, startup }
}

/** Sends `signal` to what `start` started and waits until every process of it has exited. */
async function stop({ server, how }: Started, signal: NodeJS.Signals) {
  const exited = new Promise((resolve) => server.once('exit', resolve))
  if (how === 'server') server.kill(signal)
  else process.kill(-server.pid!, signal)
  await exited
  // npm is gone; the server it ran may take a moment longer. A process that has died (a zombie until the system
  // reaps it) holds nothing: what is waited for is the group's last living process.
  while (how !== 'server' && livingInGroup(server.pid!)) await sleep(5)
}

/** Whether a process of group `group` is alive (not a zombie), from /proc. */
function livingInGroup(group: number) {
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    let stat
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8')
    } catch {
      continue
    }
    // "pid (command) state ppid pgrp …": the command may hold spaces and parentheses, so read after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(pgrp) === group && state !== 'Z') return true
  }
  return false
}

/** Processes that keep the CPU busy (a busy host), until `stop()`. */
function busyMachine(processes: number) {
  const spinners = Array.from({ length: processes }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  )
  return {
    async stop() {
      await Promise.all(
        spinners.map((p) => {
          const exited = new Promise((resolve) => p.once('exit', resolve))
          p.kill('SIGKILL')
          return exited
        }),
      )
    },
  }
}

/** The npm command's own start: the median of three runs of a script that does nothing. */
function npmOwnStartMs(env: NodeJS.ProcessEnv) {
  const times = Array.from({ length: 3 }, () => {
    const started = Date.now()
    execFileSync('npm', ['--silent', 'run', 'env'], { env, stdio: 'ignore' })
    return Date.now() - started
  })
  return median(times)
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** Milliseconds from `since` until /healthz answers 200 (or the server exits). */
async function servingAfter(base: string, server: ChildProcess, since: number) {
  while (Date.now() - since < 60_000) {
    if (server.exitCode !== null) throw new Error(`The server exited with code ${server.exitCode}`)
    const ok = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return Date.now() - since
    await sleep(25)
  }
  throw new Error('Not serving after 60 s')
}

/** The dates of an ad: the next three days (UTC is close enough for a benchmark's ad). */
function nextDays(n: number) {
  return Array.from({ length: n }, (_, i) =>
    new Date(Date.now() + (i + 1) * 86_400_000).toISOString().slice(0, 10),
  )
}

/** What the load got acknowledged: what must be in the database afterwards. */
interface Acknowledged {
  emails: string[]
  ads: number[]
  photos: number[]
  refused: Map<string, number>
}

/**
 * Four connections posting writes until `stop()`: each waits for its answer, and after a refused connection or a
 * 503 (the server restarting) tries again shortly.
 */
function writeLoad(base: string, cookie: string, photo: Buffer) {
  const acknowledged: Acknowledged = { emails: [], ads: [], photos: [], refused: new Map() }
  let running = true
  const note = (what: string) => acknowledged.refused.set(what, (acknowledged.refused.get(what) ?? 0) + 1)

  async function post(path: string, body: BodyInit, headers: Record<string, string> = {}) {
    try {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { Origin: base, ...headers },
        body,
        signal: AbortSignal.timeout(30_000),
      })
      const text = await res.text()
      if (res.status >= 300) note(String(res.status))
      return { status: res.status, text }
    } catch {
      note('no answer')
      return { status: 0, text: '' }
    }
  }

  async function registrations() {
    while (running) {
      const email = `restart-${crypto.randomBytes(6).toString('hex')}@example.com`
      const res = await post(
        '/api/business',
        JSON.stringify(registrationFields(email, { businessName: 'Restart Bench Cafe' })),
        {
          'Content-Type': 'application/json',
        },
      )
      if (res.status >= 200 && res.status < 300) acknowledged.emails.push(email)
      else await sleep(20)
    }
  }

  async function ads(withPhoto: boolean) {
    while (running) {
      const form = new FormData()
      form.set(
        'eventData',
        JSON.stringify({
          eventTitle: `Restart bench ${withPhoto ? 'photo' : 'draft'} ${crypto.randomBytes(4).toString('hex')}`,
          eventDescription: 'All-you-can-eat fish with two sides.',
          eventCategory: ['Food & Drink'],
          contactPerson: 'Pat Fry',
        }),
      )
      form.set('selectedDates', JSON.stringify(nextDays(3)))
      if (withPhoto) form.set('image', new Blob([new Uint8Array(photo)]), 'fish.png')
      const res = await post('/api/approve-event', form, { Cookie: cookie })
      if (res.status >= 200 && res.status < 300) {
        const { eventID } = JSON.parse(res.text) as { eventID: number }
        ;(withPhoto ? acknowledged.photos : acknowledged.ads).push(eventID)
      } else await sleep(20)
    }
  }

  const connections = [registrations(), registrations(), ads(false), ads(true)]
  return {
    acknowledged,
    async stop() {
      running = false
      await Promise.all(connections)
    },
  }
}

/** Registers a business and signs it in: its session cookie, for the ads. */
async function signedInCookie(base: string) {
  const email = `restart-owner-${crypto.randomBytes(6).toString('hex')}@example.com`
  const registered = await fetch(`${base}/api/business`, {
    method: 'POST',
    headers: { Origin: base, 'Content-Type': 'application/json' },
    body: JSON.stringify(registrationFields(email, { businessName: 'Restart Bench Cafe' })),
  })
  if (registered.status !== 201) throw new Error(`Registration failed: ${registered.status}`)
  const res = await fetch(`${base}/api/business/login`, {
    method: 'POST',
    headers: { Origin: base, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: 'secret123' }),
  })
  if (res.status !== 200) throw new Error(`Sign-in failed: ${res.status}`)
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
}

/** The acknowledged writes not found in the database (the server is stopped; the database opened here). */
async function missingWrites(env: NodeJS.ProcessEnv, acknowledged: Acknowledged) {
  const { openConfiguredDatabase } = await import('#db/client.server.ts')
  const { business, eventMedia, events } = await import('#db/schema.ts')
  const handle = await openConfiguredDatabase({
    DATABASE_URL: env.DATABASE_URL || undefined,
    DATA_DIR: env.DATA_DIR!,
  })
  try {
    const emails = new Set(
      (await handle.db.select({ email: business.businessEmail }).from(business)).map((r) => r.email),
    )
    const adIDs = [...acknowledged.ads, ...acknowledged.photos]
    const ads = new Set<number>()
    const photos = new Set<number>()
    for (let i = 0; i < adIDs.length; i += 1000) {
      const chunk = adIDs.slice(i, i + 1000)
      for (const r of await handle.db
        .select({ id: events.eventID })
        .from(events)
        .where(inArray(events.eventID, chunk)))
        ads.add(r.id)
      for (const r of await handle.db
        .select({ id: eventMedia.eventID })
        .from(eventMedia)
        .where(inArray(eventMedia.eventID, chunk)))
        photos.add(r.id)
    }
    return {
      registrations: acknowledged.emails.filter((e) => !emails.has(e)).length,
      ads: adIDs.filter((id) => !ads.has(id)).length,
      photos: acknowledged.photos.filter((id) => !photos.has(id)).length,
    }
  } finally {
    await handle.close()
  }
}

/** The phases of a start-up line, shortly: "process 60, build 900, database 2100 (…) …". */
function phases(line: Record<string, unknown> | undefined) {
  if (!line) return 'no start-up line'
  const ms = line.phasesMs as Record<string, number> | undefined
  if (!ms) return JSON.stringify(line)
  const db = line.database as Record<string, unknown> | undefined
  const detail = db ? ` [database: ${JSON.stringify(db)}]` : ''
  return (
    Object.entries(ms)
      .map(([k, v]) => `${k} ${Math.round(v)}`)
      .join(', ') + detail
  )
}

async function series(
  label: string,
  signal: 'SIGKILL' | 'SIGTERM',
  how: How,
  env: NodeJS.ProcessEnv,
  port: number,
  current: Started,
  base: string,
  acknowledged: Acknowledged,
) {
  const times: number[] = []
  for (let run = 0; run < RUNS; run++) {
    await sleep(LOAD_BEFORE_SIGNAL_MS)
    const before = acknowledged.emails.length + acknowledged.ads.length + acknowledged.photos.length
    const signalledAt = Date.now()
    await stop(current, signal)
    const exitedAfter = Date.now() - signalledAt
    current = start(env, port, how)
    const took = await servingAfter(base, current.server, signalledAt)
    times.push(took)
    const line = await Promise.race([current.startup, sleep(2000).then(() => undefined)])
    console.info(
      `  ${signal} ${run + 1}: serving after ${took} ms (old process gone after ${exitedAfter} ms; ${before} writes acknowledged so far) — ${phases(line)}`,
    )
  }
  const result = { worst: Math.max(...times), median: median(times) }
  console.info(`${label}: ${times.join(', ')} ms (median ${result.median} ms, worst ${result.worst} ms)`)
  return { current, ...result }
}

async function measure(label: string, env: NodeJS.ProcessEnv) {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  let current = start(env, port)
  const firstStart = Date.now()
  console.info(
    `${label}: first start serving after ${await servingAfter(base, current.server, firstStart)} ms`,
  )
  console.info(`  ${phases(await Promise.race([current.startup, sleep(2000).then(() => undefined)]))}`)
  const photo = await sharp({ create: { width: 800, height: 450, channels: 3, background: '#2563eb' } })
    .png()
    .toBuffer()
  const load = writeLoad(base, await signedInCookie(base), photo)
  const verdicts: string[] = []
  const judge = (ok: boolean, what: string) => verdicts.push(`${ok ? 'within' : 'OVER'}: ${what}`)
  const run = async (title: string, signal: 'SIGKILL' | 'SIGTERM', how: How) => {
    const result = await series(
      `${label}, ${title}`,
      signal,
      how,
      env,
      port,
      current,
      base,
      load.acknowledged,
    )
    current = result.current
    return result
  }
  try {
    const killed = await run('SIGKILL, quiet machine', 'SIGKILL', 'server')
    judge(killed.worst <= BUDGET_MS, `SIGKILL worst ${killed.worst} ms ≤ ${BUDGET_MS} ms`)
    const stopped = await run('SIGTERM, quiet machine', 'SIGTERM', 'server')
    judge(stopped.worst <= BUDGET_MS, `SIGTERM worst ${stopped.worst} ms ≤ ${BUDGET_MS} ms`)
    const busy = busyMachine(BUSY_PROCESSES)
    let loaded
    try {
      loaded = await run(`SIGKILL, ${BUSY_PROCESSES} processes busy`, 'SIGKILL', 'server')
    } finally {
      await busy.stop()
    }
    judge(
      loaded.median <= LOADED_FACTOR * killed.median,
      `loaded median ${loaded.median} ms ≤ ${LOADED_FACTOR} × quiet median ${killed.median} ms ` +
        `(${(loaded.median / killed.median).toFixed(2)}×)`,
    )
    const npmStart = await run('SIGKILL, then npm start', 'SIGKILL', 'npm start')
    const npmOwn = npmOwnStartMs(env)
    const allowed = Math.max(NPM_START_TOLERANCE * killed.median, killed.median + npmOwn)
    judge(
      npmStart.median <= allowed,
      `npm start median ${npmStart.median} ms ≤ ${Math.round(allowed)} ms: the server alone's ${killed.median} ms ` +
        `and npm's own start, ${npmOwn} ms, or 10 % (${(npmStart.median / killed.median).toFixed(2)}×)`,
    )
  } finally {
    await load.stop()
    await stop(current, 'SIGTERM')
  }
  const { acknowledged } = load
  const missing = await missingWrites(env, acknowledged)
  const lost = missing.registrations + missing.ads + missing.photos
  judge(lost === 0, `${lost} acknowledged writes missing`)
  console.info(
    `${label}: acknowledged ${acknowledged.emails.length} registrations, ${acknowledged.ads.length} drafts, ` +
      `${acknowledged.photos.length} ads with a photo; missing afterwards: ${JSON.stringify(missing)}` +
      `; not acknowledged: ${JSON.stringify(Object.fromEntries(acknowledged.refused))}`,
  )
  for (const verdict of verdicts) console.info(`  ${verdict}`)
  return verdicts.every((v) => v.startsWith('within'))
}

/** The embedded folder (or the PostgreSQL database at env.DATABASE_URL) filled with demo data, or BENCH_EVENTS. */
async function fill(env: NodeJS.ProcessEnv) {
  if (!BENCH_EVENTS) {
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/seed.ts'], { env, stdio: 'ignore' })
    return
  }
  const { openConfiguredDatabase, useDatabase } = await import('#db/client.server.ts')
  const { seed } = await import('./bench-events.ts')
  const { DEFAULT_CATEGORIES } = await import('#app/constants.ts')
  const { ensureCategories } = await import('#app/models/ads/category.server.ts')
  const handle = await openConfiguredDatabase({
    DATABASE_URL: env.DATABASE_URL || undefined,
    DATA_DIR: env.DATA_DIR!,
  })
  useDatabase(handle)
  try {
    await ensureCategories(DEFAULT_CATEGORIES)
    const today = new Date().toISOString().slice(0, 10)
    const seeded = await seed(handle.db, today, { events: BENCH_EVENTS, liveEvery: 10 })
    console.info(`seeded ${seeded.total} events (${seeded.live} live) in ${seeded.seconds.toFixed(1)} s`)
  } finally {
    useDatabase(undefined)
    await handle.close()
  }
}

const serverUrl = process.env.DATABASE_URL
const { dataDir, env: baseEnv } = benchEnvironment('eventshout-crash-')
const env = { ...baseEnv, REGISTRATIONS_PER_ADDRESS_PER_HOUR: '100000', LOG_FORMAT: 'json' }
Object.assign(process.env, env)
const size = BENCH_EVENTS ? `${BENCH_EVENTS} events` : 'demo data'
let withinBudget = true
try {
  await fill(env)
  withinBudget = (await measure(`embedded database, ${size}`, env)) && withinBudget

  if (serverUrl) {
    const name = `es_bench_crash_${crypto.randomBytes(4).toString('hex')}`
    const admin = postgres(serverUrl, { onnotice: () => {}, max: 1 })
    await admin.unsafe(`CREATE DATABASE ${quoteIdent(name)}`)
    try {
      const pgEnv = { ...env, DATABASE_URL: withDatabase(serverUrl, name) }
      await fill(pgEnv)
      withinBudget = (await measure(`PostgreSQL server, ${size}`, pgEnv)) && withinBudget
    } finally {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`)
      await admin.end()
    }
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true })
}
if (!withinBudget) process.exit(1)
