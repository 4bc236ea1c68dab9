/**
 * The built server at the edges of its life, as a load balancer, a deploy and an operator meet them, on a PostgreSQL
 * cluster of the test's own (two servers share one data folder, which the embedded database refuses): a request on a
 * kept-alive connection left idle when SIGTERM came is answered 503 rather than meeting a closed connection; an upload
 * sent while the server starts or stops gets its 503 rather than a reset; and after a rolling deploy on one data
 * folder the new server takes the admin socket over once the old one has stopped.
 */
import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import path from 'node:path'
import postgres from 'postgres'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { ADMIN_SOCKET_FILE } from '#app/services/operations/admin-socket-path.server.ts'
import { approveBody } from '#tests/support/ad-submission.ts'
import { ensureBuild } from '#tests/support/built-app.ts'
import { startPrivateCluster, type PrivateCluster } from '#tests/support/private-postgres.ts'
import {
  exitOf,
  freePort,
  productionServerEnv,
  SERVER_BUILD,
  SERVER_SCRIPT,
  startServerProcess,
  stopServer,
  type ServerProcess,
} from '#tests/support/server-process.ts'
import { TMP_DIR, withDatabase } from '#tests/support/test-database.ts'

const root = path.join(TMP_DIR, `server-edges-${process.pid}`)
let cluster: PrivateCluster
let databaseUrl: string
const started: ServerProcess[] = []

const serverEnv = (dataDir: string) => productionServerEnv(dataDir, databaseUrl)

async function startServer(name: string, dataDir = path.join(root, name)) {
  const running = await startServerProcess({ env: serverEnv(dataDir), stdout: 'keep' })
  started.push(running)
  return running
}

/** The id space of the app's advisory locks (db/client.server.ts): the migrations wait for theirs. */
const ADVISORY_LOCK_SPACE = 0x45_56_53_48

beforeAll(async () => {
  await ensureBuild()
  cluster = await startPrivateCluster()
  const admin = postgres(cluster.url, { onnotice: () => {}, max: 1 })
  await admin.unsafe('create database server_edges')
  await admin.end()
  databaseUrl = withDatabase(cluster.url, 'server_edges')
}, 300_000)

afterAll(async () => {
  await Promise.all(started.map((s) => stopServer(s.server)))
  await cluster?.destroy()
  fs.rmSync(root, { recursive: true, force: true })
})

interface Answer {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
  reusedSocket: boolean
}

/** One request through `agent`: its answer, or the error the client met instead. */
function ask(agent: http.Agent, base: string, pathname: string) {
  return new Promise<Answer | Error>((resolve) => {
    const req = http.get(new URL(pathname, base), { agent }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, reusedSocket: req.reusedSocket }),
      )
      res.on('error', resolve)
    })
    req.on('error', resolve)
  })
}

/** Resolves once `condition` holds, checking every 50 ms. */
async function until(condition: () => boolean | Promise<boolean>, what: string, withinMs = 30_000) {
  const deadline = Date.now() + withinMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Still waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const signalled = (running: ServerProcess) => () => running.output().includes('SIGTERM: no new connections')

test('a request on a kept-alive connection left idle at SIGTERM is answered 503, never a closed connection', async () => {
  const running = await startServer('keep-alive')
  const exited = exitOf(running.server)
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2 })
  try {
    // Two connections, each idle after its answer (Keep-Alive: timeout=5), as a load balancer keeps them.
    const opened = await Promise.all([
      ask(agent, running.base, '/healthz?db=0'),
      ask(agent, running.base, '/healthz?db=0'),
    ])
    for (const answer of opened) expect((answer as Answer).status, String(answer)).toBe(200)
    expect(Object.values(agent.freeSockets).flat()).toHaveLength(2)

    running.server.kill('SIGTERM')
    // Sent as the signal arrives: answered before it (200) or after it (503), but answered.
    const racing = await ask(agent, running.base, '/api/public-events?limit=1')
    if (racing instanceof Error) throw racing
    expect(racing.reusedSocket).toBe(true)
    expect([200, 503]).toContain(racing.status)

    await until(signalled(running), 'the shutdown to begin')
    const afterSignal = await ask(agent, running.base, '/api/public-events?limit=1')
    if (afterSignal instanceof Error) throw afterSignal
    expect(afterSignal.reusedSocket).toBe(true)
    expect(afterSignal.status).toBe(503)
    expect(afterSignal.headers.connection).toBe('close')
    expect(afterSignal.headers['retry-after']).toBe('2')
    expect(JSON.parse(afterSignal.body)).toEqual({
      message: 'The server is restarting. Please try again in a moment.',
    })
    // A page asked for on the next idle connection (one is left, whichever way the race went) is told the same.
    const page = await ask(agent, running.base, '/calendar')
    if (!(page instanceof Error)) {
      expect(page.status).toBe(503)
      expect(page.body).toBe('The server is restarting. Please try again in a moment.')
    } else expect((page as NodeJS.ErrnoException).code).toBe('ECONNREFUSED')

    // The connections nobody uses again are closed a moment later, and the server exits 0.
    expect(await exited).toBe(0)
    expect(running.log()).not.toMatch(/still in flight|\n\s+at /)
  } finally {
    agent.destroy()
  }
}, 120_000)

/** The head and body of POST /api/approve-event with a multipart body of about 4 MB (an ad with a large photo). */
async function largeUpload(base: string) {
  const form = approveBody({
    eventData: { eventTitle: 'Upload at the edge' },
    image: crypto.randomBytes(4 << 20),
  })
  const encoded = new Response(form)
  const body = Buffer.from(await encoded.arrayBuffer())
  const head = [
    'POST /api/approve-event HTTP/1.1',
    `Host: ${new URL(base).host}`,
    `Origin: ${base}`,
    `Content-Type: ${encoded.headers.get('Content-Type')}`,
    `Content-Length: ${body.length}`,
    '',
    '',
  ].join('\r\n')
  return Buffer.concat([Buffer.from(head), body])
}

/**
 * A connection as the simplest clients use one: each request written whole (an upload's body right after its
 * headers, no `Expect: 100-continue`) before anything is read. `error()` is what it met (a reset, a broken pipe).
 */
function connectionTo(base: string) {
  const url = new URL(base)
  const socket = net.connect(Number(url.port), url.hostname)
  let received = ''
  let failure: Error | undefined
  socket.setEncoding('latin1')
  socket.on('data', (chunk: string) => (received += chunk))
  socket.on('error', (error) => (failure ??= error))
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  return {
    received: () => received,
    error: () => failure,
    closed,
    send: (data: Buffer | string) => new Promise<void>((resolve) => socket.write(data, () => resolve())),
  }
}

/** The status line and headers of the last answer in `received`, with its body. */
function lastAnswer(received: string) {
  const answer = received.slice(received.lastIndexOf('HTTP/1.1 '))
  const [head = '', body = ''] = answer.split('\r\n\r\n')
  return { head, body }
}

test('an upload sent whole while the server starts is answered 503 with Retry-After: 1, never reset', async () => {
  // The migrations wait for their lock, held here: the server stays in its start until it is released.
  const holder = postgres(databaseUrl, { onnotice: () => {}, max: 1 })
  await holder`select pg_advisory_lock(${ADVISORY_LOCK_SPACE}, hashtext('migrations'))`
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const server = spawn(process.execPath, [SERVER_SCRIPT, SERVER_BUILD], {
    env: { ...serverEnv(path.join(root, 'starting')), PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let log = ''
  server.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()))
  try {
    const health = () =>
      fetch(`${base}/healthz`).then(
        (res) => res.status,
        () => 0,
      )
    await until(async () => (await health()) === 503, 'the port to answer while the server starts', 60_000)
    const upload = await largeUpload(base)
    for (let i = 0; i < 3; i++) {
      const connection = connectionTo(base)
      await connection.send(upload)
      await connection.closed
      expect(connection.error(), log).toBeUndefined()
      const { head, body } = lastAnswer(connection.received())
      expect(head).toMatch(/^HTTP\/1\.1 503 /)
      expect(head).toMatch(/\r\nRetry-After: 1\r\n/i)
      expect(head).toMatch(/\r\nConnection: close\r\n/i)
      expect(JSON.parse(body)).toEqual({ message: 'The server is starting. Please try again in a moment.' })
    }
    // Still starting: nothing of the uploads reached the app.
    expect(await health()).toBe(503)
  } finally {
    await holder.end()
    await stopServer(server)
  }
}, 120_000)

test('an upload sent whole on a kept-alive connection after SIGTERM is answered 503 with Retry-After: 2, never reset', async () => {
  const running = await startServer('stopping')
  const exited = exitOf(running.server)
  const upload = await largeUpload(running.base)
  const connection = connectionTo(running.base)
  await connection.send(`GET /healthz?db=0 HTTP/1.1\r\nHost: ${new URL(running.base).host}\r\n\r\n`)
  await until(() => connection.received().includes('"status":"ok"'), 'the first answer')
  expect(connection.received()).toMatch(/^HTTP\/1\.1 200 /)

  running.server.kill('SIGTERM')
  await until(signalled(running), 'the shutdown to begin')
  await connection.send(upload)
  await connection.closed
  expect(connection.error(), running.log()).toBeUndefined()
  const { head, body } = lastAnswer(connection.received())
  expect(head).toMatch(/^HTTP\/1\.1 503 /)
  expect(head).toMatch(/\r\nRetry-After: 2\r\n/i)
  expect(head).toMatch(/\r\nConnection: close\r\n/i)
  expect(JSON.parse(body)).toEqual({ message: 'The server is restarting. Please try again in a moment.' })
  expect(await exited).toBe(0)
}, 120_000)

/** The admin socket's answer to POST /jobs/reminders (what `npm run jobs -- reminders --now` asks), or the error. */
function askAdminSocket(socketPath: string) {
  return new Promise<{ status: number; body: string } | Error>((resolve) => {
    const req = http.request({ socketPath, method: 'POST', path: '/jobs/reminders' }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', resolve)
    req.end()
  })
}

const answersOnSocket = (socketPath: string) => async () => {
  const answer = await askAdminSocket(socketPath)
  return !(answer instanceof Error) && answer.status === 200
}

test('after a rolling deploy on one data folder, the new server takes the admin socket over once the old one stops', async () => {
  const dataDir = path.join(root, 'shared')
  const socketPath = path.join(dataDir, ADMIN_SOCKET_FILE)
  const old = await startServer('old', dataDir)
  await until(answersOnSocket(socketPath), "the old server's admin socket")
  const next = await startServer('new', dataDir)
  await until(() => next.log().includes(`Another server answers on ${socketPath}`), 'the new server to wait')

  await stopServer(old.server)
  expect(old.server.exitCode).toBe(0)
  // Only the new server runs now: what answers is its socket.
  await until(answersOnSocket(socketPath), 'the admin socket to answer again')
  const answer = await askAdminSocket(socketPath)
  expect(answer).toMatchObject({ status: 200 })
  expect(JSON.parse((answer as { body: string }).body)).toMatchObject({ queued: 0 })
  expect(next.output()).toContain('"msg":"Admin socket taken over"')
  expect(fs.statSync(socketPath).mode & 0o777).toBe(0o600)
  // Nothing of the handover is left beside it.
  expect(fs.readdirSync(dataDir).filter((name) => name.endsWith('.sock'))).toEqual([ADMIN_SOCKET_FILE])

  // A holder killed outright leaves its socket file behind: the server waiting next takes it over all the same.
  const third = await startServer('third', dataDir)
  await until(
    () => third.log().includes(`Another server answers on ${socketPath}`),
    'the third server to wait',
  )
  next.server.kill('SIGKILL')
  await exitOf(next.server)
  await until(answersOnSocket(socketPath), 'the admin socket to answer after the kill')
  expect(third.output()).toContain('"msg":"Admin socket taken over"')

  await stopServer(third.server)
  expect(third.server.exitCode).toBe(0)
  expect(fs.existsSync(socketPath)).toBe(false)
}, 180_000)
