/**
 * The hourly jobs on this run's database: the purge of expired sessions and sign-in attempts, and the rule that a
 * job runs once at a time and once per period however many servers schedule it.
 */
import { inArray } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { getJobRun, runJobOnce } from '#app/models/job-runs.server.ts'
import { EXPIRED_ROWS_JOB, purgeExpiredSignIns, runScheduledJobs } from '#app/services/cleanup.server.ts'
import { KNOWN_ADDRESS_TTL_MS, SIGN_IN_WINDOW_MS } from '#app/services/rate-limit.server.ts'
import { db } from '#db/client.server.ts'
import { authAttempts, sessions } from '#db/schema.ts'

const HOUR_MS = 60 * 60 * 1000

test('the purge deletes expired sessions and sign-in attempts and keeps the live ones', async () => {
  const now = new Date()
  const ago = (ms: number) => new Date(now.getTime() - ms)
  await db.insert(sessions).values([
    { sid: 'purge-expired', sess: {}, expire: ago(1000) },
    { sid: 'purge-live', sess: {}, expire: new Date(now.getTime() + HOUR_MS) },
  ])
  await db.insert(authAttempts).values([
    { key: 'signin:purge-old', failures: 3, windowStartedAt: ago(SIGN_IN_WINDOW_MS + 1000) },
    { key: 'signin:purge-recent', failures: 3, windowStartedAt: ago(1000) },
    { key: 'signin-known:purge-old', windowStartedAt: ago(KNOWN_ADDRESS_TTL_MS + 1000) },
    { key: 'signin-known:purge-recent', windowStartedAt: ago(SIGN_IN_WINDOW_MS + 1000) },
  ])

  expect(await purgeExpiredSignIns(now)).toEqual({ sessions: 1, signInAttempts: 2 })

  const sids = await db
    .select({ sid: sessions.sid })
    .from(sessions)
    .where(inArray(sessions.sid, ['purge-expired', 'purge-live']))
  expect(sids.map((r) => r.sid)).toEqual(['purge-live'])
  const keys = await db.select({ key: authAttempts.key }).from(authAttempts)
  expect(keys.map((r) => r.key).sort()).toEqual(['signin-known:purge-recent', 'signin:purge-recent'])
})

test('a job that is running is not started again, and one that ran recently waits for its period', async () => {
  let finish!: () => void
  const gate = new Promise<void>((resolve) => (finish = resolve))
  const first = runJobOnce('test-job', { notWithinMs: HOUR_MS }, async () => {
    await gate
    return 'done'
  })
  // Another server (or timer) asking while the first run holds the lock.
  await expect.poll(() => getJobRun('test-job').then((run) => run?.runs)).toBe(1)
  expect(await runJobOnce('test-job', { notWithinMs: 0 }, async () => 'again')).toEqual({
    ran: false,
    reason: 'running',
  })
  finish()
  expect(await first).toEqual({ ran: true, result: 'done' })

  expect(await runJobOnce('test-job', { notWithinMs: HOUR_MS }, async () => 'again')).toEqual({
    ran: false,
    reason: 'recent',
  })
  const later = new Date(Date.now() + HOUR_MS + 1000)
  expect(await runJobOnce('test-job', { notWithinMs: HOUR_MS, now: later }, async () => 'next')).toEqual({
    ran: true,
    result: 'next',
  })
  const run = await getJobRun('test-job')
  expect(run).toMatchObject({ runs: 2, startedAt: later })
  expect(run!.finishedAt).not.toBeNull()
})

test('the schedule purges expired sessions once per period', async () => {
  const now = new Date(Date.now() + 3 * HOUR_MS)
  await db
    .insert(sessions)
    .values({ sid: 'scheduled-expired', sess: {}, expire: new Date(now.getTime() - 1) })
  await runScheduledJobs(now)
  await runScheduledJobs(new Date(now.getTime() + 1000))
  expect(
    await db
      .select()
      .from(sessions)
      .where(inArray(sessions.sid, ['scheduled-expired'])),
  ).toEqual([])
  expect((await getJobRun(EXPIRED_ROWS_JOB))?.runs).toBe(1)
})
