/**
 * Background backfills (docs/decisions/041) on the test database (embedded, or PostgreSQL with DATABASE_URL): a
 * backfill goes in batches in key order, keeps its place in backfill_runs so a new runner (a restart, another
 * server) continues after the last batch committed, and finishes once. Online steps: only what may run outside a
 * transaction is accepted there.
 */
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  getBackfillState,
  listBackfills,
  remainingRows,
  runBackfillBatch,
  unfinishedBackfills,
} from '#app/models/platform/backfills.server.ts'
import { runToTheEnd } from '#app/services/operations/backfills.server.ts'
import { db, rowsOf } from '#db/client.server.ts'
import { listOnlineSteps } from '#db/online-steps.js'
import { FIXTURE_MIGRATIONS } from '#tests/support/rolling-deploy.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const folder = path.join(TMP_DIR, `backfills-${process.pid}`)
const ROWS = 2_500

beforeAll(async () => {
  fs.mkdirSync(path.join(folder, 'backfills'), { recursive: true })
  fs.writeFileSync(
    path.join(folder, 'backfills', '0900_probe_double.sql'),
    `-- One batch after key $1, $2 rows.
WITH batch AS (SELECT id FROM backfill_probe WHERE id > $1 ORDER BY id LIMIT $2),
filled AS (UPDATE backfill_probe p SET doubled = p.n * 2 FROM batch WHERE p.id = batch.id AND p.doubled IS NULL)
SELECT max(id) AS last_key, count(*)::int AS rows FROM batch
--> statement-breakpoint
SELECT count(*)::int AS remaining FROM backfill_probe WHERE id > $1`,
  )
  await db.execute(
    sql`CREATE TABLE backfill_probe (id serial PRIMARY KEY, n integer NOT NULL, doubled integer)`,
  )
  await db.execute(sql`INSERT INTO backfill_probe (n) SELECT g FROM generate_series(1, ${ROWS}) g`)
})

afterAll(() => fs.rmSync(folder, { recursive: true, force: true }))

test('a backfill goes in batches, continues where it stopped, and finishes once', async () => {
  const [backfill] = listBackfills(folder)
  expect(backfill!.name).toBe('0900_probe_double')
  expect(await unfinishedBackfills([backfill!])).toEqual([backfill])
  expect(await remainingRows(backfill!, 0)).toBe(ROWS)

  const first = await runBackfillBatch(backfill!, 1000)
  expect(first.rows).toBe(1000)
  expect(first.state).toMatchObject({ lastKey: 1000, rowsDone: 1000, finishedAt: null })
  // A server stopping here loses nothing: the next runner reads where the last batch left off.
  expect(await getBackfillState(backfill!.name)).toMatchObject({ lastKey: 1000, rowsDone: 1000 })
  expect(await remainingRows(backfill!, 1000)).toBe(ROWS - 1000)

  expect((await runBackfillBatch(backfill!, 1000)).state).toMatchObject({ lastKey: 2000, rowsDone: 2000 })
  expect((await runBackfillBatch(backfill!, 1000)).state).toMatchObject({ lastKey: ROWS, rowsDone: ROWS })
  const last = await runBackfillBatch(backfill!, 1000)
  expect(last.rows).toBe(0)
  expect(last.state.finishedAt).toBeInstanceOf(Date)
  // Finished: another runner does nothing, and counts nothing again.
  const again = await runBackfillBatch(backfill!, 1000)
  expect(again).toMatchObject({ rows: 0, state: { rowsDone: ROWS } })
  expect(again.state.finishedAt).toEqual(last.state.finishedAt)
  expect(await unfinishedBackfills([backfill!])).toEqual([])
  // A server that saw it unfinished and got its lock only after the end runs no batch (and logs no second end).
  expect(await runToTheEnd(backfill!)).toEqual({ batches: 0, longestBatchMs: 0 })

  const [check] = rowsOf<{ wrong: number }>(
    await db.execute(
      sql`SELECT count(*) FILTER (WHERE doubled IS DISTINCT FROM n * 2)::int AS wrong FROM backfill_probe`,
    ),
  )
  expect(check!.wrong).toBe(0)
})

test("the fixture release's concurrent step is an index build; anything else there is refused", () => {
  expect(listOnlineSteps(FIXTURE_MIGRATIONS)).toEqual([
    expect.objectContaining({ index: 'events_title_length_idx' }),
  ])
  const bad = path.join(folder, 'bad')
  fs.mkdirSync(path.join(bad, 'concurrent'), { recursive: true })
  fs.writeFileSync(
    path.join(bad, 'concurrent', '0901_rewrite.sql'),
    'UPDATE events SET "eventTitle" = "eventTitle";',
  )
  expect(() => listOnlineSteps(bad)).toThrow(/CREATE \[UNIQUE\] INDEX CONCURRENTLY IF NOT EXISTS/)
  const releaseSteps = listOnlineSteps(path.resolve('db/migrations'))
  expect(releaseSteps.length).toBeGreaterThan(0)
  expect(releaseSteps.every((step) => step.index !== null && /CONCURRENTLY/.test(step.sql))).toBe(true)
})
