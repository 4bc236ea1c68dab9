/**
 * A deploy's SIGTERM on the built server, on whichever database the run uses (a new database of its own on the
 * PostgreSQL server, or a new embedded folder): every request in flight finishes, uploads included; a request that
 * arrives meanwhile on a kept-alive connection is told 503 with Retry-After and the connection closes; every
 * acknowledged write is in the database afterwards, and the process exits 0 once the database is closed.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { eq, inArray } from 'drizzle-orm'
import postgres from 'postgres'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { openEmbeddedDatabase, openServerDatabase, type DatabaseHandle } from '#db/client.server.ts'
import { business, events } from '#db/schema.ts'
import { ensureBuild } from '#tests/support/built-app.ts'
import {
  exitOf,
  productionServerEnv,
  startServerProcess,
  type ServerProcess,
} from '#tests/support/server-process.ts'
import {
  photoUploadRequest,
  registeredCookie,
  registrationRequest,
  uniqueEmail,
  type Answer,
} from '#tests/support/server-requests.ts'
import { registrationFields } from '#tests/support/registration-fields.ts'
import { quoteIdent, TMP_DIR, withDatabase } from '#tests/support/test-database.ts'

const serverUrl = process.env.DATABASE_URL
const dataDir = path.join(TMP_DIR, `graceful-shutdown-${process.pid}`)
const databaseName = `es_shutdown_${crypto.randomBytes(5).toString('hex')}`
const databaseUrl = serverUrl ? withDatabase(serverUrl, databaseName) : ''

const serverEnv = (extra: Record<string, string> = {}) =>
  productionServerEnv(dataDir, databaseUrl, { REGISTRATIONS_PER_ADDRESS_PER_HOUR: '1000', ...extra })

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function openTheDatabase(): Promise<DatabaseHandle> {
  return serverUrl ? openServerDatabase(databaseUrl, { runMigrations: false }) : openEmbeddedDatabase(dataDir)
}

beforeAll(async () => {
  if (serverUrl) {
    const admin = postgres(serverUrl, { onnotice: () => {}, max: 1 })
    await admin.unsafe(`CREATE DATABASE ${quoteIdent(databaseName)}`)
    await admin.end()
  }
  await ensureBuild()
}, 300_000)

afterAll(async () => {
  fs.rmSync(dataDir, { recursive: true, force: true })
  if (serverUrl) {
    const admin = postgres(serverUrl, { onnotice: () => {}, max: 1 })
    await admin.unsafe(`DROP DATABASE IF EXISTS ${quoteIdent(databaseName)} WITH (FORCE)`)
    await admin.end()
  }
})

/**
 * A registration whose body is complete, then a second request pipelined on the same connection: the server reads
 * the second only once the first is answered, so it meets the shutdown under way.
 */
function pipelinedAfter(base: string, email: string) {
  const url = new URL(base)
  const socket = net.connect(Number(url.port), url.hostname)
  const json = JSON.stringify(registrationFields(email))
  const head = [
    'POST /api/business HTTP/1.1',
    `Host: ${url.host}`,
    `Origin: ${base}`,
    'Content-Type: application/json',
    'Expect: 100-continue',
    `Content-Length: ${Buffer.byteLength(json)}`,
    '',
    '',
  ].join('\r\n')
  let conversation = ''
  socket.setEncoding('utf8')
  const received = new Promise<void>((resolve) =>
    socket.on('data', (chunk: string) => {
      conversation += chunk
      if (conversation.startsWith('HTTP/1.1 100')) resolve()
    }),
  )
  const closed = new Promise<string>((resolve) =>
    socket.on('close', () => resolve(conversation.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, ''))),
  )
  socket.write(head + json.slice(0, 20))
  return {
    received,
    closed,
    finish() {
      socket.write(json.slice(20) + `GET /api/events HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`)
    },
  }
}

test('SIGTERM during 3 uploads and 20 registrations: each finishes, nothing acknowledged is lost, exit 0', async () => {
  const running: ServerProcess = await startServerProcess({ env: serverEnv() })
  const exited = exitOf(running.server)
  const cookie = await registeredCookie(running.base)

  const emails = Array.from({ length: 20 }, (_, i) => uniqueEmail(`deploy-${i}`))
  const registrations = emails.map((email) => registrationRequest(running.base, email))
  const uploads = await Promise.all(
    ['First', 'Second', 'Third'].map((n) =>
      photoUploadRequest(running.base, cookie, `${n} upload in flight`),
    ),
  )
  const pipelined = pipelinedAfter(running.base, uniqueEmail('kept-alive'))
  // Every request has reached the server (it asked for the body) before the deploy stops it.
  await Promise.all([...registrations, ...uploads].map((held) => held.received))
  await pipelined.received
  running.server.kill('SIGTERM')
  await sleep(300)
  for (const held of [...registrations, ...uploads, pipelined]) held.finish()

  const registered = (await Promise.all(registrations.map((r) => r.answer))) as Array<Answer | Error>
  const uploaded = (await Promise.all(uploads.map((u) => u.answer))) as Array<Answer | Error>
  const statusOf = (a: Answer | Error) => (a instanceof Error ? a.message : a.status)
  // In flight when the signal came, so each finishes: the uploads are saved; a registration is created or, past the
  // limit of passwords hashed at once, told 503 with Retry-After. Never a 500 or a cut connection.
  expect(uploaded.map(statusOf), running.log()).toEqual([200, 200, 200])
  for (const answer of registered) {
    expect([201, 503], running.log()).toContain(statusOf(answer))
    if ((answer as Answer).status === 503) expect((answer as Answer).headers['retry-after']).toMatch(/^\d+$/)
  }
  const acknowledged = emails.filter((_, i) => (registered[i] as Answer).status === 201)
  expect(acknowledged.length).toBeGreaterThan(0)

  const conversation = await pipelined.closed
  const [first, second] = conversation.split(/(?=HTTP\/1\.1 )/)
  expect(first).toMatch(/^HTTP\/1\.1 201 /)
  expect(second).toMatch(/^HTTP\/1\.1 503 /)
  expect(second).toMatch(/\r\nRetry-After: \d+\r\n/i)
  expect(second).toMatch(/\r\nConnection: close\r\n/i)
  // A JSON call is answered as the JSON calls' other errors are.
  expect(second).toMatch(/\r\nContent-Type: application\/json/i)
  expect(second).toContain('{"message":"The server is restarting. Please try again in a moment."}')

  expect(await exited).toBe(0)
  expect(running.log()).not.toMatch(/Failed to save|\n\s+at /)

  const handle = await openTheDatabase()
  try {
    const stored = await handle.db
      .select({ email: business.businessEmail })
      .from(business)
      .where(inArray(business.businessEmail, emails))
    expect(stored.map((row) => row.email).sort()).toEqual([...acknowledged].sort())
    for (const answer of uploaded as Answer[]) {
      const { eventID } = JSON.parse(answer.body) as { eventID: number }
      const [row] = await handle.db
        .select({ photo: events.stillPhotoURL })
        .from(events)
        .where(eq(events.eventID, eventID))
      expect(row?.photo).toMatch(/^\/api\/media\//)
      const file = new URL(row!.photo!, 'http://x').pathname.slice('/api/media/'.length)
      const files = fs.readdirSync(path.join(dataDir, 'media'), { recursive: true, encoding: 'utf8' })
      expect(files.some((name) => name.endsWith(file))).toBe(true)
    }
  } finally {
    await handle.close()
  }
}, 120_000)

test('a request still in flight after SHUTDOWN_TIMEOUT_MS is cut, and the process exits 1 instead of hanging', async () => {
  const running = await startServerProcess({ env: serverEnv({ SHUTDOWN_TIMEOUT_MS: '700' }) })
  const exited = exitOf(running.server)
  const stuck = registrationRequest(running.base, uniqueEmail('never-finished'))
  await stuck.received
  running.server.kill('SIGTERM')
  expect(await exited).toBe(1)
  expect(await stuck.answer).toBeInstanceOf(Error)
  expect(running.log()).toMatch(/1 request\(s\) still in flight after 700 ms/)
}, 120_000)
