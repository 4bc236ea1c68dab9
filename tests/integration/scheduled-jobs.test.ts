/**
 * The hourly jobs on this run's database: the purge of expired sessions and sign-in attempts and of old emails, and
 * the rule that a job runs once at a time and once per period however many servers schedule it.
 */
import { inArray, like, sql } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { getJobRun, runJobOnce } from '#app/models/platform/job-runs.server.ts'
import {
  DATABASE_MAINTENANCE_JOB,
  EXPIRED_ROWS_JOB,
  maintainEmbeddedDatabase,
  OUTBOX_PURGE_JOB,
  purgeExpiredSignIns,
  purgeOldMail,
  runScheduledJobs,
} from '#app/services/operations/cleanup.server.ts'
import { getEnv } from '#app/services/platform/env.server.ts'
import { KNOWN_ADDRESS_TTL_MS, SIGN_IN_WINDOW_MS } from '#app/services/platform/rate-limit.server.ts'
import { db, getDatabaseHandle, rowsOf } from '#db/client.server.ts'
import { authAttempts, outbox, sessions } from '#db/schema.ts'

const HOUR_MS = 60 * 60 * 1000
const DAY_MS = 24 * HOUR_MS

/** Outbox rows addressed `{name}@{domain}`, each queued `createdDaysAgo` and (when sent) sent `sentDaysAgo`. */
async function insertMail(
  domain: string,
  now: Date,
  rows: Array<{ name: string; status: string; createdDaysAgo: number; sentDaysAgo?: number }>,
) {
  const ago = (days: number) => new Date(now.getTime() - days * DAY_MS)
  await db.insert(outbox).values(
    rows.map(({ name, status, createdDaysAgo, sentDaysAgo }) => ({
      kind: 'test',
      toAddress: `${name}@${domain}`,
      subject: name,
      textBody: name,
      htmlBody: `<p>${name}</p>`,
      status,
      createdAt: ago(createdDaysAgo),
      nextAttemptAt: ago(createdDaysAgo),
      sentAt: sentDaysAgo === undefined ? null : ago(sentDaysAgo),
    })),
  )
}

async function mailLeft(domain: string) {
  const rows = await db
    .select({ subject: outbox.subject })
    .from(outbox)
    .where(like(outbox.toAddress, `%@${domain}`))
  return rows.map((row) => row.subject).sort()
}

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

/** The first instant after `from` at which the platform's clock shows `hour` o'clock. */
function atPlatformHour(from: Date, hour: number) {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: getEnv().APP_TIME_ZONE,
    hour: 'numeric',
    hourCycle: 'h23',
  })
  for (let h = 1; h <= 24; h++) {
    const at = new Date(from.getTime() + h * HOUR_MS)
    if (Number(format.format(at)) === hour) return at
  }
  throw new Error(`no ${hour} o'clock`)
}

async function lastVacuumOfEvents() {
  const result = await db.execute(sql`SELECT last_vacuum FROM pg_stat_user_tables WHERE relname = 'events'`)
  return rowsOf<{ last_vacuum: Date | string | null }>(result)[0]?.last_vacuum ?? null
}

test('the embedded database is vacuumed and analysed at night, once a day; a server database is left to its own autovacuum', async () => {
  const base = new Date(Date.now() + 10 * 24 * HOUR_MS)
  const night = atPlatformHour(base, 3)
  const afternoon = atPlatformHour(night, 15)
  if (getDatabaseHandle().kind !== 'pglite') {
    expect(await maintainEmbeddedDatabase(night)).toEqual([])
    return
  }
  const runsBefore = (await getJobRun(DATABASE_MAINTENANCE_JOB))?.runs ?? 0
  const tables = await maintainEmbeddedDatabase(night)
  expect(tables).toEqual(expect.arrayContaining(['events', 'business', 'event_show_dates']))
  expect(await lastVacuumOfEvents()).not.toBeNull()
  // The same day's afternoon, and the next night but one hour too soon: not due.
  expect(await maintainEmbeddedDatabase(afternoon)).toBeNull()
  expect(await maintainEmbeddedDatabase(new Date(night.getTime() + 19 * HOUR_MS))).toBeNull()
  // The next night it runs again; in the daytime only once two days have passed without it.
  expect(await maintainEmbeddedDatabase(new Date(night.getTime() + 24 * HOUR_MS))).not.toBeNull()
  expect(await maintainEmbeddedDatabase(new Date(afternoon.getTime() + 24 * HOUR_MS))).toBeNull()
  expect(await maintainEmbeddedDatabase(new Date(afternoon.getTime() + 3 * 24 * HOUR_MS))).not.toBeNull()
  expect((await getJobRun(DATABASE_MAINTENANCE_JOB))?.runs).toBe(runsBefore + 3)
})

test('the outbox keeps sent emails 30 days and failed ones 90; unsent ones are never purged', async () => {
  const now = new Date()
  await insertMail('retention.example', now, [
    { name: 'sent-31-days-ago', status: 'sent', createdDaysAgo: 31, sentDaysAgo: 31 },
    { name: 'sent-29-days-ago', status: 'sent', createdDaysAgo: 29, sentDaysAgo: 29 },
    { name: 'queued-long-ago-sent-lately', status: 'sent', createdDaysAgo: 100, sentDaysAgo: 10 },
    { name: 'failed-91-days-ago', status: 'failed', createdDaysAgo: 91 },
    { name: 'failed-89-days-ago', status: 'failed', createdDaysAgo: 89 },
    { name: 'pending-for-a-year', status: 'pending', createdDaysAgo: 365 },
    { name: 'sending-for-a-year', status: 'sending', createdDaysAgo: 365 },
  ])

  expect(await purgeOldMail(now)).toEqual({ sent: 1, failed: 1 })

  expect(await mailLeft('retention.example')).toEqual([
    'failed-89-days-ago',
    'pending-for-a-year',
    'queued-long-ago-sent-lately',
    'sending-for-a-year',
    'sent-29-days-ago',
  ])
  expect(await purgeOldMail(now)).toEqual({ sent: 0, failed: 0 })
})

test('the schedule purges old emails once per period', async () => {
  const now = new Date(Date.now() + 5 * HOUR_MS)
  await insertMail('scheduled-retention.example', now, [
    { name: 'old-sent', status: 'sent', createdDaysAgo: 40, sentDaysAgo: 40 },
    { name: 'recent-sent', status: 'sent', createdDaysAgo: 1, sentDaysAgo: 1 },
  ])
  const runsBefore = (await getJobRun(OUTBOX_PURGE_JOB))?.runs ?? 0
  await runScheduledJobs(now)
  await runScheduledJobs(new Date(now.getTime() + 1000))
  expect(await mailLeft('scheduled-retention.example')).toEqual(['recent-sent'])
  expect((await getJobRun(OUTBOX_PURGE_JOB))?.runs).toBe(runsBefore + 1)
})
