import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator'
import postgres from 'postgres'
import lockfile from 'proper-lockfile'
import * as schema from './schema.ts'

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0]

export interface DatabaseHandle {
  db: Database
  kind: 'pglite' | 'postgres'
  close(): Promise<void>
}

export const MIGRATIONS_FOLDER = path.resolve(process.env.MIGRATIONS_DIR ?? 'db/migrations')

export class DatabaseLockedError extends Error {}

export const pgliteExtensions = { pg_trgm }

/** A PGlite database wrapped for the app; `loadDataDir` starts from a dumped template. */
export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob } = {}) {
  const client = new PGlite({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: pgliteExtensions,
  })
  await client.waitReady
  return { client, db: drizzlePglite(client, { schema }) as unknown as Database }
}

/**
 * Two processes on one PGlite folder silently lose writes, so the folder is locked for the life of the
 * process and a second process is refused with a message that says what to do.
 */
async function lockDataFolder(folder: string) {
  fs.mkdirSync(folder, { recursive: true })
  try {
    return await lockfile.lock(folder, {
      stale: 15_000,
      update: 5_000,
      realpath: false,
      onCompromised: (error) => console.error(`Lost the lock on ${folder}: ${error.message}`),
    })
  } catch (error) {
    if ((error as { code?: string }).code === 'ELOCKED') {
      throw new DatabaseLockedError(
        `The embedded database in ${folder} is in use by another process (is the server running?). ` +
          'Stop that process first, or point DATABASE_URL at a PostgreSQL server.',
      )
    }
    throw error
  }
}

export async function openEmbeddedDatabase(dataDir: string): Promise<DatabaseHandle> {
  const folder = path.resolve(dataDir, 'pg')
  const release = await lockDataFolder(folder)
  try {
    const { client, db } = await openPglite({ dataDir: folder })
    await migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER })
    return {
      db,
      kind: 'pglite',
      async close() {
        await client.close()
        await release()
      },
    }
  } catch (error) {
    await release()
    throw error
  }
}

/**
 * Bounds for a database that is slow or away (a restart, a failover): a request fails within seconds instead of
 * waiting on a dead connection, and the error says so (database-errors.server.ts turns it into a 503).
 */
export const SERVER_POOL_OPTIONS = {
  max: 10,
  /** Seconds to open a connection (the driver's default is 30). */
  connect_timeout: 3,
  /** Seconds before an unused connection is closed, so a pool does not keep sockets a restart has killed. */
  idle_timeout: 30,
  /** Seconds a connection lives at most (spread by the driver), so it follows a failover in the end. */
  max_lifetime: 30 * 60,
  /**
   * Seconds before a connection that failed is opened again. The driver's default grows with failures shared by the
   * whole pool up to 20 s, so after a restart queued queries waited 10–20 s for a database that was back in one.
   */
  backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 0.5),
  connection: {
    statement_timeout: 15_000,
    idle_in_transaction_session_timeout: 30_000,
  },
} satisfies postgres.Options<Record<string, never>>

async function migrateServerDatabase(url: string) {
  // Its own connection, without the statement timeout: a migration may rightly take longer than a request.
  const client = postgres(url, {
    onnotice: () => {},
    max: 1,
    connect_timeout: SERVER_POOL_OPTIONS.connect_timeout,
  })
  try {
    await migratePostgres(drizzlePostgres(client) as never, { migrationsFolder: MIGRATIONS_FOLDER })
  } finally {
    await client.end({ timeout: 2 })
  }
}

export async function openServerDatabase(
  url: string,
  { runMigrations = true } = {},
): Promise<DatabaseHandle> {
  if (runMigrations) await migrateServerDatabase(url)
  const client = postgres(url, { onnotice: () => {}, ...SERVER_POOL_OPTIONS })
  const db = drizzlePostgres(client, { schema }) as unknown as Database
  return {
    db,
    kind: 'postgres',
    close: () => client.end({ timeout: 2 }),
  }
}

/** DATABASE_URL chooses a PostgreSQL server; otherwise the embedded database under DATA_DIR. */
export function openConfiguredDatabase(env: { DATABASE_URL?: string; DATA_DIR: string }) {
  return env.DATABASE_URL ? openServerDatabase(env.DATABASE_URL) : openEmbeddedDatabase(env.DATA_DIR)
}

// Kept on globalThis so a module reload in development does not open (and lock) the database twice.
const state: { current?: DatabaseHandle; opening?: Promise<DatabaseHandle> } = ((
  globalThis as { __eventshoutDatabase?: object }
).__eventshoutDatabase ??= {})

/** Opens the configured database once per process (migrations applied). */
export function initDatabase(env: { DATABASE_URL?: string; DATA_DIR: string }): Promise<DatabaseHandle> {
  state.opening ??= openConfiguredDatabase(env).then((handle) => {
    state.current = handle
    return handle
  })
  return state.opening
}

/** Tests give each file its own database. */
export function useDatabase(handle: DatabaseHandle | undefined) {
  state.current = handle
  state.opening = handle ? Promise.resolve(handle) : undefined
}

export async function closeDatabase() {
  const handle = state.current ?? (await state.opening?.catch(() => undefined))
  state.current = undefined
  state.opening = undefined
  await handle?.close()
}

export function getDatabase(): Database {
  if (!state.current) throw new Error('The database is not open yet')
  return state.current.db
}

/** The app's database; resolves to whichever handle is open when a query is made. */
export const db: Database = new Proxy({} as Database, {
  get(_target, property) {
    const real = getDatabase()
    const value = Reflect.get(real, property, real)
    return typeof value === 'function' ? value.bind(real) : value
  },
})
