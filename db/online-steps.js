// @ts-check
// The migration steps that may not run inside a transaction (docs/decisions/041): `CREATE INDEX CONCURRENTLY` and
// `DROP INDEX CONCURRENTLY`, which PostgreSQL refuses in one, while drizzle's migrator applies every pending
// migration in a single transaction. They live in `<migrations>/concurrent/*.sql`, are applied after the
// transactional migrations (under the same advisory lock), one statement at a time, in file order, and must be
// idempotent (`IF NOT EXISTS`, `IF EXISTS`): every start-up runs through them, and one already done costs a
// catalogue read. Plain JavaScript, so the embedded database's worker (pglite-worker.js) uses the same list.
import fs from 'node:fs'
import path from 'node:path'

const BREAKPOINT = '--> statement-breakpoint'
const CREATE_INDEX =
  /^\s*CREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+IF\s+NOT\s+EXISTS\s+("(?:[^"]|"")+"|[a-z_][a-z0-9_]*)/i
const DROP_INDEX = /^\s*DROP\s+INDEX\s+CONCURRENTLY\s+IF\s+EXISTS\s/i

/**
 * @typedef {{ file: string, sql: string, index: string | null }} OnlineStep
 * `index` is the name of the index a `CREATE INDEX CONCURRENTLY IF NOT EXISTS` builds (unquoted), else null.
 */

/** The statements of `<migrationsFolder>/concurrent/*.sql` in order; throws on one that is not allowed there. */
export function listOnlineSteps(/** @type {string} */ migrationsFolder) {
  const folder = path.join(migrationsFolder, 'concurrent')
  if (!fs.existsSync(folder)) return []
  /** @type {OnlineStep[]} */
  const steps = []
  for (const file of fs
    .readdirSync(folder)
    .filter((name) => name.endsWith('.sql'))
    .sort()) {
    const text = fs.readFileSync(path.join(folder, file), 'utf8')
    for (const part of text.split(BREAKPOINT)) {
      const statement = withoutComments(part).trim().replace(/;\s*$/, '')
      if (!statement) continue
      const created = CREATE_INDEX.exec(statement)
      if (!created && !DROP_INDEX.test(statement))
        throw new Error(
          `${file}: a concurrent step is CREATE [UNIQUE] INDEX CONCURRENTLY IF NOT EXISTS or DROP INDEX CONCURRENTLY IF EXISTS`,
        )
      const name = created?.[1] ?? null
      steps.push({
        file,
        sql: statement,
        index: name && name.startsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name,
      })
    }
  }
  return steps
}

/** The embedded database has one connection and nobody to block: the same statement, built the ordinary way. */
export function withoutConcurrently(/** @type {string} */ statement) {
  return statement.replace(/\bINDEX\s+CONCURRENTLY\b/i, 'INDEX')
}

/** The SQL that tells whether index `name` exists, and whether it is valid (a build cut short leaves it invalid). */
export const INDEX_STATE_SQL = `select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
  where c.relname = $1 and pg_catalog.pg_table_is_visible(c.oid)`

/** `"name"`, quoted for SQL. */
export const quoteIdentifier = (/** @type {string} */ name) => `"${name.replace(/"/g, '""')}"`

function withoutComments(/** @type {string} */ text) {
  return text
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n')
}
