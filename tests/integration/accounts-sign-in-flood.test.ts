/**
 * Forty sign-ins at once with new emails: password hashing is bounded, so the thread pool that file reads share
 * stays free (reads stay fast) and the excess gets a quick 503 with Retry-After instead of a queue of seconds.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { action as apiLoginAction } from '#app/routes/api.business.login.ts'
import { callRoute } from '#tests/support/routes.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const PARALLEL = 40
const file = path.join(TMP_DIR, `flood-${process.pid}.bin`)

beforeAll(() => {
  fs.mkdirSync(TMP_DIR, { recursive: true })
  fs.writeFileSync(file, crypto.randomBytes(256 * 1024))
})
afterAll(() => fs.rmSync(file, { force: true }))

function signIn(i: number) {
  return callRoute(apiLoginAction, '/api/business/login', {
    method: 'POST',
    body: JSON.stringify({ email: `flood-${i}-${Date.now()}@nobody.example`, password: 'not-the-password' }),
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `198.18.0.${i + 1}` },
  })
}

/** A file read as /api/media does it: on the thread pool. */
async function timedRead() {
  const started = performance.now()
  await fs.promises.readFile(file)
  return performance.now() - started
}

test(`${PARALLEL} parallel sign-ins leave file reads fast and turn the excess away with 503 + Retry-After`, async () => {
  const flood = Promise.all(Array.from({ length: PARALLEL }, (_, i) => signIn(i)))
  const reads: number[] = []
  for (let i = 0; i < 10; i++) reads.push(await timedRead())
  const answers = await flood
  const statuses = answers.map((r) => r.status)
  expect(statuses.every((s) => s === 401 || s === 503)).toBe(true)
  const busy = answers.filter((r) => r.status === 503)
  expect(busy.length).toBeGreaterThan(0)
  expect(Number(busy[0]!.headers.get('Retry-After'))).toBeGreaterThan(0)
  expect(await busy[0]!.json()).toMatchObject({ message: expect.stringMatching(/try again/i) })
  const median = [...reads].sort((a, b) => a - b)[reads.length / 2]!
  expect(median).toBeLessThan(150)
})
