/**
 * Request-body benchmark: `npm run bench:bodies` after `npx remix vite:build`.
 *
 * Starts the built server on a fresh embedded database and, for each of POST /api/business/login, /api/business and
 * /api/stripe/webhook in turn, sends 4 anonymous 200 MiB JSON bodies in parallel (streamed, never held by this
 * process) while sampling the server's resident memory (VmRSS) every 20 ms. Reports the idle RSS, the peak RSS, the
 * answers and how long they took; exits 1 when the peak grows more than 64 MiB over the idle RSS (a body must be
 * refused before it is read) or an answer is not a 413.
 */
import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import { benchEnvironment, builtAppExists, rssOf, rssSampler, sleep } from './bench-server.ts'
import { startServerProcess, stopServer } from '#tests/support/server-process.ts'

const MiB = 1024 * 1024
const BODY_BYTES = 200 * MiB
const PARALLEL = 4
const BUDGET_BYTES = 64 * MiB
const ENDPOINTS = ['/api/business/login', '/api/business', '/api/stripe/webhook']

const mib = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`

/**
 * One anonymous JSON post of `BODY_BYTES` (a valid JSON object with one long string), written chunk by chunk as the
 * socket takes it; stops writing as soon as the server has answered or closed the connection.
 */
function post(base: string, path: string): Promise<{ status: number; seconds: number }> {
  const started = performance.now()
  const head = Buffer.from('{"email":"bench@example.com","password":"')
  const tail = Buffer.from('"}')
  const chunk = Buffer.alloc(MiB, 'x')
  return new Promise((resolve) => {
    let status = 0
    let done = false
    const finish = () => {
      if (done) return
      done = true
      resolve({ status, seconds: (performance.now() - started) / 1000 })
    }
    const req = http.request(new URL(path, base), {
      method: 'POST',
      agent: false,
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(BODY_BYTES) },
    })
    req.on('response', (res) => {
      status = res.statusCode ?? 0
      res.resume()
      res.on('end', finish)
      res.on('error', finish)
    })
    req.on('error', finish)
    req.on('close', finish)
    void (async () => {
      req.write(head)
      let sent = head.length
      while (!done && status === 0 && sent + tail.length < BODY_BYTES) {
        const piece = chunk.subarray(0, Math.min(chunk.length, BODY_BYTES - tail.length - sent))
        sent += piece.length
        if (!req.write(piece)) {
          await new Promise<void>((resolve) => {
            const go = () => {
              req.off('drain', go).off('close', go)
              resolve()
            }
            req.on('drain', go).on('close', go)
          })
        }
      }
      if (!done && status === 0) req.end(tail)
    })()
  })
}

async function main() {
  if (!builtAppExists()) process.exit(1)
  const { dataDir, env } = benchEnvironment('eventshout-bench-bodies-')
  let server: ChildProcess | undefined
  let failed = false
  try {
    const started = await startServerProcess({ env, stderr: 'inherit' })
    server = started.server
    const base = started.base
    const pid = server.pid!
    // Code loaded on first use is not counted: one small refused post per endpoint first.
    for (const path of ENDPOINTS)
      await fetch(new URL(path, base), { method: 'POST', body: '{}' }).catch(() => {})
    await sleep(1000)
    const idle = rssOf(pid)
    console.info(
      `idle RSS ${mib(idle)}; ${PARALLEL} parallel anonymous ${mib(BODY_BYTES)} JSON posts per endpoint`,
    )
    let overallPeak = idle
    for (const path of ENDPOINTS) {
      const samples = rssSampler(pid)
      const answers = await Promise.all(Array.from({ length: PARALLEL }, () => post(base, path)))
      await sleep(500)
      samples.stop()
      const peak = Math.max(idle, ...samples.samples)
      overallPeak = Math.max(overallPeak, peak)
      const statuses = answers.map((a) => a.status || 'reset').join(', ')
      const slowest = Math.max(...answers.map((a) => a.seconds)).toFixed(2)
      console.info(`${path.padEnd(22)} answers ${statuses}; slowest ${slowest} s; peak RSS ${mib(peak)}`)
      if (answers.some((a) => a.status !== 413)) failed = true
    }
    const growth = overallPeak - idle
    console.info(
      `RSS ${mib(idle)} → peak ${mib(overallPeak)} (+${mib(growth)}; budget +${mib(BUDGET_BYTES)})`,
    )
    if (growth > BUDGET_BYTES) failed = true
  } finally {
    if (server) await stopServer(server)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  if (failed) {
    console.error('FAILED: a body was read instead of refused, or an answer was not 413')
    process.exit(1)
  }
}

await main()
