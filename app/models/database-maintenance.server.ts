import { sql } from 'drizzle-orm'
import { db, getDatabaseHandle, rowsOf } from '#db/client.server.ts'

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
