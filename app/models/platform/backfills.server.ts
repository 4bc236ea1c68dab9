/**
 * Background backfills (docs/decisions/041): filling a column a migration added, in batches, after the servers
 * answer, instead of one statement that rewrites every row at start-up. A backfill ships with its migration, as
 * `<migrations>/backfills/<name>.sql`: two statements separated by `--> statement-breakpoint`,
 *
 * 1. one batch: given `$1`, the last key done (0 at first), and `$2`, the batch's size, it fills the next rows in key
 *    order and answers one row `(last_key, rows)`: the greatest key it went through and how many rows (0: finished);
 * 2. what is left: given `$1`, the last key done, one row `(remaining)`.
 *
 * Keys are positive integers (the tables' serial keys). Each batch and its progress in `backfill_runs` are one
 * transaction, so a backfill cut short (a deploy, a crash) continues after its last committed batch.
 */
import fs from 'node:fs'
import path from 'node:path'
import { eq, sql, type SQL } from 'drizzle-orm'
import { db, MIGRATIONS_FOLDER, rowsOf } from '#db/client.server.ts'
import { backfillRuns } from '#db/schema.ts'

export interface Backfill {
  name: string
  batchSql: string
  remainingSql: string
}

const BREAKPOINT = '--> statement-breakpoint'

/** The backfills of the migrations folder, by file name. */
export function listBackfills(migrationsFolder = MIGRATIONS_FOLDER): Backfill[] {
  const folder = path.join(migrationsFolder, 'backfills')
  if (!fs.existsSync(folder)) return []
  return fs
    .readdirSync(folder)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => {
      const parts = fs
        .readFileSync(path.join(folder, file), 'utf8')
        .split(BREAKPOINT)
        .map((part) => withoutCommentLines(part).trim())
        .filter(Boolean)
      if (parts.length !== 2)
        throw new Error(`${file}: a backfill is two statements (one batch, what is left)`)
      return { name: file.replace(/\.sql$/, ''), batchSql: parts[0]!, remainingSql: parts[1]! }
    })
}

/** Comments say what `$1` is: only the statement's own `$n` are bound. */
const withoutCommentLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n')

/** `text` with `$1`, `$2`… bound to `values`, for either database driver. */
function bind(text: string, values: unknown[]): SQL {
  const pieces = text.split(/\$(\d+)/)
  const chunks: SQL[] = pieces.map((piece, i) =>
    i % 2 === 0 ? sql.raw(piece) : sql`${values[Number(piece) - 1]}`,
  )
  return sql.join(chunks, sql.raw(''))
}

export type BackfillState = typeof backfillRuns.$inferSelect

/** Where `name` stands, or null before its first batch. */
export async function getBackfillState(name: string): Promise<BackfillState | null> {
  const [row] = await db.select().from(backfillRuns).where(eq(backfillRuns.name, name)).limit(1)
  return row ?? null
}

/** The rows the backfill has still to go through after `lastKey`. */
export async function remainingRows(backfill: Backfill, lastKey: number) {
  const [row] = rowsOf<{ remaining: number | string }>(
    await db.execute(bind(backfill.remainingSql, [lastKey])),
  )
  return Number(row?.remaining ?? 0)
}

/**
 * One batch of at most `batchRows` rows after the last one committed, with its progress, in one transaction. The
 * caller holds the backfill's lock; the row is read FOR UPDATE all the same, so two runners could never both
 * count a batch.
 */
export async function runBackfillBatch(backfill: Backfill, batchRows: number) {
  return db.transaction(async (tx) => {
    await tx.insert(backfillRuns).values({ name: backfill.name }).onConflictDoNothing()
    const [state] = await tx
      .select()
      .from(backfillRuns)
      .where(eq(backfillRuns.name, backfill.name))
      .for('update')
    if (state!.finishedAt) return { rows: 0, state: state! }
    const [batch] = rowsOf<{ last_key: number | string | null; rows: number | string }>(
      await tx.execute(bind(backfill.batchSql, [state!.lastKey, batchRows])),
    )
    const rows = Number(batch?.rows ?? 0)
    const [next] = await tx
      .update(backfillRuns)
      .set(
        rows > 0
          ? {
              lastKey: Number(batch!.last_key),
              rowsDone: sql`${backfillRuns.rowsDone} + ${rows}`,
              updatedAt: new Date(),
            }
          : { finishedAt: new Date(), updatedAt: new Date() },
      )
      .where(eq(backfillRuns.name, backfill.name))
      .returning()
    return { rows, state: next! }
  })
}

/** The backfills of the list that have not finished (none started counts as not finished). */
export async function unfinishedBackfills(backfills: Backfill[]) {
  if (backfills.length === 0) return []
  const finished = new Set(
    (
      await db
        .select({ name: backfillRuns.name })
        .from(backfillRuns)
        .where(sql`${backfillRuns.finishedAt} is not null`)
    ).map((row) => row.name),
  )
  return backfills.filter((backfill) => !finished.has(backfill.name))
}
