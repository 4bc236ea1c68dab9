/**
 * `npm start` as a newcomer runs it (`node scripts/start.js`, with a current build): the server itself fills a new
 * folder with the demo data, and after a kill -9 it starts again on that folder without building or seeding again.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { count } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { openEmbeddedDatabase } from '#db/client.server.ts'
import { DEMO_BUSINESSES, DEMO_EVENT_IDEAS } from '#db/demo-data.ts'
import { business } from '#db/schema.ts'
import { BUILD_SERVER, ensureBuild } from '#tests/support/built-app.ts'
import { exitOf, freePort, waitUntilUp } from '#tests/support/server-process.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const dataDir = path.join(TMP_DIR, `demo-start-${process.pid}`)

beforeAll(() => ensureBuild(), 300_000)
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

/** `npm start`'s script on a free port, its output kept; once it serves. */
async function npmStart() {
  const port = await freePort()
  // The environment of a newcomer's shell: none of the settings the test runner has.
  const { NODE_ENV: _node, APP_ENV: _app, DATABASE_URL: _url, SMTP_URL: _smtp, ...shell } = process.env
  const started = spawn(process.execPath, ['scripts/start.js'], {
    env: { ...shell, DATA_DIR: dataDir, PORT: String(port) } as unknown as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const keep = (chunk: Buffer) => (output += chunk.toString())
  started.stdout.on('data', keep)
  started.stderr.on('data', keep)
  await waitUntilUp(`http://127.0.0.1:${port}/healthz`, started)
  return { started, base: `http://127.0.0.1:${port}`, output: () => output }
}

async function killed(server: ChildProcess) {
  const exited = exitOf(server)
  server.kill('SIGKILL')
  await exited
}

async function businesses() {
  const handle = await openEmbeddedDatabase(dataDir)
  try {
    const [row] = await handle.db.select({ n: count() }).from(business)
    return row!.n
  } finally {
    await handle.close()
  }
}

test('npm start seeds a new folder from the server itself, and a restart after kill -9 neither builds nor seeds again', async () => {
  const builtAt = fs.statSync(BUILD_SERVER).mtimeMs
  const first = await npmStart()
  try {
    expect(first.output()).toContain('Seeded demo data: 39 events')
    expect(first.output()).toContain(`advertiser login: ${DEMO_BUSINESSES[0]!.businessEmail}`)
    const page = await (await fetch(`${first.base}/public`)).text()
    expect(page).toContain(DEMO_EVENT_IDEAS[0]!.title)
    // Development rules, as the README promises: the development sign-in page is there.
    expect((await fetch(`${first.base}/api/login`)).status).toBe(200)
  } finally {
    await killed(first.started)
  }
  const seeded = await businesses()
  expect(seeded).toBe(DEMO_BUSINESSES.length + 1)

  const again = await npmStart()
  try {
    expect(again.output()).toContain('The database already has data; demo seed skipped.')
    expect(again.output()).not.toContain('vite')
  } finally {
    await killed(again.started)
  }
  expect(await businesses()).toBe(seeded)
  expect(fs.statSync(BUILD_SERVER).mtimeMs).toBe(builtAt)
}, 120_000)
