/**
 * The built server on the embedded database as a supervisor meets it: after `kill -9` a restart takes the dead
 * process's lock over and serves at once, with every acknowledged write; a server whose lock is removed (an operator
 * clearing a "stale" lock) stops at once and writes nothing more.
 */
import fs from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { openEmbeddedDatabase } from '#db/client.server.ts'
import { lockFileFor } from '#db/data-folder-lock.server.ts'
import { business } from '#db/schema.ts'
import { ensureBuild } from '#tests/support/built-app.ts'
import { embeddedServerEnv, exitOf, startServerProcess, stopServer } from '#tests/support/server-process.ts'
import { registeredCookie, registrationRequest, uniqueEmail } from '#tests/support/server-requests.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const root = path.join(TMP_DIR, `embedded-server-lock-${process.pid}`)

const serverEnv = (dataDir: string) => embeddedServerEnv(dataDir)

async function businessExists(dataDir: string, email: string) {
  const handle = await openEmbeddedDatabase(dataDir)
  try {
    const rows = await handle.db
      .select({ id: business.businessID })
      .from(business)
      .where(eq(business.businessEmail, email))
    return rows.length > 0
  } finally {
    await handle.close()
  }
}

beforeAll(() => ensureBuild(), 300_000)
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

test('after kill -9 the restarted server takes the lock over at once, serves, and has every acknowledged write', async () => {
  const dataDir = path.join(root, 'crash')
  const first = await startServerProcess({ env: serverEnv(dataDir) })
  const email = uniqueEmail('before-crash')
  await registeredCookie(first.base, email)
  first.server.kill('SIGKILL')
  await exitOf(first.server)
  // The dead process's lock is still there: the restart must see that its holder is gone.
  expect(fs.existsSync(lockFileFor(path.join(dataDir, 'pg')))).toBe(true)

  // The first start must serve: a refusal (exit 1) fails here. How soon it serves is `npm run bench:crash-restart`.
  const second = await startServerProcess({ env: serverEnv(dataDir) })
  try {
    expect(second.log()).toMatch(/Taking over the lock .* no longer holds it/)
    expect(second.log()).not.toMatch(/in use by another process/)
  } finally {
    await stopServer(second.server)
  }
  expect(await exitOf(second.server)).toBe(0)
  expect(await businessExists(dataDir, email)).toBe(true)
}, 120_000)

test('a server whose lock is removed stops at once, non-zero, and writes nothing more', async () => {
  const dataDir = path.join(root, 'lost-lock')
  const running = await startServerProcess({ env: serverEnv(dataDir) })
  const exited = exitOf(running.server)
  const kept = uniqueEmail('kept')
  await registeredCookie(running.base, kept)

  fs.rmSync(lockFileFor(path.join(dataDir, 'pg')))
  // Sent right after the lock went: whichever comes first, the check before the write or the watchdog, the
  // registration is not acknowledged and not written.
  const late = uniqueEmail('after-the-lock-went')
  const attempt = registrationRequest(running.base, late)
  attempt.finish()
  const answer = await attempt.answer
  if (!(answer instanceof Error)) expect(answer.status).not.toBe(201)

  const code = await Promise.race([
    exited,
    new Promise((resolve) => setTimeout(() => resolve('still running'), 5000)),
  ])
  expect(code).toBe(1)
  expect(running.log()).toMatch(/The lock on .* was removed or taken by another process: stopping now/)

  expect(await businessExists(dataDir, kept)).toBe(true)
  expect(await businessExists(dataDir, late)).toBe(false)
}, 120_000)

test('a second server on a folder in use is refused, naming the running one', async () => {
  const dataDir = path.join(root, 'two')
  const running = await startServerProcess({ env: serverEnv(dataDir) })
  try {
    await expect(startServerProcess({ env: serverEnv(dataDir) })).rejects.toThrow(
      new RegExp(`in use by another process \\(pid ${running.server.pid}, since `),
    )
    expect((await fetch(`${running.base}/healthz`)).status).toBe(200)
  } finally {
    await stopServer(running.server)
  }
}, 120_000)
