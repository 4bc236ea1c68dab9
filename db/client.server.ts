import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator'
import postgres from 'postgres'
import { lockDataFolder, stillHeld } from './data-folder-lock.server.ts'
import { refuseUnsafeMigrations } from './migration-rules.js'
import { INDEX_STATE_SQL, listOnlineSteps, quoteIdentifier } from './online-steps.js'
import { PGliteThread } from './pglite-thread.server.ts'
import { timePostgresQueries } from './query-timing.server.ts'
import * as schema from './schema.ts'

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0]

export interface DatabaseHandle {
  db: Database
  kind: 'pglite' | 'postgres'
  /** How the opening went (milliseconds of its steps, whether the WAL was replayed), for the start-up line. */
  startup?: Record<string, number | boolean>
  close(): Promise<void>
  /**
   * PostgreSQL only: calls `onNotify` for every NOTIFY on `channel`, from any server on the database, and
   * `onListening` each time listening starts (again after a lost connection: notifications may have been missed
   * meanwhile). Returns a function that stops.
   */
  follow?(channel: string, handlers: { onNotify: () => void; onListening: () => void }): () => Promise<void>
  /**
   * PostgreSQL only: takes the advisory lock named `name` if no server on the database holds it. Returns its
   * release, or null when it is taken. (The embedded database has one process: a lock in memory does.)
   */
  tryLock?(name: string): Promise<(() => Promise<void>) | null>
  /**
   * Embedded only: a copy of the data directory into the empty folder `into`, taken while queries go on and
   * consistent to one moment (restored with `openEmbeddedDatabase(…, { restoreFrom })`), with `factsSql`'s row as
   * of that moment.
   */
  copyDataDir?(into: string, factsSql?: string): Promise<{ facts?: Record<string, unknown> }>
}

/** The advisory lock ids of the app: one number space, the name hashed by PostgreSQL. */
const ADVISORY_LOCK_SPACE = 0x45_56_53_48

export const MIGRATIONS_FOLDER = path.resolve(process.env.MIGRATIONS_DIR ?? 'db/migrations')

export { DatabaseLockedError } from './data-folder-lock.server.ts'

/** How often an idle process checks it still holds its data folder's lock (every statement checks it too). */
const LOCK_WATCH_MS = 500

/**
 * A process that has lost its data folder's lock (the lock file removed or replaced) may share the folder with
 * another writer: it stops at once, without closing the database (closing writes to the folder).
 */
function exitOnLostLock(folder: string) {
  console.error(
    `The lock on ${folder} was removed or taken by another process: stopping now, writing nothing more.`,
  )
  process.exit(1)
}

export const pgliteExtensions = { pg_trgm, btree_gin }

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
 * The embedded database for a server: PGlite on a worker thread (pglite-thread.server.ts), so a query never blocks
 * the thread that answers requests. The migrations are applied there before it answers.
 */
export async function openEmbeddedDatabase(
  dataDir: string,
  { restoreFrom }: { restoreFrom?: string } = {},
): Promise<DatabaseHandle> {
  // Before the folder is touched: a migration the previous release cannot live with is refused (migration-rules.js).
  await refuseUnsafeMigrations(MIGRATIONS_FOLDER)
  const folder = path.resolve(dataDir, 'pg')
  const lockStarted = performance.now()
  const lock = await lockDataFolder(folder)
  const lockMs = Math.round((performance.now() - lockStarted) * 10) / 10
  const onLockLost = () => exitOnLostLock(folder)
  const watch = setInterval(() => stillHeld(lock.identity) || onLockLost(), LOCK_WATCH_MS).unref()
  try {
    // A restore replaces the folder with the copy, under the lock so no server can be using it.
    if (restoreFrom) {
      fs.rmSync(folder, { recursive: true, force: true })
      fs.renameSync(restoreFrom, folder)
    }
    const client = await PGliteThread.open(folder, MIGRATIONS_FOLDER, { lock: lock.identity, onLockLost })
    return {
      db: drizzlePglite(client as unknown as PGlite, { schema }) as unknown as Database,
      kind: 'pglite',
      startup: { lockMs, ...client.startup },
      copyDataDir: (into, factsSql) => client.copyDataDir(folder, into, factsSql),
      async close() {
        await client.close()
        clearInterval(watch)
        lock.release()
      },
    }
  } catch (error) {
    clearInterval(watch)
    lock.release()
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

/**
 * Takes the advisory lock `migrations`, asking again every 100 ms rather than waiting in `pg_advisory_lock`: a
 * session blocked in a statement holds a snapshot, and `CREATE INDEX CONCURRENTLY` (the online steps, run under the
 * lock) waits for every such snapshot to end — the holder would wait for the waiter, a deadlock.
 */
async function waitForMigrationsLock(client: postgres.Sql) {
  for (;;) {
    const [row] = await client<{ locked: boolean }[]>`
      select pg_try_advisory_lock(${ADVISORY_LOCK_SPACE}, hashtext('migrations')) as locked`
    if (row?.locked) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * Applies the migrations not applied yet. Servers started together each call this: the advisory lock lets one
 * migrate while the others wait, and then find nothing left to do. A migration the previous release (still serving
 * during a rolling deploy) cannot live with is refused first, before connecting (migration-rules.js).
 */
export async function migrateServerDatabase(url: string, migrationsFolder = MIGRATIONS_FOLDER) {
  await refuseUnsafeMigrations(migrationsFolder)
  // Its own connection, without the statement timeout: a migration may rightly take longer than a request. One
  // connection, so the session lock and the migration share it.
  const client = postgres(url, {
    onnotice: () => {},
    max: 1,
    connect_timeout: SERVER_POOL_OPTIONS.connect_timeout,
  })
  try {
    await waitForMigrationsLock(client)
    await migratePostgres(drizzlePostgres(client) as never, { migrationsFolder })
    await applyOnlineSteps(client, migrationsFolder)
  } finally {
    // Ending the connection releases the lock.
    await client.end({ timeout: 2 })
  }
}

/**
 * The steps of `<migrations>/concurrent/` (db/online-steps.js), after the transactional migrations, each on its own
 * outside any transaction: an index built CONCURRENTLY lets the servers still running the previous release write to
 * its table meanwhile. An index left invalid by a build that was cut short (the server stopped mid-way) is dropped and
 * built again; a valid one is left alone.
 */
async function applyOnlineSteps(client: postgres.Sql, migrationsFolder: string) {
  for (const step of listOnlineSteps(migrationsFolder)) {
    if (step.index) {
      const [state] = await client.unsafe<{ valid: boolean }[]>(INDEX_STATE_SQL, [step.index])
      if (state?.valid) continue
      if (state) await client.unsafe(`drop index concurrently if exists ${quoteIdentifier(step.index)}`)
    }
    await client.unsafe(step.sql)
  }
}

export async function openServerDatabase(
  url: string,
  { runMigrations = true } = {},
): Promise<DatabaseHandle> {
  const started = performance.now()
  if (runMigrations) await migrateServerDatabase(url)
  const migrationsMs = Math.round((performance.now() - started) * 10) / 10
  const client = timePostgresQueries(postgres(url, { onnotice: () => {}, ...SERVER_POOL_OPTIONS }))
  const db = drizzlePostgres(client, { schema }) as unknown as Database
  const followers = new Set<() => Promise<void>>()
  return {
    db,
    kind: 'postgres',
    startup: { migrationsMs },
    follow(channel, handlers) {
      const stop = followChannel(url, channel, handlers)
      const stopAndForget = () => (followers.delete(stopAndForget), stop())
      followers.add(stopAndForget)
      return stopAndForget
    },
    tryLock: (name) => tryAdvisoryLock(url, name),
    async close() {
      await Promise.all([...followers].map((stop) => stop()))
      await client.end({ timeout: 2 })
    },
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * LISTEN on a connection of its own. The driver's own `listen` tries once to listen again after the connection is
 * lost and gives up silently if the database is still away (a restart), so this one keeps trying until it is back.
 */
function followChannel(
  url: string,
  channel: string,
  { onNotify, onListening }: { onNotify: () => void; onListening: () => void },
) {
  let stopped = false
  let needsListen = true
  let looping = false
  const options = {
    onnotice: () => {},
    max: 1,
    idle_timeout: 0,
    max_lifetime: null,
    connect_timeout: SERVER_POOL_OPTIONS.connect_timeout,
    backoff: SERVER_POOL_OPTIONS.backoff,
    // The option the driver's own `listen` gives its connection (not in its type declarations).
    onnotify: (name: string) => {
      if (name === channel) onNotify()
    },
    onclose: () => {
      needsListen = true
      void listenLoop()
    },
  }
  const client = postgres(url, options as postgres.Options<Record<string, never>>)
  async function listenLoop() {
    if (looping) return
    looping = true
    try {
      for (let delay = 50; needsListen && !stopped; delay = Math.min(delay * 2, 1000)) {
        needsListen = false
        try {
          await client`listen ${client(channel)}`
          onListening()
          delay = 25
        } catch {
          needsListen = true
          await sleep(delay)
        }
      }
    } finally {
      looping = false
    }
  }
  void listenLoop()
  return async () => {
    stopped = true
    await client.end({ timeout: 2 })
  }
}

/** A session advisory lock, on a connection of its own that lives as long as the lock (ending it releases it). */
async function tryAdvisoryLock(url: string, name: string) {
  const client = postgres(url, {
    onnotice: () => {},
    max: 1,
    idle_timeout: 0,
    max_lifetime: null,
    connect_timeout: SERVER_POOL_OPTIONS.connect_timeout,
  })
  try {
    const [row] = await client<[{ locked: boolean }]>`
      select pg_try_advisory_lock(${ADVISORY_LOCK_SPACE}, hashtext(${name})) as locked`
    if (row?.locked) return () => client.end({ timeout: 2 })
  } catch (error) {
    await client.end({ timeout: 2 })
    throw error
  }
  await client.end({ timeout: 2 })
  return null
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

/** The open database's handle, for what goes beyond queries (notifications, locks). */
export function getDatabaseHandle(): DatabaseHandle {
  if (!state.current) throw new Error('The database is not open yet')
  return state.current
}

export function getDatabase(): Database {
  if (!state.current) throw new Error('The database is not open yet')
  return state.current.db
}

/** postgres.js answers a raw query with the rows themselves, PGlite with an object holding them. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[]
  return ((result as { rows?: T[] } | null)?.rows ?? []) as T[]
}

/**
 * A query built once for each open database and run with `sql.placeholder` values. Building a query with many columns
 * costs the server more than the database takes to answer it by key, so the pages asked for most build theirs once.
 */
export function preparedQuery<Values extends Record<string, unknown>, Result>(
  build: (database: Database) => { execute(values: Values): Promise<Result> },
) {
  const byDatabase = new WeakMap<Database, { execute(values: Values): Promise<Result> }>()
  return (values: Values) => {
    const database = getDatabase()
    let prepared = byDatabase.get(database)
    if (!prepared) {
      prepared = build(database)
      byDatabase.set(database, prepared)
    }
    return prepared.execute(values)
  }
}

/** The app's database; resolves to whichever handle is open when a query is made. */
export const db: Database = new Proxy({} as Database, {
  get(_target, property) {
    const real = getDatabase()
    const value = Reflect.get(real, property, real)
    return typeof value === 'function' ? value.bind(real) : value
  },
})
