import { lt, sql } from 'drizzle-orm'
import { db, getDatabaseHandle, rowsOf } from '#db/client.server.ts'
import { liveEventTexts } from '#db/schema.ts'

/**
 * VACUUM (ANALYZE) of every table of ours, on the embedded database only: it has no autovacuum, so without this its
 * tables keep their dead rows, index-only scans keep visiting the heap and the planner keeps its first statistics.
 * A PostgreSQL server does this by itself. Returns the tables done (none on a server).
 */
export async function vacuumEmbeddedDatabase(): Promise<string[]> {
  if (getDatabaseHandle().kind !== 'pglite') return []
  const result = await db.execute(
    sql`SELECT quote_ident(relname) AS name FROM pg_stat_user_tables WHERE schemaname = 'public' ORDER BY relname`,
  )
  const tables = rowsOf<{ name: string }>(result).map((r) => r.name)
  // One table at a time, so requests waiting on the database get their turn between tables. The names come from the
  // catalog, quoted by the database itself.
  for (const table of tables) await db.execute(sql.raw(`VACUUM (ANALYZE) ${table}`))
  return tables
}

/**
 * Removes the keyword search's rows of ads that are over (`live_event_texts`): the trigger that keeps the table leaves
 * out an ad over for two days or more, and this takes out those that ended since. Returns how many went.
 */
export async function deleteEndedAdTexts(): Promise<number> {
  const removed = await db
    .delete(liveEventTexts)
    .where(lt(liveEventTexts.lastDate, sql`current_date - 2`))
    .returning({ eventID: liveEventTexts.eventID })
  return removed.length
}
