import fs from 'node:fs'
import path from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { asBackgroundWork } from '#db/background-work.server.ts'
import { db, openEmbeddedDatabase, rowsOf, type DatabaseHandle } from '#db/client.server.ts'
import { PLANNED_WITH_VALUES } from '#db/pglite-prepared.js'
import { categoryList } from '#db/schema.ts'
import { classifyDatabaseError } from '#app/services/platform/database-errors.server.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const dataDir = path.join(TMP_DIR, `thread-${process.pid}-${Date.now().toString(36)}`)
let handle: DatabaseHandle

beforeAll(async () => {
  handle = await openEmbeddedDatabase(dataDir)
}, 60_000)

afterAll(async () => {
  await handle?.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

const VALUES_QUERY = sql`SELECT DATE '2026-03-01' AS day, TIMESTAMPTZ '2026-03-01 10:00:00+00' AS at,
  ARRAY[DATE '2026-03-01', DATE '2026-03-02'] AS days, ARRAY['a', 'b'] AS words, 12.50::numeric AS price,
  42::int AS n, 9007199254740993::bigint AS big, '{"a": [1, 2]}'::jsonb AS doc, '\\x0102'::bytea AS bytes,
  true AS yes, NULL::text AS nothing`

test('answers with the same values as PGlite in the same thread (dates as text, arrays, JSON, bytes)', async () => {
  // `db` is this file's own database, in this thread (tests/support/setup-database.ts).
  const expected = rowsOf(await db.execute(VALUES_QUERY))
  const actual = rowsOf(await handle.db.execute(VALUES_QUERY))
  expect(actual).toEqual(expected)
  expect(actual[0]).toMatchObject({ day: '2026-03-01', n: 42, doc: { a: [1, 2] } })
})

test('a statement planned with its values at every run answers for each run’s values', async () => {
  const matching = (part: string, above: number) =>
    Array.from({ length: 300 }, (_, i) => i + 1).filter((n) => String(n).includes(part) && n > above).length
  // Past the fifth run, when a named statement would go generic: each run sees its own values (text, int, date).
  const runs = [
    ['1', 0],
    ['12', 100],
    ['299', 0],
    ['', 250],
    ['7', 7],
    ['30', 0],
    ['9', 290],
  ] as const
  for (const [part, above] of runs) {
    const [row] = rowsOf<{ n: number }>(
      await handle.db.execute(sql`SELECT count(*)::int AS n FROM generate_series(1, 300) AS g
        WHERE g::text LIKE '%' || ${part} || '%' AND g > ${above}::int
          AND ${'2026-03-01'}::date < DATE '2026-03-02' ${sql.raw(PLANNED_WITH_VALUES)}`),
    )
    expect(row, part).toEqual({ n: matching(part, above) })
  }
})

test('has the migrations applied, and typed queries work through the schema', async () => {
  await handle.db.insert(categoryList).values({ categoryName: 'Thread Test Category' })
  const [row] = await handle.db
    .select({ name: categoryList.categoryName })
    .from(categoryList)
    .where(eq(categoryList.categoryName, 'Thread Test Category'))
  expect(row).toEqual({ name: 'Thread Test Category' })
})

test('commits a transaction, and rolls it back (savepoints included) when it throws', async () => {
  await handle.db.execute(sql`CREATE TABLE thread_tx (v int PRIMARY KEY)`)
  await handle.db.transaction(async (tx) => {
    await tx.execute(sql`INSERT INTO thread_tx VALUES (1)`)
    await tx
      .transaction(async (inner) => {
        await inner.execute(sql`INSERT INTO thread_tx VALUES (2)`)
        throw new Error('inner fails')
      })
      .catch(() => {})
  })
  await expect(
    handle.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO thread_tx VALUES (3)`)
      throw new Error('the whole transaction fails')
    }),
  ).rejects.toThrow('the whole transaction fails')
  const rows = rowsOf<{ v: number }>(await handle.db.execute(sql`SELECT v FROM thread_tx ORDER BY v`))
  expect(rows.map((r) => r.v)).toEqual([1])
})

test("PostgreSQL's error fields cross the thread (code, constraint) and a failed COMMIT rejects", async () => {
  await handle.db.execute(sql`CREATE TABLE thread_unique (v int PRIMARY KEY)`)
  await handle.db.execute(sql`INSERT INTO thread_unique VALUES (1)`)
  const error = await handle.db.execute(sql`INSERT INTO thread_unique VALUES (1)`).catch((e: unknown) => e)
  const cause = ((error as { cause?: unknown }).cause ?? error) as { code?: string; constraint?: string }
  expect(cause.code).toBe('23505')
  expect(cause.constraint).toBe('thread_unique_pkey')

  await handle.db.execute(sql`CREATE TABLE thread_deferred (v int UNIQUE DEFERRABLE INITIALLY DEFERRED)`)
  await expect(
    handle.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO thread_deferred VALUES (1), (1)`)
    }),
  ).rejects.toMatchObject({ code: '23505' })
  const rows = rowsOf(await handle.db.execute(sql`SELECT * FROM thread_deferred`))
  expect(rows).toEqual([])
})

test('a query from outside an open transaction waits for it to end, then sees what it committed', async () => {
  await handle.db.execute(sql`CREATE TABLE thread_wait (v int)`)
  const order: string[] = []
  let outside: Promise<unknown> | undefined
  await handle.db.transaction(async (tx) => {
    await tx.execute(sql`INSERT INTO thread_wait VALUES (1)`)
    outside = handle.db.execute(sql`SELECT count(*)::int AS n FROM thread_wait`).then((result) => {
      order.push('outside')
      return result
    })
    await new Promise((resolve) => setTimeout(resolve, 50))
    await tx.execute(sql`INSERT INTO thread_wait VALUES (2)`)
    order.push('transaction')
  })
  const [counted] = rowsOf<{ n: number }>(await outside)
  expect(order).toEqual(['transaction', 'outside'])
  expect(counted?.n).toBe(2)
})

test('a slow query does not block the thread that answers requests', async () => {
  let answered = false
  let turns = 0
  const ticking = (async () => {
    while (!answered) {
      await new Promise((resolve) => setTimeout(resolve, 1))
      turns++
    }
  })()
  await handle.db.execute(sql`SELECT count(*) FROM generate_series(1, 4000000) AS g WHERE g % 7 = 3`)
  answered = true
  await ticking
  // The event loop kept turning while the query ran: a query on this thread would have let it turn once at most.
  expect(turns).toBeGreaterThan(10)
})

test('a statement of the site waits for one statement of background work at most, not for all it has asked', async () => {
  const order: string[] = []
  const slow = (name: string) =>
    handle.db.execute(sql`SELECT pg_sleep(0.06)`).then(() => void order.push(name))
  // A job asks five slow statements ahead, as the digests ask the next searches while writing an email.
  const job = asBackgroundWork(async () => {
    const asked = [1, 2, 3, 4, 5].map((n) => slow(`job ${n}`))
    await Promise.all(asked)
  })
  await new Promise((resolve) => setTimeout(resolve, 20))
  await handle.db.execute(sql`SELECT 1`).then(() => void order.push('site'))
  await job
  // The order says it: the site's statement ran after the first of the job's, before the other four. (A time bound
  // said it too, and failed when a busy machine made one 60 ms statement take 315 ms.)
  expect(order).toEqual(['job 1', 'site', 'job 2', 'job 3', 'job 4', 'job 5'])
})

test('background work in a transaction goes on while the site asks meanwhile, and both commit', async () => {
  await handle.db.execute(sql`CREATE TABLE thread_background (v int)`)
  const order: string[] = []
  let site: Promise<unknown> | undefined
  await asBackgroundWork(() =>
    handle.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO thread_background VALUES (1)`)
      site = handle.db
        .execute(sql`INSERT INTO thread_background VALUES (2)`)
        .then(() => void order.push('site'))
      await tx.execute(sql`INSERT INTO thread_background VALUES (3)`)
      order.push('background')
    }),
  )
  await site
  expect(order).toEqual(['background', 'site'])
  const rows = rowsOf<{ v: number }>(await handle.db.execute(sql`SELECT v FROM thread_background ORDER BY v`))
  expect(rows.map((r) => r.v)).toEqual([1, 2, 3])
})

test('background work goes on when the site never pauses', async () => {
  let busy = true
  let siteRounds = 0
  const site = (async () => {
    while (busy) {
      await Promise.all([1, 2].map(() => handle.db.execute(sql`SELECT pg_sleep(0.01)`)))
      siteRounds++
    }
  })()
  // A background statement held for ever would never answer, and the test would time out here.
  const rows = await asBackgroundWork(() => handle.db.execute(sql`SELECT 7 AS v`))
  const roundsMeanwhile = siteRounds
  busy = false
  await site
  expect(rowsOf<{ v: number }>(rows)[0]?.v).toBe(7)
  // It was answered among the site's statements, not after the site had stopped.
  expect(roundsMeanwhile).toBeGreaterThan(0)
})

test('after closing, a query fails as the database being unavailable (a 503), and the folder opens again', async () => {
  await handle.close()
  const error = await handle.db.execute(sql`SELECT 1`).catch((e: unknown) => e)
  expect(classifyDatabaseError(error)).toBe('unavailable')

  handle = await openEmbeddedDatabase(dataDir)
  const rows = rowsOf<{ v: number }>(await handle.db.execute(sql`SELECT v FROM thread_tx ORDER BY v`))
  expect(rows.map((r) => r.v)).toEqual([1])
}, 60_000)
