/**
 * Crash-restart benchmark: `npm run bench:crash-restart` after `npx remix vite:build`.
 *
 * On a folder of demo data (the embedded database) and, with DATABASE_URL, on a new database of that PostgreSQL
 * server: starts the built server, sends a few writes, kills it with SIGKILL and starts it again at once, as a
 * supervisor does, RUNS times (default 6). Reports how long after the kill `/healthz` answered 200 again. Budget:
 * every restart serves within 5 s (exits 1 otherwise).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import postgres from 'postgres'
import { benchEnvironment, builtAppExists, sleep } from './bench-server.ts'
import { freePort, SERVER_BUILD, SERVER_SCRIPT } from '#tests/support/server-process.ts'
import { quoteIdent, withDatabase } from '#tests/support/test-database.ts'

const RUNS = Number(process.env.RUNS || 6)
const BUDGET_MS = 5000

if (!builtAppExists()) process.exit(1)

function start(env: NodeJS.ProcessEnv, port: number) {
  return spawn(process.execPath, [SERVER_SCRIPT, SERVER_BUILD], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
}

/** Milliseconds from `since` until /healthz answers 200 (or the server exits). */
async function servingAfter(base: string, server: ChildProcess, since: number) {
  while (Date.now() - since < 60_000) {
    if (server.exitCode !== null) throw new Error(`The server exited with code ${server.exitCode}`)
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return Date.now() - since
    await sleep(25)
  }
  throw new Error('Not serving after 60 s')
}

async function writeSome(base: string) {
  for (let i = 0; i < 5; i++) {
    await fetch(`${base}/api/events/1/track-click`, { method: 'POST', headers: { Origin: base } }).catch(
      () => {},
    )
  }
}

async function measure(label: string, env: NodeJS.ProcessEnv) {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  let server = start(env, port)
  await servingAfter(base, server, Date.now())
  const times: number[] = []
  for (let run = 0; run < RUNS; run++) {
    await writeSome(base)
    const exited = new Promise((resolve) => server.once('exit', resolve))
    const killedAt = Date.now()
    server.kill('SIGKILL')
    await exited
    server = start(env, port)
    times.push(await servingAfter(base, server, killedAt))
  }
  server.kill('SIGTERM')
  await new Promise((resolve) => server.once('exit', resolve))
  const worst = Math.max(...times)
  console.info(
    `${label}: serving again ${times.join(', ')} ms after kill -9 (worst ${worst} ms; budget ${BUDGET_MS} ms)`,
  )
  return worst <= BUDGET_MS
}

const serverUrl = process.env.DATABASE_URL
const { dataDir, env } = benchEnvironment('eventshout-crash-')
let withinBudget = true
try {
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/seed.ts'], { env, stdio: 'ignore' })
  withinBudget = (await measure('embedded database, demo data', env)) && withinBudget

  if (serverUrl) {
    const name = `es_bench_crash_${crypto.randomBytes(4).toString('hex')}`
    const admin = postgres(serverUrl, { onnotice: () => {}, max: 1 })
    await admin.unsafe(`CREATE DATABASE ${quoteIdent(name)}`)
    try {
      const pgEnv = { ...env, DATABASE_URL: withDatabase(serverUrl, name) }
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/seed.ts'], { env: pgEnv, stdio: 'ignore' })
      withinBudget = (await measure('PostgreSQL server, demo data', pgEnv)) && withinBudget
    } finally {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`)
      await admin.end()
    }
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true })
}
if (!withinBudget) process.exit(1)
