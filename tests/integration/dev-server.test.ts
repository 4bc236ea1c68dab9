/**
 * `npm run dev` is `server.js` with Vite in middleware mode: the same middleware as in production runs in front of the
 * app, so a cross-site post and an oversized body are refused in development as they are in production
 * (early-answers.test.ts, request-bodies.test.ts), while the pages and their modules come from Vite.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { freePort, stopServer, waitUntilUp } from '#tests/support/server-process.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const dataDir = path.join(TMP_DIR, `dev-server-${process.pid}`)
let server: ChildProcess
let base: string
let log = ''

beforeAll(async () => {
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  // What `npm run dev` runs, on a folder of its own.
  server = spawn(process.execPath, ['server.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      APP_ENV: 'development',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SMTP_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  server.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-20_000)))
  try {
    // Vite transforms every server module before the first answer: 18 s on an idle 2-core machine, 77 s while the
    // other test files keep both cores busy.
    await waitUntilUp(`${base}/healthz`, server)
  } catch (error) {
    throw new Error(`${(error as Error).message}:\n${log}`)
  }
}, 200_000)

afterAll(async () => {
  if (server) await stopServer(server)
  fs.rmSync(dataDir, { recursive: true, force: true })
})

test('the pages come from Vite: a page loads its route modules from the sources, which Vite serves', async () => {
  const page = await fetch(`${base}/api/login`)
  expect(page.status).toBe(200)
  expect(await page.text()).toContain('"/app/routes/api.login.tsx"')
  // The security headers of every answer, set by the request guard before Vite and Remix.
  expect(page.headers.get('X-Frame-Options')).toBe('DENY')
  for (const file of ['/@vite/client', '/app/routes/api.login.tsx']) {
    const res = await fetch(`${base}${file}`)
    expect(res.status, file).toBe(200)
    expect(res.headers.get('Content-Type'), file).toMatch(/javascript/)
    await res.body?.cancel()
  }
}, 60_000)

test('a cross-site post is refused with 403, as in production', async () => {
  const res = await fetch(`${base}/patient-diseases`, {
    method: 'POST',
    headers: { Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'intent=delete&id=1',
    redirect: 'manual',
  })
  expect(res.status).toBe(403)
  await res.body?.cancel()
})

test('a 5 MB JSON body is refused with 413 and a JSON message, as in production', async () => {
  const body = JSON.stringify({ email: 'a@b.example', password: 'x'.repeat(5 * 1024 * 1024) })
  const res = await fetch(`${base}/api/business/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: base },
    body,
  })
  expect(res.status).toBe(413)
  expect(await res.json()).toEqual({ message: expect.stringMatching(/too large/i) })
})

test('SIGTERM runs the one shutdown sequence: the server exits 0', async () => {
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)))
  server.kill('SIGTERM')
  // Killed by the signal, the process would have no exit code; 0 says the jobs stopped and the database closed.
  expect(await exited).toBe(0)
}, 30_000)
