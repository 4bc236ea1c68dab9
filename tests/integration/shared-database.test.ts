/**
 * What servers sharing one PostgreSQL rely on, on a cluster of this test's own (so it runs with either database
 * under test): start-up migrations that do not race, announcements of public page changes that reach every
 * server's listener (also after a database restart), and job locks that hold across servers.
 */
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { getJobRun, runJobOnce } from '#app/models/platform/job-runs.server.ts'
import { cachedLiveEvents, liveEventsGeneration } from '#app/models/calendar/live-events-cache.server.ts'
import {
  announcePublicPagesChanged,
  PUBLIC_PAGES_CHANNEL,
} from '#app/models/calendar/public-pages-changes.server.ts'
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
/** The database both servers use. */
let sharedUrl: string
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
  sharedUrl = await createDatabase('shared')
  serverA = await openServerDatabase(sharedUrl)
  serverB = await openServerDatabase(sharedUrl, { runMigrations: false })
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
    await announcePublicPagesChanged()
    expect(liveEventsGeneration()).toBe(generation + 1)
    // Heard by notification: the listener has no timer of its own that could find the change later.
    await expect.poll(() => other.heard.length, { timeout: 10_000, interval: 10 }).toBe(1)
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

describe('an ad saved on one server while another moves its business is placed where the business ends up', () => {
  const BEVERLY_HILLS_90210 = { placeLatitude: 34.100517, placeLongitude: -118.41463 }
  let ad: postgres.Sql
  let move: postgres.Sql

  beforeAll(() => {
    ad = postgres(sharedUrl, { onnotice: () => {}, max: 1 })
    move = postgres(sharedUrl, { onnotice: () => {}, max: 1 })
  })
  afterAll(async () => {
    await ad.end()
    await move.end()
  })

  async function newBusiness(name: string) {
    const [row] = await ad<[{ businessID: number }]>`
      INSERT INTO "business" ("businessName", "businessEmail", "businessZip")
      VALUES (${name}, ${`${name.replace(/\W/g, '').toLowerCase()}@example.com`}, '62701') RETURNING "businessID"`
    return row!.businessID
  }
  const moveTo90210 = (businessID: number) =>
    move`UPDATE "business" SET "businessZip" = '90210' WHERE "businessID" = ${businessID}`
  const placeOf = async (eventID: number) =>
    (await ad`SELECT "placeLatitude", "placeLongitude" FROM "events" WHERE "eventID" = ${eventID}`)[0]
  const settledWithin = (work: Promise<unknown>, ms: number) =>
    Promise.race([work.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), ms))])

  test('the ad is being saved when the business moves', async () => {
    const businessID = await newBusiness('Race Diner')
    let moving: Promise<unknown> = Promise.resolve()
    const eventID = await ad.begin(async (tx) => {
      const [row] = await tx<[{ eventID: number }]>`
        INSERT INTO "events" ("businessID", "eventTitle", "eventDescription")
        VALUES (${businessID}, 'Opening night', 'd') RETURNING "eventID"`
      moving = moveTo90210(businessID)
      // The move waits for this ad, which it could not see yet, rather than miss it.
      expect(await settledWithin(moving, 500)).toBe(false)
      return row!.eventID
    })
    await moving
    expect(await placeOf(eventID)).toEqual(BEVERLY_HILLS_90210)
  })

  test('the business is moving when the ad is saved', async () => {
    const businessID = await newBusiness('Race Bakery')
    let saving: Promise<Array<{ eventID: number }>> = Promise.resolve([])
    await move.begin(async (tx) => {
      await tx`UPDATE "business" SET "businessZip" = '90210' WHERE "businessID" = ${businessID}`
      saving = ad<Array<{ eventID: number }>>`
        INSERT INTO "events" ("businessID", "eventTitle", "eventDescription")
        VALUES (${businessID}, 'Opening night', 'd') RETURNING "eventID"`
      // The ad waits for the move, then reads where the business went.
      expect(await settledWithin(saving, 500)).toBe(false)
    })
    const [row] = await saving
    expect(await placeOf(row!.eventID)).toEqual(BEVERLY_HILLS_90210)
  })
})
