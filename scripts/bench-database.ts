/**
 * A benchmark's own database to seed: a new embedded data folder, or a new database on the PostgreSQL server at
 * `postgresUrl`, migrated by the app's own code. On PostgreSQL the handle is a connection without the app's statement
 * timeout, so long seeds run. `drop` removes the server database (the caller removes the folder).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import type { Database, DatabaseHandle } from '#db/client.server.ts'
import * as schema from '#db/schema.ts'

export async function openBenchDatabase(
  kind: 'pglite' | 'postgres',
  { name, postgresUrl }: { name: string; postgresUrl: string },
) {
  // Imported here: the app's modules read the environment the benchmark sets up first.
  const { openEmbeddedDatabase, openServerDatabase } = await import('#db/client.server.ts')
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `eventshout-bench-${name}-`))
  if (kind === 'pglite') {
    const handle: DatabaseHandle = await openEmbeddedDatabase(dataDir)
    return { handle, dataDir, url: '', drop: async () => {} }
  }
  const database = `bench_${name.replace(/-/g, '_')}_${process.pid}`
  const admin = postgres(postgresUrl, { max: 1, onnotice: () => {} })
  await admin.unsafe(`DROP DATABASE IF EXISTS ${database}`)
  await admin.unsafe(`CREATE DATABASE ${database}`)
  await admin.end()
  const u = new URL(postgresUrl)
  u.pathname = `/${database}`
  const url = u.toString()
  await (await openServerDatabase(url)).close()
  const client = postgres(url, { max: 1, onnotice: () => {} })
  const handle: DatabaseHandle = {
    db: drizzlePostgres(client, { schema }) as unknown as Database,
    kind,
    close: () => client.end(),
  }
  async function drop() {
    const again = postgres(postgresUrl, { max: 1, onnotice: () => {} })
    await again.unsafe(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
    await again.end()
  }
  return { handle, dataDir, url, drop }
}
