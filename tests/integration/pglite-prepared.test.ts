import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { PLANNED_WITH_VALUES, preparedStatements } from '#db/pglite-prepared.js'

let client: PGlite
let prepared: ReturnType<typeof preparedStatements>

beforeAll(async () => {
  client = new PGlite()
  await client.exec(`
    create table item (id integer primary key, name text not null, tags text[], starts date, meta jsonb);
    insert into item values (1, 'one', '{a,b}', '2026-12-01', '{"k": 1}'), (2, 'two', null, null, null);
  `)
  prepared = preparedStatements(client, { max: 3 })
})

afterAll(() => client.close())

async function prepareCount() {
  return (await client.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements')).rows[0]!
    .n
}

describe('named prepared statements for PGlite', () => {
  test('answers as PGlite.query does: rows, fields, rowCount, every parameter type, arrays and null', async () => {
    const sql = 'select id, name, tags, starts, meta from item where id = any($1) and name <> $2 order by id'
    const params = [[1, 2], 'none']
    const plain = await client.query(sql, params)
    expect(await prepared.query(sql, params)).toEqual(plain)
    expect(await prepared.query(sql, params, { rowMode: 'array' })).toEqual(
      await client.query(sql, params, { rowMode: 'array' }),
    )
    expect((await prepared.query('select $1::int + 1 as n', [null])).rows).toEqual([{ n: null }])
  })

  test('a statement is parsed once and run again by name', async () => {
    const sql = 'select name from item where id = $1'
    await prepared.query(sql, [1])
    const before = await prepareCount()
    expect((await prepared.query(sql, [2])).rows).toEqual([{ name: 'two' }])
    expect(await prepareCount()).toBe(before)
  })

  test('beyond its limit the least recently used statement is closed', async () => {
    for (let n = 0; n < 6; n++) await prepared.query(`select ${n} + $1::int as n`, [1])
    expect(prepared.size).toBe(3)
    expect(await prepareCount()).toBe(3)
  })

  test("a failing statement fails with PostgreSQL's fields, and the next one runs", async () => {
    await expect(
      prepared.query('insert into item (id, name) values ($1, $2)', [1, 'again']),
    ).rejects.toMatchObject({
      code: '23505',
    })
    await expect(prepared.query('select nope from item where id = $1', [1])).rejects.toMatchObject({
      code: '42703',
    })
    expect((await prepared.query('select count(*)::int as n from item where id > $1', [0])).rows).toEqual([
      { n: 2 },
    ])
  })

  test('a value that cannot be sent as its parameter type fails that statement alone; the next one runs', async () => {
    await expect(
      prepared.query('select count(*)::int as n from item where id = any($1)', [1]),
    ).rejects.toThrow('Parameter $1 cannot be sent')
    expect((await prepared.query('select name from item where id = $1', [2])).rows).toEqual([{ name: 'two' }])
    expect((await client.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }])
  })

  test('inside a transaction it sees the transaction and waits for nothing; a rollback undoes it', async () => {
    await client.transaction(async (tx) => {
      await tx.query(`insert into item (id, name) values (3, 'three')`)
      const { rows } = await prepared.queryInTransaction('select name from item where id = $1', [3])
      expect(rows).toEqual([{ name: 'three' }])
      await tx.rollback()
    })
    expect((await prepared.query('select name from item where id = $1', [3])).rows).toEqual([])
  })

  test('outside a transaction it waits until an open one ends', async () => {
    let release!: () => void
    const open = client.transaction(async (tx) => {
      await tx.query(`insert into item (id, name) values (4, 'four')`)
      await new Promise<void>((resolve) => (release = resolve))
    })
    await new Promise((resolve) => setTimeout(resolve, 20))
    const read = prepared.query('select name from item where id = $1', [4])
    release()
    await open
    expect((await read).rows).toEqual([{ name: 'four' }])
  })

  test('a statement with the mark is planned with its values at every run, never with a generic plan', async () => {
    const plans = async (sql: string) =>
      (
        await client.query<{ generic: number; custom: number }>(
          'select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where statement = $1',
          [sql],
        )
      ).rows[0]
    const plain = 'select name from item where id = $1'
    const marked = `select name from item where id = $1 ${PLANNED_WITH_VALUES}`
    for (let run = 0; run < 8; run++) {
      const id = (run % 2) + 1
      const name = id === 1 ? 'one' : 'two'
      expect((await prepared.query(plain, [id])).rows).toEqual([{ name }])
      expect((await prepared.query(marked, [id])).rows).toEqual([{ name }])
    }
    // PostgreSQL settles on a generic plan after five custom ones; the marked text runs as the unnamed statement,
    // planned anew each time, so its named twin (kept for its parameter types) never runs.
    expect((await plans(plain))!.generic).toBeGreaterThan(0)
    expect(await plans(marked)).toEqual({ generic: 0, custom: 0 })
  })

  test('a table changed under a statement is prepared again', async () => {
    const sql = 'select * from item where id = $1'
    expect(Object.keys((await prepared.query(sql, [1])).rows[0]!)).not.toContain('extra')
    await client.exec(`alter table item add column extra text default 'x'`)
    expect((await prepared.query(sql, [1])).rows[0]).toMatchObject({ extra: 'x' })
  })
})
