/**
 * The built server on a PostgreSQL cluster of its own, which the test stops and starts: while the database is away,
 * requests that need it get a 503 with Retry-After and /healthz says not ready; once it is back, everything
 * answers again without a restart of the server.
 */
import type { ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ensureBuild } from '#tests/support/built-app.ts'
import { startPrivateCluster, type PrivateCluster } from '#tests/support/private-postgres.ts'
import { startServerProcess, stopServer } from '#tests/support/server-process.ts'

let cluster: PrivateCluster
let server: ChildProcess
let base: string

async function get(path: string) {
  const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(30_000) })
  const body = await response.text()
  return {
    status: response.status,
    retryAfter: response.headers.get('Retry-After'),
    body,
  }
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return false
}

beforeAll(async () => {
  await ensureBuild()
  cluster = await startPrivateCluster()
  const started = await startServerProcess({
    env: {
      ...process.env,
      NODE_ENV: 'production',
      APP_ENV: 'test',
      DATABASE_URL: cluster.url,
      SESSION_SECRET: crypto.randomBytes(24).toString('hex'),
    },
  })
  server = started.server
  base = started.base
}, 360_000)

afterAll(async () => {
  if (server) await stopServer(server)
  await cluster?.destroy()
})

describe('a PostgreSQL server that goes away and comes back', () => {
  test('503 with Retry-After while it is away, /healthz not ready, and recovery once it is back', async () => {
    expect((await get('/api/events')).status).toBe(200)
    await cluster.stop()

    for (const path of ['/api/events/1', '/event/1?viewMode=true', '/calendar?keyword=outage']) {
      const answer = await get(path)
      expect({ path, status: answer.status }).toEqual({ path, status: 503 })
      expect(Number(answer.retryAfter)).toBeGreaterThan(0)
      expect(answer.body).not.toMatch(/ECONNREFUSED|at .*\.js/)
    }
    const health = await get('/healthz')
    expect(health.status).toBe(503)
    expect(JSON.parse(health.body)).toMatchObject({ status: 'error' })

    await cluster.start()
    expect(await waitFor(async () => (await get('/healthz')).status === 200, 60_000)).toBe(true)
    expect((await get('/api/events')).status).toBe(200)
    expect(server.exitCode).toBeNull()
  })
})
