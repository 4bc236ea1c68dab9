/**
 * Sign-in flood benchmark: `npm run bench:signin-flood` after `npx remix vite:build`.
 *
 * Starts the built server on a fresh embedded database with the demo data and times `/api/media/{photo}` (one
 * request at a time) while idle, then while waves of 40 parallel sign-ins with new emails hit POST
 * /api/business/login for 10 s. Password hashing shares Node's thread pool with file reads; the server bounds it, so
 * the media median must stay within budget (≤ 250 ms, or 10× idle on a slow machine); exits 1 otherwise.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { benchEnvironment, builtAppExists } from './bench-server.ts'
import { startServerProcess, stopServer } from '#tests/support/server-process.ts'

const PARALLEL_SIGN_INS = 40
const FLOOD_MS = 10_000
const BUDGET_MS = 250

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0

async function timeMedia(url: string, until: () => boolean) {
  const times: number[] = []
  while (!until()) {
    const started = performance.now()
    const response = await fetch(url)
    await response.arrayBuffer()
    if (!response.ok) throw new Error(`${url} answered ${response.status}`)
    times.push(performance.now() - started)
  }
  return times
}

async function main() {
  if (!builtAppExists()) return false
  const { env } = benchEnvironment('eventshout-bench-flood-')
  await promisify(execFile)('npx', ['tsx', 'scripts/seed.ts'], { env })
  const { server, base } = await startServerProcess({ env, stderr: 'inherit' })
  try {
    const events = (await (await fetch(`${base}/api/events`)).json()) as { stillPhotoURL?: string | null }[]
    const photo = events.find((event) => event.stillPhotoURL)?.stillPhotoURL
    if (!photo) throw new Error('The demo data has no live photo to fetch')
    const mediaUrl = new URL(photo, base).toString()

    let idleCount = 0
    const idle = await timeMedia(mediaUrl, () => idleCount++ >= 30)

    const statuses = new Map<number, number>()
    let signIns = 0
    let stopFlood = false
    const flood = (async () => {
      for (let wave = 0; !stopFlood; wave++) {
        await Promise.all(
          Array.from({ length: PARALLEL_SIGN_INS }, async (_, i) => {
            const response = await fetch(`${base}/api/business/login`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({
                email: `flood-${wave}-${i}@nobody.example`,
                password: 'not-the-password',
              }),
            })
            await response.arrayBuffer()
            signIns++
            statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
          }),
        )
      }
    })()
    const floodEnds = Date.now() + FLOOD_MS
    await new Promise((resolve) => setTimeout(resolve, 200))
    const during = await timeMedia(mediaUrl, () => Date.now() > floodEnds)
    stopFlood = true
    await flood

    const idleMedian = median(idle)
    const floodMedian = median(during)
    const budget = Math.max(BUDGET_MS, 10 * idleMedian)
    console.info(`/api/media median idle: ${idleMedian.toFixed(1)} ms (${idle.length} requests)`)
    console.info(
      `/api/media median during ${PARALLEL_SIGN_INS} parallel sign-ins: ${floodMedian.toFixed(1)} ms ` +
        `(${during.length} requests, max ${Math.max(...during).toFixed(0)} ms; budget ${budget.toFixed(0)} ms)`,
    )
    console.info(
      `sign-ins: ${signIns} in ${FLOOD_MS / 1000} s — ${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ')}`,
    )
    return floodMedian <= budget
  } finally {
    await stopServer(server)
  }
}

process.exitCode = (await main()) ? 0 : 1
