/**
 * `npm run jobs -- digests --now` / `reminders --now` on the embedded database: a running server does the run
 * (asked through its admin socket, as a backup is); with none running the command opens the folder itself.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { BUILD_TIMEOUT_MS, ensureBuild } from '#tests/support/built-app.ts'
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
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/jobs.ts', ...args], {
      env,
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
