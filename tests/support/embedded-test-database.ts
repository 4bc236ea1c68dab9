/**
 * The embedded database of the test files, one per worker: a test file starts on exactly what the migrated template
 * holds, but the worker loads the template once and puts its database back between files, since starting PGlite
 * takes a second or more of CPU and the reset a few hundredths. The reset empties every table, puts back the rows
 * and sequence values the template had, and ends the previous file's session state. A file that changed more than
 * data (a table, column, trigger or function altered, a trigger disabled) or closed the database itself leaves a
 * database the next file does not get: it gets a fresh load of the template instead.
 */
import fs from 'node:fs'
import type { PGlite } from '@electric-sql/pglite'
import { openPglite, type Database, type DatabaseHandle } from '#db/client.server.ts'

interface TableRows {
  table: string
  /** The template's rows as JSON, for a table small enough to put back; null for one kept as it is. */
  rows: string | null
  /** For a kept table: its row count and newest row version, which a file must not have changed. */
  version: string | null
}

interface Kept {
  template: string
  client: PGlite
  db: Database
  /** The catalogue's row counts and newest row versions: any change of a table, column, trigger or function moves them. */
  catalog: string
  tables: TableRows[]
  sequences: { name: string; value: string; called: boolean }[]
  /** Whether a test file is using it now, and the handle it was given. */
  inUse: boolean
  handle?: DatabaseHandle
}

/** Tables of the template with more rows than this (the ZIP centroids) are kept, not emptied and filled again. */
const KEPT_TABLE_ROWS = 1000

let kept: Kept | undefined

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

/** A table's row count and newest row version: an insert, update or delete of any row changes it. */
const versionOf = (table: string) =>
  `(select count(*) || ':' || coalesce(max(xmin::text::bigint), 0) from ${table})`

const CATALOG = [
  'pg_class',
  'pg_attribute',
  'pg_attrdef',
  'pg_constraint',
  'pg_index',
  'pg_trigger',
  'pg_proc',
  'pg_type',
]
const CATALOG_VERSION = `select ${CATALOG.map(versionOf).join(" || '|' || ")} as version`

async function one<T>(client: PGlite, sql: string, params: unknown[] = []) {
  const result = await client.query<T>(sql, params)
  return result.rows[0]!
}

const tableVersion = async (client: PGlite, table: string) =>
  (await one<{ version: string }>(client, `select ${versionOf(quote(table))} as version`)).version
const catalogVersion = async (client: PGlite) =>
  (await one<{ version: string }>(client, CATALOG_VERSION)).version

/** What the template holds that a reset puts back, read once its database is loaded. */
async function snapshot(client: PGlite) {
  const { rows: names } = await client.query<{ table: string }>(
    `select tablename as "table" from pg_tables where schemaname = 'public' order by tablename`,
  )
  const tables: TableRows[] = []
  for (const { table } of names) {
    const { count } = await one<{ count: number }>(
      client,
      `select count(*)::int as count from ${quote(table)}`,
    )
    if (count > KEPT_TABLE_ROWS)
      tables.push({ table, rows: null, version: await tableVersion(client, table) })
    else {
      const { rows } = await one<{ rows: string }>(
        client,
        `select coalesce(json_agg(t), '[]')::text as rows from ${quote(table)} t`,
      )
      tables.push({ table, rows, version: null })
    }
  }
  const { rows: sequences } = await client.query<{ name: string; value: string; called: boolean }>(
    `select quote_ident(schemaname) || '.' || quote_ident(sequencename) as name,
      coalesce(last_value, start_value)::text as value, last_value is not null as called
     from pg_sequences where schemaname = 'public'`,
  )
  return { tables, sequences, catalog: await catalogVersion(client) }
}

/**
 * Puts the template's data back: false when the database is no longer the template's to put back. Rows are deleted
 * rather than truncated (a truncate rewrites the catalogue, and takes ten times as long), with triggers and foreign
 * keys off meanwhile, as a restore does.
 */
async function reset(database: Kept) {
  const { client } = database
  if (client.closed || (await catalogVersion(client)) !== database.catalog) return false
  for (const { table, version } of database.tables)
    if (version !== null && (await tableVersion(client, table)) !== version) return false
  const emptied = database.tables.filter((table) => table.rows !== null)
  await client.exec(
    `reset all; select pg_advisory_unlock_all(); unlisten *; set session_replication_role = replica;
     ${emptied.map((table) => `delete from ${quote(table.table)};`).join(' ')}`,
  )
  try {
    for (const { table, rows } of emptied)
      if (rows !== '[]')
        await client.query(
          `insert into ${quote(table)} overriding system value
           select * from json_populate_recordset(null::${quote(table)}, $1::json)`,
          [rows],
        )
    for (const { name, value, called } of database.sequences)
      await client.query(`select setval($1::regclass, $2::bigint, $3)`, [name, value, called])
  } finally {
    await client.exec('reset session_replication_role')
  }
  return true
}

async function load(template: string): Promise<Kept> {
  const { client, db } = await openPglite({ loadDataDir: new Blob([fs.readFileSync(template)]) })
  return { template, client, db, inUse: false, ...(await snapshot(client)) }
}

/**
 * The worker's embedded database, holding what `template` holds. Closing it closes it (the next file then loads the
 * template again); a file that opens a second one while using the first (its own beside the run's) gets one of its
 * own.
 */
export async function embeddedTestDatabase(template: string): Promise<DatabaseHandle> {
  if (kept?.inUse || (kept && kept.template !== template)) return ownDatabase(template)
  if (!kept || !(await reset(kept).catch(() => false))) {
    if (kept && !kept.client.closed) await kept.client.close().catch(() => {})
    kept = await load(template)
  }
  const database = kept
  database.inUse = true
  database.handle = {
    db: database.db,
    kind: 'pglite',
    async close() {
      database.inUse = false
      await database.client.close()
    },
  }
  return database.handle
}

/**
 * At the end of a test file: the worker's database is free for the next file (nothing of this file uses it any
 * more). True when `current`, the database the file ended on, is that one, so it stays open.
 */
export function handBack(current: DatabaseHandle | undefined) {
  if (!kept || kept.client.closed) return false
  kept.inUse = false
  return current === kept.handle
}

async function ownDatabase(template: string): Promise<DatabaseHandle> {
  const { client, db } = await openPglite({ loadDataDir: new Blob([fs.readFileSync(template)]) })
  return { db, kind: 'pglite', close: () => client.close() }
}
