/**
 * Deploying migration 0025 onto a database with ads: the ads written before it have no times (all day) and no
 * status, their show-date rows stay as they were, and from then on every change a calendar app shows raises the
 * ad's calendar sequence. On the embedded database, and on PostgreSQL when DATABASE_URL is set.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { drizzle } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import { afterAll, expect, test } from 'vitest'
import { MIGRATIONS_FOLDER, migrateServerDatabase, openPglite, rowsOf } from '#db/client.server.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const TIMES_MIGRATION = '0025_event_times_and_status'
const before = path.join(TMP_DIR, `migrations-before-times-${process.pid}`)

afterAll(() => fs.rmSync(before, { recursive: true, force: true }))

/** The migrations folder as it was before 0025: its files, the online steps and the journal up to 0024. */
function migrationsBeforeTimes() {
  fs.rmSync(before, { recursive: true, force: true })
  fs.cpSync(MIGRATIONS_FOLDER, before, { recursive: true })
  const journalFile = path.join(before, 'meta', '_journal.json')
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> }
  const at = journal.entries.findIndex((e) => e.tag === TIMES_MIGRATION)
  expect(at).toBeGreaterThan(0)
  const later = journal.entries.slice(at).map((e) => e.tag)
  journal.entries = journal.entries.slice(0, at)
  fs.writeFileSync(journalFile, JSON.stringify(journal))
  // The online steps of 0025 and of every later migration: they build indexes on what those add.
  for (const tag of later) fs.rmSync(path.join(before, 'concurrent', `${tag}.sql`), { force: true })
  return before
}

type Execute = (query: ReturnType<typeof sql>) => Promise<unknown>

/** Writes a live ad and a draft the way the previous release did (it knew no times or status). */
async function writeAdsOfThePreviousRelease(execute: Execute) {
  const [owner] = rowsOf<{ businessID: number }>(
    await execute(sql`
      INSERT INTO "business" ("businessName", "businessEmail", "businessPassword", "businessZip")
      VALUES ('Blue Door Cafe', 'cafe@example.com', 'x', '62701') RETURNING "businessID"`),
  )
  await execute(sql`
    INSERT INTO "events" ("businessID", "eventTitle", "eventDescription", "showAdOnDates", "eventDate",
      "eventStatus", "paymentStatus")
    VALUES (${owner!.businessID}, 'Live jazz', 'd', '{2099-01-02,2099-01-03}', '2099-01-03', 'approved', 'paid'),
           (${owner!.businessID}, 'A draft', 'd', '{2099-01-05}', '1989-01-01', 'pending', 'pending')`)
}

async function checkTheAdsAfterTheMigration(execute: Execute) {
  const ads = rowsOf<Record<string, unknown>>(
    await execute(sql`
      SELECT "eventTitle", "startTime", "endTime", "scheduleStatus", "scheduleNote", "scheduleChangedAt",
        "calendarSequence"
      FROM "events" ORDER BY "eventTitle"`),
  )
  expect(ads).toEqual(
    ['A draft', 'Live jazz'].map((eventTitle) => ({
      eventTitle,
      startTime: null,
      endTime: null,
      scheduleStatus: null,
      scheduleNote: '',
      scheduleChangedAt: null,
      calendarSequence: 0,
    })),
  )
  const rows = rowsOf<{ show_date: string; start_time: string | null }>(
    await execute(sql`SELECT "show_date"::text, "start_time" FROM "event_show_dates" ORDER BY 1`),
  )
  expect(rows).toEqual([
    { show_date: '2099-01-02', start_time: null },
    { show_date: '2099-01-03', start_time: null },
  ])

  // From now on: a time reaches the show-date rows, and each change a calendar shows raises the sequence once.
  await execute(sql`UPDATE "events" SET "startTime" = '19:30' WHERE "eventTitle" = 'Live jazz'`)
  await execute(sql`UPDATE "events" SET "scheduleStatus" = 'cancelled' WHERE "eventTitle" = 'Live jazz'`)
  await execute(sql`UPDATE "events" SET "daysOrdered" = 3 WHERE "eventTitle" = 'Live jazz'`)
  const [jazz] = rowsOf<{ calendarSequence: number }>(
    await execute(sql`SELECT "calendarSequence" FROM "events" WHERE "eventTitle" = 'Live jazz'`),
  )
  expect(jazz!.calendarSequence).toBe(2)
  const times = rowsOf<{ start_time: string }>(
    await execute(sql`SELECT DISTINCT "start_time"::text FROM "event_show_dates"`),
  )
  expect(times).toEqual([{ start_time: '19:30:00' }])
  const refused = await execute(
    sql`UPDATE "events" SET "scheduleStatus" = 'deleted' WHERE "eventTitle" = 'A draft'`,
  ).then(
    () => null,
    (error: Error) => error,
  )
  expect(String((refused?.cause as Error | undefined)?.message)).toMatch(/events_schedule_status_check/)
}

async function onTheEmbeddedDatabase() {
  const { client, db } = await openPglite()
  try {
    await migrate(db as never, { migrationsFolder: migrationsBeforeTimes() })
    const execute: Execute = (query) => db.execute(query)
    await writeAdsOfThePreviousRelease(execute)
    await migrate(db as never, { migrationsFolder: MIGRATIONS_FOLDER })
    await checkTheAdsAfterTheMigration(execute)
  } finally {
    await client.close()
  }
}

async function onPostgres(serverUrl: string) {
  const name = `es_times_${crypto.randomBytes(5).toString('hex')}`
  const admin = postgres(serverUrl, { onnotice: () => {}, max: 1 })
  await admin.unsafe(`CREATE DATABASE "${name}"`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const client = postgres(url.toString(), { onnotice: () => {}, max: 1 })
  try {
    await migrateServerDatabase(url.toString(), migrationsBeforeTimes())
    const db = drizzle(client)
    const execute: Execute = (query) => db.execute(query)
    await writeAdsOfThePreviousRelease(execute)
    await migrateServerDatabase(url.toString(), MIGRATIONS_FOLDER)
    await checkTheAdsAfterTheMigration(execute)
  } finally {
    await client.end()
    await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
    await admin.end()
  }
}

const serverUrl = process.env.DATABASE_URL
test(
  `on ${serverUrl ? 'PostgreSQL' : 'the embedded database'}, ads written before the deploy are all day with no status`,
  () => (serverUrl ? onPostgres(serverUrl) : onTheEmbeddedDatabase()),
  60_000,
)
