/**
 * The built server on the embedded database as clients meet a restart: while it starts, the port answers 503 with
 * `Retry-After: 1` (never a refused connection) until the app is ready; after `kill -9` in the middle of a write load
 * (registrations and ads with a photo on four connections) the restarted server has every write it acknowledged.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { inArray } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { openEmbeddedDatabase } from '#db/client.server.ts'
import { business, eventMedia, events } from '#db/schema.ts'
import { ensureBuild } from '#tests/support/built-app.ts'
import {
  embeddedServerEnv,
  exitOf,
  freePort,
  SERVER_BUILD,
  SERVER_SCRIPT,
  startServerProcess,
  stopServer,
} from '#tests/support/server-process.ts'
import {
  photoUploadRequest,
  registeredCookie,
  registrationRequest,
  uniqueEmail,
} from '#tests/support/server-requests.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const root = path.join(TMP_DIR, `restart-under-load-${process.pid}`)

const serverEnv = (dataDir: string) =>
  embeddedServerEnv(dataDir, { REGISTRATIONS_PER_ADDRESS_PER_HOUR: '10000' })

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Seen {
  status: number
  retryAfter?: string
  body: string
}

/** One request on a connection of its own: its answer, or the error (a refused connection). */
function ask(base: string, pathname: string, method = 'GET') {
  return new Promise<Seen | Error>((resolve) => {
    const url = new URL(pathname, base)
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        agent: false,
        headers: { Origin: base },
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (body += chunk))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body }),
        )
        res.on('error', resolve)
      },
    )
    req.on('error', resolve)
    req.end(method === 'POST' ? '{}' : undefined)
  })
}

beforeAll(() => ensureBuild(), 300_000)
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

test('while the server starts, its port answers 503 with Retry-After: 1 until the app is ready', async () => {
  const dataDir = path.join(root, 'starting')
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const server = spawn(process.execPath, [SERVER_SCRIPT, SERVER_BUILD], {
    env: { ...serverEnv(dataDir), PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let log = ''
  server.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()))
  try {
    // Before the port listens the connection is refused; from then on, an answer every time.
    const answers: Seen[] = []
    let refusedAfterListening = 0
    const deadline = Date.now() + 60_000
    while (Date.now() < deadline) {
      expect(server.exitCode, log).toBeNull()
      const answer = await ask(base, '/healthz')
      if (answer instanceof Error) {
        if (answers.length) refusedAfterListening++
      } else {
        answers.push(answer)
        if (answer.status === 200) break
        // The other requests of a client meet the same answer meanwhile.
        if (answers.length === 1) {
          const page = await ask(base, '/')
          const write = await ask(base, '/api/business', 'POST')
          for (const other of [page, write]) {
            if (other instanceof Error) throw other
            if (other.status === 200 || other.status === 201) continue // ready in between
            expect(other.status).toBe(503)
            expect(other.retryAfter).toBe('1')
          }
        }
      }
      await sleep(10)
    }
    expect(answers.at(-1)?.status).toBe(200)
    const starting = answers.filter((a) => a.status !== 200)
    expect(starting.length).toBeGreaterThan(0)
    for (const answer of starting) {
      expect(answer.status).toBe(503)
      expect(answer.retryAfter).toBe('1')
      expect(JSON.parse(answer.body)).toEqual({ status: 'starting' })
    }
    expect(refusedAfterListening).toBe(0)
  } finally {
    await stopServer(server)
  }
  expect(await exitOf(server)).toBe(0)
}, 120_000)

test('after kill -9 during a write load, the restarted server has every acknowledged write', async () => {
  const dataDir = path.join(root, 'crash')
  const first = await startServerProcess({ env: serverEnv(dataDir) })
  const cookie = await registeredCookie(first.base)
  const emails: string[] = []
  const ads: number[] = []
  let writing = true

  async function registrations() {
    while (writing) {
      const email = uniqueEmail('under-load')
      const held = registrationRequest(first.base, email)
      held.finish()
      const answer = await held.answer
      if (!(answer instanceof Error) && answer.status === 201) emails.push(email)
      if (answer instanceof Error) return
    }
  }
  async function uploads(n: number) {
    for (let i = 0; writing; i++) {
      const held = await photoUploadRequest(first.base, cookie, `Under load ${n}-${i}`)
      held.finish()
      const answer = await held.answer
      if (answer instanceof Error) return
      if (answer.status === 200) ads.push((JSON.parse(answer.body) as { eventID: number }).eventID)
    }
  }
  const load = [registrations(), registrations(), uploads(1), uploads(2)]
  // Killed while writes are being answered, once some were acknowledged.
  const until = Date.now() + 20_000
  while ((emails.length < 5 || ads.length < 2) && Date.now() < until) await sleep(50)
  first.server.kill('SIGKILL')
  await exitOf(first.server)
  writing = false
  await Promise.all(load)
  expect(emails.length).toBeGreaterThanOrEqual(5)
  expect(ads.length).toBeGreaterThanOrEqual(2)

  const second = await startServerProcess({ env: serverEnv(dataDir) })
  await stopServer(second.server)
  expect(await exitOf(second.server)).toBe(0)

  const handle = await openEmbeddedDatabase(dataDir)
  try {
    const found = await handle.db
      .select({ email: business.businessEmail })
      .from(business)
      .where(inArray(business.businessEmail, emails))
    expect(found.map((r) => r.email).sort()).toEqual([...emails].sort())
    const saved = await handle.db
      .select({ id: events.eventID })
      .from(events)
      .where(inArray(events.eventID, ads))
    expect(saved.map((r) => r.id).sort()).toEqual([...ads].sort())
    const photos = await handle.db
      .select({ id: eventMedia.eventID })
      .from(eventMedia)
      .where(inArray(eventMedia.eventID, ads))
    expect(new Set(photos.map((r) => r.id))).toEqual(new Set(ads))
  } finally {
    await handle.close()
  }
}, 120_000)
