// @ts-check
// The migrations the previous release cannot live with (docs/decisions/041, checked as docs/decisions/045 says):
// during a rolling deploy the servers of the previous release keep answering against the schema the new release
// migrates, so a migration must not rename or drop what they read, make a column they insert without required,
// change a column's type, or lock a table they write while an index is built. `npm run lint` runs this check over
// db/migrations, and every start-up runs it before migrating (client.server.ts): a refused migration stops the new
// server before it changes anything, and the previous release goes on serving.
//
// The statements are read by PostgreSQL's own parser (libpg-query, compiled to WebAssembly), not by patterns: a
// statement in a function's body or a string is not taken for one, and a quoted name is read as PostgreSQL reads it.
// Plain JavaScript, like online-steps.js, so any process that migrates can run it.
import { Buffer } from 'node:buffer'
import fs from 'node:fs'
import path from 'node:path'

/**
 * The last migration written before this check existed: it and those before it have shipped, and are not read
 * again. Of them, 0010–0023 build indexes on tables the site writes inside the migration (before concurrent/
 * existed), and 0015 makes a column NOT NULL and adds one without a default; none renames or drops a column or table.
 */
export const LAST_UNCHECKED_MIGRATION = '0032_qr_scans'

const BREAKPOINT = '--> statement-breakpoint'
const CONTRACT_MARKER = /^--\s*contract:\s*(\S*)/i
const DOCS = 'README.md (Operating EventShout, Upgrade), docs/decisions/041 and 045'

/**
 * @typedef {{ file: string, statement: number, line: number, sql: string, rule: string, problem: string,
 *   remedy: string }} Refusal
 * `statement` counts from 1 between drizzle's breakpoints (0: the contract marker); `line` is where it starts in the
 * file.
 * @typedef {{ idx: number, tag: string }} JournalEntry
 * @typedef {{ file?: string, earlierTags?: string[], shippedTags?: Set<string> }} CheckOptions
 * `earlierTags`: the migrations before this one in the journal (a contract marker must name one of them);
 * `shippedTags`: when known (from git, at lint time), the migrations of the previous release, which a contract
 * marker must name.
 */

/** The journal's entries (`<folder>/meta/_journal.json`), in order. */
export function readJournal(/** @type {string} */ migrationsFolder) {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8'))
  return /** @type {JournalEntry[]} */ (journal.entries)
}

/** A migration's number, the start of its tag (`0032_qr_scans`: 32). */
const numberOf = (/** @type {string} */ tag) => Number.parseInt(tag, 10)

/**
 * What the journal's migrations numbered after LAST_UNCHECKED_MIGRATION do that the previous release cannot live
 * with (a journal that stops before it, as an older release's, has nothing to check). Empty when they are fine.
 * @param {string} migrationsFolder
 * @param {{ shippedTags?: Set<string> }} [options]
 */
export async function findUnsafeMigrations(migrationsFolder, { shippedTags } = {}) {
  const entries = readJournal(migrationsFolder)
  const baseline = numberOf(LAST_UNCHECKED_MIGRATION)
  /** @type {Refusal[]} */
  const refusals = []
  for (let i = 0; i < entries.length; i++) {
    if (!(numberOf(entries[i]?.tag ?? '') > baseline)) continue
    const file = `${entries[i]?.tag}.sql`
    const text = fs.readFileSync(path.join(migrationsFolder, file), 'utf8')
    const earlierTags = entries.slice(0, i).map((entry) => entry.tag)
    refusals.push(...(await checkMigration(text, { file, earlierTags, shippedTags })))
  }
  return refusals
}

/** Thrown before anything is migrated when a migration is refused; its message says what and how to do it instead. */
export class UnsafeMigrationError extends Error {
  /** @param {Refusal[]} refusals */
  constructor(refusals) {
    super(
      `${describeRefusals(refusals)}\nNothing was migrated: this server stops here, the running ones go on.`,
    )
    this.name = 'UnsafeMigrationError'
    this.refusals = refusals
  }
}

/** Throws UnsafeMigrationError when a migration of `migrationsFolder` is refused (see findUnsafeMigrations). */
export async function refuseUnsafeMigrations(/** @type {string} */ migrationsFolder) {
  const refusals = await findUnsafeMigrations(migrationsFolder)
  if (refusals.length > 0) throw new UnsafeMigrationError(refusals)
}

/** The refusals as a person reads them: the file, the statement, what breaks, what to do instead. */
export function describeRefusals(/** @type {Refusal[]} */ refusals) {
  const files = new Set(refusals.map((r) => r.file))
  const lines = [
    `Refused: ${files.size === 1 ? 'a migration' : `${files.size} migrations`} the previous release cannot ` +
      'live with while it keeps answering during a rolling deploy.',
  ]
  for (const r of refusals)
    lines.push(
      '',
      `${r.file}, ${r.statement ? `statement ${r.statement} (line ${r.line})` : `line ${r.line}`}: ${r.sql}`,
      `  ${r.problem}`,
      `  What to do: ${r.remedy}`,
    )
  lines.push('', `How: ${DOCS}.`)
  return lines.join('\n')
}

/**
 * The refusals for one migration's SQL (a drizzle migration: statements between `--> statement-breakpoint` lines).
 * A migration whose leading comment is `-- contract: <tag>` is the contract step of an expand/contract pair: it may
 * rename, drop, require or retype what the release of migration `<tag>` stopped reading (or started writing), and
 * `<tag>` must be an earlier migration (one of the previous release when `shippedTags` is known). An index is never
 * a contract step: it is built CONCURRENTLY in concurrent/.
 * @param {string} text
 * @param {CheckOptions} [options]
 */
export async function checkMigration(text, { file = 'migration.sql', earlierTags = [], shippedTags } = {}) {
  const { parse } = await import('libpg-query')
  /** @type {Refusal[]} */
  const refusals = []
  const marker = contractMarker(text)
  const markerProblem =
    marker === undefined ? undefined : contractMarkerProblem(marker, earlierTags, shippedTags)
  if (markerProblem)
    refusals.push({
      file,
      statement: 0,
      line: text.split('\n').findIndex((line) => CONTRACT_MARKER.test(line.trim())) + 1,
      sql: `-- contract: ${marker}`,
      rule: 'contract-marker',
      problem: markerProblem,
      remedy:
        'Name the migration of the earlier release that added the replacement or stopped using what this one ' +
        'removes (its tag, as in meta/_journal.json), or ship this migration one release later.',
    })
  const contract = marker !== undefined && !markerProblem
  /** Tables this migration creates: nobody reads or writes them yet, so nothing done to them can break anyone. */
  const created = new Set()
  let line = 1
  const parts = text.split(BREAKPOINT)
  for (const [i, part] of parts.entries()) {
    const partLine = line
    line += part.split('\n').length - 1
    if (!withoutComments(part).trim()) continue
    /** @type {Array<{ stmt: Record<string, any>, stmt_location?: number, stmt_len?: number }>} */
    let statements
    try {
      statements = /** @type {any} */ ((await parse(part)).stmts ?? [])
    } catch (error) {
      refusals.push({
        file,
        statement: i + 1,
        line: partLine,
        sql: oneLine(part),
        rule: 'unreadable',
        problem: `PostgreSQL's parser cannot read it: ${/** @type {Error} */ (error).message}`,
        remedy: 'Fix the SQL (it would fail at start-up as well).',
      })
      continue
    }
    const bytes = Buffer.from(part)
    for (const { stmt, stmt_location: at = 0, stmt_len: length } of statements) {
      const source = bytes.subarray(at, length ? at + length : undefined).toString()
      const statementLine = partLine + bytes.subarray(0, at).toString().split('\n').length - 1
      const leading = source.length - source.trimStart().length
      const where = {
        file,
        statement: i + 1,
        line: statementLine + source.slice(0, leading).split('\n').length - 1,
        sql: oneLine(source),
      }
      for (const found of problemsOf(stmt, created))
        if (!(contract && found.rule !== 'index')) refusals.push({ ...where, ...found })
      const table = createdTable(stmt)
      if (table) created.add(table)
    }
  }
  return refusals
}

/** The tag a migration's leading comments name as `-- contract: <tag>` ('' for the marker without one), else undefined. */
export function contractMarker(/** @type {string} */ text) {
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (!line) continue
    if (!line.startsWith('--') || line.startsWith(BREAKPOINT)) return undefined
    const found = CONTRACT_MARKER.exec(line)
    if (found) return found[1] ?? ''
  }
  return undefined
}

/**
 * @param {string} tag
 * @param {string[]} earlierTags
 * @param {Set<string> | undefined} shippedTags
 */
function contractMarkerProblem(tag, earlierTags, shippedTags) {
  if (!tag) return 'The contract marker names no migration.'
  if (!earlierTags.includes(tag))
    return `The contract marker names ${tag}, which is not an earlier migration in the journal.`
  if (shippedTags && !shippedTags.has(tag))
    return (
      `The contract marker names ${tag}, which is not in the previous release: the expand step and the ` +
      'contract step would reach the servers in one deploy.'
    )
  return undefined
}

/**
 * @param {Record<string, any>} stmt
 * @param {Set<string>} created
 * @returns {Array<{ rule: string, problem: string, remedy: string }>}
 */
function problemsOf(stmt, created) {
  if (stmt.RenameStmt) return renameProblems(stmt.RenameStmt, created)
  if (stmt.DropStmt) return dropProblems(stmt.DropStmt, created)
  if (stmt.AlterTableStmt) return alterTableProblems(stmt.AlterTableStmt, created)
  if (stmt.IndexStmt) return indexProblems(stmt.IndexStmt, created)
  return []
}

const TABLE_KINDS = new Set(['OBJECT_TABLE', 'OBJECT_VIEW', 'OBJECT_MATVIEW', 'OBJECT_FOREIGN_TABLE'])

/** @param {Record<string, any>} rename @param {Set<string>} created */
function renameProblems(rename, created) {
  const table = rename.relation?.relname
  if (table === undefined || created.has(table)) return []
  if (rename.renameType === 'OBJECT_COLUMN')
    return [
      {
        rule: 'rename-column',
        problem:
          `Renames column "${rename.subname}" of "${table}" to "${rename.newname}": the previous release names ` +
          `"${rename.subname}" in its queries of "${table}", which fail (a 500) from the moment this commits.`,
        remedy:
          `Rename in two releases. This one adds "${rename.newname}" (nullable), keeps the two columns equal with ` +
          `a trigger, copies the existing values (a backfill, for a large table), and its code uses "${rename.newname}" only; the next release ` +
          `drops the trigger and "${rename.subname}" in a migration that starts with ` +
          "`-- contract: <this release's migration>`.",
      },
    ]
  if (TABLE_KINDS.has(rename.renameType))
    return [
      {
        rule: 'rename-table',
        problem:
          `Renames "${table}" to "${rename.newname}": the previous release's queries of "${table}" fail (a 500) ` +
          'from the moment this commits.',
        remedy:
          `Rename in two releases. This one adds a view \`CREATE VIEW "${rename.newname}" AS SELECT * FROM ` +
          `"${table}"\` (it takes inserts and updates) and its code uses "${rename.newname}"; the next release ` +
          `drops the view and renames the table in a migration that starts with \`-- contract: <this release's ` +
          'migration>`.',
      },
    ]
  return []
}

/** @param {Record<string, any>} drop @param {Set<string>} created */
function dropProblems(drop, created) {
  if (!TABLE_KINDS.has(drop.removeType)) return []
  return (drop.objects ?? [])
    .map((/** @type {Record<string, any>} */ object) =>
      (object.List?.items ?? []).map((/** @type {any} */ item) => item.String?.sval).at(-1),
    )
    .filter((/** @type {string | undefined} */ name) => name !== undefined && !created.has(name))
    .map((/** @type {string} */ name) => ({
      rule: 'drop-table',
      problem: `Drops "${name}": the previous release's queries of it fail (a 500) from the moment this commits.`,
      remedy:
        `Drop it one release after the one that stopped using "${name}": that release ships without it, and the ` +
        "next one drops it in a migration that starts with `-- contract: <that release's migration>`.",
    }))
}

/** @param {Record<string, any>} alter @param {Set<string>} created */
function alterTableProblems(alter, created) {
  const table = alter.relation?.relname
  if (table === undefined || created.has(table) || !TABLE_KINDS.has(alter.objtype)) return []
  return (alter.cmds ?? []).flatMap((/** @type {Record<string, any>} */ { AlterTableCmd: cmd }) =>
    cmd ? commandProblems(table, cmd) : [],
  )
}

/** @param {string} table @param {Record<string, any>} cmd */
function commandProblems(table, cmd) {
  switch (cmd.subtype) {
    case 'AT_DropColumn':
      return [
        {
          rule: 'drop-column',
          problem:
            `Drops column "${cmd.name}" of "${table}": drizzle names every column it selects, so each of the ` +
            `previous release's queries of "${table}" fails (a 500) from the moment this commits.`,
          remedy:
            `Drop it one release after the one whose code (and db/schema.ts) no longer has "${cmd.name}", in a ` +
            "migration that starts with `-- contract: <that release's migration>`.",
        },
      ]
    case 'AT_SetNotNull':
      return [
        {
          rule: 'set-not-null',
          problem:
            `Makes "${table}"."${cmd.name}" NOT NULL: the previous release may insert rows without it, which then ` +
            `fail, and the check reads the whole of "${table}" under a lock that stops its reads and writes.`,
          remedy:
            'Require it once no release that leaves it empty runs and a backfill has filled it: in a migration ' +
            `that starts with \`-- contract: <the migration that added it>\`, \`ADD CONSTRAINT … CHECK ` +
            `("${cmd.name}" IS NOT NULL) NOT VALID\`, then \`VALIDATE CONSTRAINT\` (which lets writes go on).`,
        },
      ]
    case 'AT_AlterColumnType':
      return [
        {
          rule: 'alter-type',
          problem:
            `Changes the type of "${table}"."${cmd.name}": PostgreSQL rewrites the table under a lock that stops ` +
            'its reads and writes, and the previous release reads and writes the old type.',
          remedy:
            `Add a column of the new type (nullable), fill it with a backfill (db/migrations/backfills/) while the ` +
            `code writes both, switch the code to it, and drop "${cmd.name}" in a later release's migration that ` +
            'starts with `-- contract: <the migration that added the new column>`.',
        },
      ]
    case 'AT_AddColumn':
      return addColumnProblems(table, cmd.def?.ColumnDef ?? {})
    case 'AT_AddConstraint':
      return indexBuildingConstraint(cmd.def?.Constraint)
        ? [indexProblem(table, 'Adds a constraint that builds its index in the migration')]
        : []
    default:
      return []
  }
}

/** @param {string} table @param {Record<string, any>} column */
function addColumnProblems(table, column) {
  const kinds = (column.constraints ?? []).map((/** @type {any} */ c) => c.Constraint?.contype)
  const required = kinds.includes('CONSTR_NOTNULL') || kinds.includes('CONSTR_PRIMARY')
  const filled = ['CONSTR_DEFAULT', 'CONSTR_IDENTITY', 'CONSTR_GENERATED'].some((kind) =>
    kinds.includes(kind),
  )
  const problems = []
  if (required && !filled)
    problems.push({
      rule: 'add-column-not-null',
      problem:
        `Adds "${table}"."${column.colname}" NOT NULL without a default: the previous release inserts rows ` +
        'without it, which fail (and PostgreSQL refuses it outright on a table that has rows).',
      remedy:
        'Give it a constant DEFAULT (added without rewriting the table), or add it nullable and require it in a ' +
        "later release (a migration that starts with `-- contract: <this release's migration>`).",
    })
  if (kinds.includes('CONSTR_UNIQUE') || kinds.includes('CONSTR_PRIMARY'))
    problems.push(
      indexProblem(
        table,
        `Adds "${column.colname}" with a constraint that builds its index in the migration`,
      ),
    )
  return problems
}

/** A PRIMARY KEY, UNIQUE or EXCLUDE constraint builds an index, unless it takes one built before (USING INDEX). */
function indexBuildingConstraint(/** @type {Record<string, any> | undefined} */ constraint) {
  return (
    constraint !== undefined &&
    ['CONSTR_PRIMARY', 'CONSTR_UNIQUE', 'CONSTR_EXCLUSION'].includes(constraint.contype) &&
    !constraint.indexname
  )
}

/** @param {Record<string, any>} index @param {Set<string>} created */
function indexProblems(index, created) {
  const table = index.relation?.relname
  if (table === undefined || created.has(table)) return []
  if (index.concurrent)
    return [
      {
        rule: 'index',
        problem:
          `Builds index ${index.idxname ? `"${index.idxname}" ` : ''}CONCURRENTLY in the migration: drizzle ` +
          'applies migrations in one transaction, where PostgreSQL refuses it, so the start-up would fail.',
        remedy: concurrentRemedy(),
      },
    ]
  return [
    indexProblem(table, `Builds index ${index.idxname ? `"${index.idxname}" ` : ''}without CONCURRENTLY`),
  ]
}

/** @param {string} table @param {string} what */
function indexProblem(table, what) {
  return {
    rule: 'index',
    problem: `${what}: "${table}" is locked against the previous release's writes until it is built.`,
    remedy: concurrentRemedy(),
  }
}

const concurrentRemedy = () =>
  'Build it in db/migrations/concurrent/<number>_<name>.sql as `CREATE [UNIQUE] INDEX CONCURRENTLY IF NOT ' +
  'EXISTS …` (a constraint then takes it with `USING INDEX` in a later migration).'

/** @param {Record<string, any>} stmt */
function createdTable(stmt) {
  return stmt.CreateStmt?.relation?.relname ?? stmt.CreateTableAsStmt?.into?.rel?.relname
}

function withoutComments(/** @type {string} */ text) {
  return text
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n')
}

/** The statement on one line, without its comments, cut to a length a message can hold. */
function oneLine(/** @type {string} */ sql) {
  const flat = withoutComments(sql).replace(/\s+/g, ' ').trim().replace(/;$/, '')
  return flat.length > 160 ? `${flat.slice(0, 157)}…` : flat
}
