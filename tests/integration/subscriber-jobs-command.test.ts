/**
 * `npm run jobs -- digests --now` / `reminders --now` on the embedded database: a running server does the run
 * (asked through its admin socket, as a backup is); with none running the command opens the folder itself.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { sql } from 'drizzle-orm'
import { openEmbeddedDatabase, rowsOf } from '#db/client.server.ts'
import { BUILD_TIMEOUT_MS, ensureBuild } from '#tests/support/built-app.ts'
import { insertBusiness } from '#tests/support/events.ts'
import { startServerProcess, stopServer } from '#tests/support/server-process.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const run = promisify(execFile)
const dataDir = path.join(TMP_DIR, `subscriber-jobs-${process.pid}`)
const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: 'production',
  APP_ENV: 'test',
  DATA_DIR: dataDir,
  DATABASE_URL: '',
}

beforeAll(async () => {
  await ensureBuild()
  fs.mkdirSync(dataDir, { recursive: true })
}, BUILD_TIMEOUT_MS)
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

async function jobs(...args: string[]) {
  return jobsWith(env, ...args)
}

async function jobsWith(commandEnv: NodeJS.ProcessEnv, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/jobs.ts', ...args], {
      env: commandEnv,
      timeout: 60_000,
    })
    return { code: 0, out: stdout + stderr }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return { code: failed.code ?? 1, out: `${failed.stdout ?? ''}${failed.stderr ?? ''}` }
  }
}

test('the running server runs the job; without one the command opens the folder itself', async () => {
  const server = await startServerProcess({ env })
  try {
    const digests = await jobs('digests', '--now')
    expect(digests.code, digests.out).toBe(0)
    expect(digests.out).toMatch(
      /^digests: 0 email\(s\) queued in the outbox for 0 subscription\(s\) in [\d.]+ s by the running server\.$/m,
    )
    const reminders = await jobs('reminders', '--now')
    expect(reminders.out).toContain('by the running server')
  } finally {
    await stopServer(server.server)
  }
  const alone = await jobs('reminders', '--now')
  expect(alone.code, alone.out).toBe(0)
  expect(alone.out).toContain('by this command')
}, 120_000)

test('an unknown job or a missing --now prints the usage', async () => {
  for (const args of [['digest', '--now'], ['digests'], []]) {
    const answer = await jobs(...args)
    expect(answer.code).toBe(2)
    expect(answer.out).toContain('Usage: npm run jobs -- digests --now')
  }
}, 60_000)

test('on a database with real businesses, the command refuses to queue mail without PUBLIC_URL: its links would be localhost', async () => {
  const folder = path.join(TMP_DIR, `subscriber-jobs-real-${process.pid}`)
  // A shell without the server's settings: no NODE_ENV, APP_ENV or PUBLIC_URL, so development rules.
  const realEnv: NodeJS.ProcessEnv = { ...env, DATA_DIR: folder }
  for (const name of ['NODE_ENV', 'APP_ENV', 'PUBLIC_URL']) delete realEnv[name]
  try {
    const handle = await openEmbeddedDatabase(folder)
    await insertBusiness(handle.db, {
      businessName: 'A Real Bakery',
      businessEmail: 'owner@realbakery.example',
    })
    await handle.close()

    for (const job of ['digests', 'reminders']) {
      const refused = await jobsWith(realEnv, job, '--now')
      expect(refused.code, refused.out).toBe(1)
      expect(refused.out).toContain(
        'PUBLIC_URL is not set, so the emails would link to http://localhost:3000. Run this with the server’s settings (PUBLIC_URL=https://…).',
      )
    }
    const reopened = await openEmbeddedDatabase(folder)
    const [runs] = rowsOf<{ n: number }>(
      await reopened.db.execute(sql`SELECT count(*)::int AS n FROM subscription_runs`),
    )
    await reopened.close()
    expect(runs?.n).toBe(0)

    const withUrl = await jobsWith({ ...realEnv, PUBLIC_URL: 'https://shout.example' }, 'digests', '--now')
    expect(withUrl.code, withUrl.out).toBe(0)
    expect(withUrl.out).toContain('by this command')
  } finally {
    fs.rmSync(folder, { recursive: true, force: true })
  }
}, 120_000)
