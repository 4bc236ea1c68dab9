/**
 * What servers sharing one PostgreSQL rely on, on a cluster of this test's own (so it runs with either database
 * under test): start-up migrations that do not race, announcements of public page changes that reach every
 * server's listener (also after a database restart), and job locks that hold across servers.
 */
import postgres from 'postgres'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { getJobRun, runJobOnce } from '#app/models/job-runs.server.ts'
import { cachedLiveEvents, liveEventsGeneration } from '#app/models/live-events-cache.server.ts'
import { announcePublicPagesChanged, PUBLIC_PAGES_CHANNEL } from '#app/models/public-pages-changes.server.ts'
import {
  getDatabaseHandle,
  migrateServerDatabase,
  MIGRATIONS_FOLDER,
  openServerDatabase,
  useDatabase,
  type DatabaseHandle,
} from '#db/client.server.ts'
import fs from 'node:fs'
import path from 'node:path'
import { startPrivateCluster, type PrivateCluster } from '#tests/support/private-postgres.ts'
import { withDatabase } from '#tests/support/test-database.ts'

let cluster: PrivateCluster
let runDatabase: DatabaseHandle
/** Two servers' handles on one database: this process's app uses the first. */
let serverA: DatabaseHandle
let serverB: DatabaseHandle
const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
  entries: unknown[]
}

async function createDatabase(name: string) {
  const admin = postgres(cluster.url, { onnotice: () => {}, max: 1 })
  await admin.unsafe(`create database ${name}`)
  await admin.end()
  return withDatabase(cluster.url, name)
}

async function appliedMigrations(url: string) {
  const client = postgres(url, { onnotice: () => {}, max: 1 })
  try {
    const [row] = await client<
      [{ count: number }]
    >`select count(*)::int as count from drizzle.__drizzle_migrations`
    return row!.count
  } finally {
    await client.end()
  }
}

beforeAll(async () => {
  runDatabase = getDatabaseHandle()
  cluster = await startPrivateCluster()
  const url = await createDatabase('shared')
  serverA = await openServerDatabase(url)
  serverB = await openServerDatabase(url, { runMigrations: false })
  useDatabase(serverA)
}, 120_000)

afterAll(async () => {
  useDatabase(runDatabase)
  await serverA?.close()
  await serverB?.close()
  await cluster?.destroy()
})

test('servers migrating a new database at the same moment both succeed, and each migration runs once', async () => {
  const url = await createDatabase('fresh')
  const results = await Promise.allSettled([migrateServerDatabase(url), migrateServerDatabase(url)])
  expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok'])
  expect(await appliedMigrations(url)).toBe(journal.entries.length)
})

/** Listens on `handle` like a server does; resolves once listening. */
async function follow(handle: DatabaseHandle) {
  const heard: number[] = []
  let listening = 0
  const stop = handle.follow!(PUBLIC_PAGES_CHANNEL, {
    onNotify: () => heard.push(Date.now()),
    onListening: () => listening++,
  })
  await expect.poll(() => listening).toBe(1)
  return { heard, listening: () => listening, stop }
}

test('a change announced by one server reaches the other at once and clears this one’s caches', async () => {
  const other = await follow(serverB)
  try {
    await cachedLiveEvents('shared-test', async () => 'cached')
    const generation = liveEventsGeneration()
    const started = Date.now()
    await announcePublicPagesChanged()
    expect(liveEventsGeneration()).toBe(generation + 1)
    await expect.poll(() => other.heard.length, { timeout: 1000, interval: 10 }).toBe(1)
    expect(other.heard[0]! - started).toBeLessThan(1000)
  } finally {
    await other.stop()
  }
})

test('after a database restart the listener listens again and hears the next change', async () => {
  const other = await follow(serverB)
  try {
    await cluster.restart()
    // Listening again is itself a reason to forget the caches: changes may have been missed meanwhile.
    await expect.poll(() => other.listening(), { timeout: 10_000 }).toBe(2)
    await expect
      .poll(
        async () => {
          await announcePublicPagesChanged()
          return other.heard.length
        },
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0)
  } finally {
    await other.stop()
  }
}, 30_000)

test('a job another server is running is not started here', async () => {
  const release = await serverB.tryLock!('job:shared-job')
  expect(release).not.toBeNull()
  try {
    expect(await runJobOnce('shared-job', { notWithinMs: 0 }, async () => 'ran')).toEqual({
      ran: false,
      reason: 'running',
    })
    expect(await getJobRun('shared-job')).toBeNull()
  } finally {
    await release!()
  }
  expect(await runJobOnce('shared-job', { notWithinMs: 0 }, async () => 'ran')).toEqual({
    ran: true,
    result: 'ran',
  })
})
