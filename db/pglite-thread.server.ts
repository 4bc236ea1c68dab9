import { execFile } from 'node:child_process'
import fsp from 'node:fs/promises'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import { isBackgroundWork } from './background-work.server.ts'
import { queryTook } from './query-timing.server.ts'

/** The worker's code, from the working folder as the migrations are: the built server is bundled elsewhere. */
const WORKER_FILE = path.resolve('db/pglite-worker.js')

/** What drizzle's PGlite driver uses of a PGlite client and of its transactions. */
export interface QueryClient {
  query<T>(
    sql: string,
    params?: unknown[],
    options?: { rowMode?: 'array' | 'object' },
  ): Promise<QueryResult<T>>
  exec(sql: string): Promise<Array<QueryResult<unknown>>>
}
export interface QueryResult<T> {
  rows: T[]
  affectedRows?: number
  fields: Array<{ name: string; dataTypeID: number }>
}
export interface ThreadTransaction extends QueryClient {
  readonly closed: boolean
  rollback(): Promise<void>
}

const openThreads = new Set<PGliteThread>()

/** Calls made to the embedded database and not answered yet: the one running and those waiting behind it. */
export function embeddedDatabaseQueueDepth() {
  let depth = 0
  for (const thread of openThreads) depth += thread.pendingCalls
  return depth
}

/** The copies of a hot backup, made at a low priority in a process of their own (see that file). */
const COPY_FILE = path.resolve('db/copy-data-folder.js')

/** Runs db/copy-data-folder.js with `args`; rejects with what it said when it fails. */
function copyAtLowPriority(args: string[]) {
  return new Promise<void>((resolve, reject) => {
    execFile(process.execPath, [COPY_FILE, ...args], { maxBuffer: 1024 * 1024 }, (error, _stdout, stderr) =>
      error ? reject(new Error(stderr.trim() || error.message)) : resolve(),
    )
  })
}

/**
 * How long a statement of background work (see background-work.server.ts) waits at most for a moment without the
 * site's statements: on a site that is never idle, a job still goes on, one statement at a time.
 */
const BACKGROUND_WAIT_MAX_MS = 500

type Reply = { id: number; result?: unknown; error?: Record<string, unknown> & { message: string } }

/** The data folder's lock as the process created it (see data-folder-lock.server.ts). */
export interface ThreadLock {
  path: string
  ino: number
  ctimeMs: number
}

/** Matches classifyDatabaseError's "unavailable": a request during a shutdown or after a crash answers 503. */
const closedError = () => new Error('PGlite is closed')

/** PostgreSQL's error fields (code, detail, constraint…) on an Error, as the in-process driver throws them. */
function asError({ message, name, ...fields }: Record<string, unknown> & { message: string }) {
  const error = Object.assign(new Error(message), fields)
  if (typeof name === 'string') error.name = name
  return error
}

/**
 * PGlite on a worker thread. The embedded database runs every query on the thread that calls it, so one slow
 * query used to stall every request; on its own thread it stalls none, and uses the machine's second core. The
 * worker keeps PGlite's semantics: one session, a transaction holds it until it ends, anything else waits.
 */
export class PGliteThread implements QueryClient {
  readonly #worker: Worker
  readonly #pending = new Map<
    number,
    {
      resolve(value: unknown): void
      reject(error: Error): void
      timed: boolean
      started: number
      background: boolean
    }
  >()
  /** Statements of background work not sent yet, oldest first. */
  readonly #held: Array<{ send(): void; since: number }> = []
  #nextId = 1
  #closed = false
  /** How the opening went, in milliseconds (see the worker's `timings`), for the server's start-up line. */
  readonly startup: Record<string, number | boolean>

  private constructor(worker: Worker, onLockLost: () => void, startup: Record<string, number | boolean>) {
    this.#worker = worker
    this.startup = startup
    worker.on('message', (reply: Reply | { lockLost: true }) => {
      if ('lockLost' in reply) return onLockLost()
      const pending = this.#pending.get(reply.id)
      if (!pending) return
      this.#pending.delete(reply.id)
      if (pending.timed) queryTook((performance.now() - pending.started) / 1000)
      if (reply.error) pending.reject(asError(reply.error))
      else pending.resolve(reply.result)
      this.#sendHeld()
    })
    openThreads.add(this)
    const fail = () => {
      this.#closed = true
      openThreads.delete(this)
      for (const pending of this.#pending.values()) pending.reject(closedError())
      this.#pending.clear()
      for (const held of this.#held.splice(0)) held.send()
    }
    worker.on('exit', fail)
    worker.on('error', (error) => {
      console.error(`The embedded database stopped: ${error.message}`)
      fail()
    })
  }

  /**
   * Starts the thread, opens the database in `dataDir` and applies the migrations. A `dataDir` made by
   * {@link copyDataDir} is brought to its moment first (PostgreSQL replays the WAL the copy holds). With `lock`, every
   * statement first checks the folder is still locked by this process, and `onLockLost` is called when it is not.
   */
  static open(
    dataDir: string,
    migrationsFolder: string,
    { lock, onLockLost = () => {} }: { lock?: ThreadLock; onLockLost?: () => void } = {},
  ): Promise<PGliteThread> {
    const started = performance.now()
    const worker = new Worker(WORKER_FILE, { workerData: { dataDir, migrationsFolder, lock } })
    return new Promise((resolve, reject) => {
      const onExit = (code: number) =>
        reject(new Error(`The embedded database exited (${code}) while opening`))
      worker.once('error', reject)
      worker.once('exit', onExit)
      worker.once(
        'message',
        (message: { ready?: true; timings?: Record<string, number | boolean>; failed?: Reply['error'] }) => {
          worker.off('error', reject)
          worker.off('exit', onExit)
          if (message.ready) {
            const threadMs = Math.round((performance.now() - started) * 10) / 10
            return resolve(new PGliteThread(worker, onLockLost, { threadMs, ...message.timings }))
          }
          void worker.terminate()
          reject(message.failed ? asError(message.failed) : new Error('The embedded database did not open'))
        },
      )
    })
  }

  #call<T>(op: string, args: Record<string, unknown>): Promise<T> {
    if (this.#closed) return Promise.reject(closedError())
    // A statement of an open transaction is never held: the site's statements wait in the worker for its end.
    const background = isBackgroundWork()
    const held = background && args.tx === undefined && ['query', 'exec', 'begin'].includes(op)
    return new Promise<T>((resolve, reject) => {
      const send = () => {
        if (this.#closed) return reject(closedError())
        const id = this.#nextId++
        this.#pending.set(id, {
          resolve: resolve as (value: unknown) => void,
          reject,
          timed: op === 'query' || op === 'exec',
          started: performance.now(),
          background,
        })
        this.#worker.postMessage({ id, op, ...args })
      }
      if (!held) return send()
      this.#held.push({ send, since: performance.now() })
      this.#sendHeld()
    })
  }

  /**
   * Sends the oldest held statement of background work when no other call is pending (or it has waited too long):
   * one at a time, so a request's statement waits for one of them at most.
   */
  #sendHeld() {
    const next = this.#held[0]
    if (!next) return
    const pending = [...this.#pending.values()]
    if (pending.some((call) => call.background)) return
    if (pending.length > 0 && performance.now() - next.since < BACKGROUND_WAIT_MAX_MS) return
    this.#held.shift()
    next.send()
  }

  query<T>(sql: string, params: unknown[] = [], options?: { rowMode?: 'array' | 'object' }) {
    return this.#call<QueryResult<T>>('query', { sql, params, rowMode: options?.rowMode })
  }

  exec(sql: string) {
    return this.#call<Array<QueryResult<unknown>>>('exec', { sql })
  }

  /** Commits when `run` resolves, rolls back when it throws; a failed COMMIT rejects. */
  async transaction<T>(run: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const id = await this.#call<number>('begin', {})
    let ended = false
    const end = (commit: boolean) => {
      ended = true
      return this.#call<void>('end', { tx: id, commit })
    }
    const ensureOpen = () => {
      if (ended) throw new Error('Transaction is closed')
    }
    const tx: ThreadTransaction = {
      query: async <R>(sql: string, params: unknown[] = [], options?: { rowMode?: 'array' | 'object' }) => {
        ensureOpen()
        return this.#call<QueryResult<R>>('query', { sql, params, rowMode: options?.rowMode, tx: id })
      },
      exec: async (sql: string) => {
        ensureOpen()
        return this.#call<Array<QueryResult<unknown>>>('exec', { sql, tx: id })
      },
      rollback: async () => {
        ensureOpen()
        await end(false)
      },
      get closed() {
        return ended
      },
    }
    let result: T
    try {
      result = await run(tx)
    } catch (error) {
      if (!ended) await end(false).catch(() => {})
      throw error
    }
    if (!ended) await end(true)
    return result
  }

  get pendingCalls() {
    return this.#pending.size + this.#held.length
  }

  /**
   * Copies the data directory `from` (the one this thread has open) into the empty folder `into` while queries go
   * on: PostgreSQL's online backup, the files copied by a process of their own at a low priority, then the WAL that makes
   * them whole. Answers `factsSql`'s row as of the copy's moment, when the WAL copied ends. Queries wait only for
   * the checkpoint at the start and the few statements that end the backup (the WAL is copied after them).
   */
  async copyDataDir(from: string, into: string, factsSql?: string) {
    await this.#call('backupStart', {})
    try {
      await copyAtLowPriority(['folder', from, into])
      const walInto = path.join(into, 'pg_wal')
      for (const folder of ['archive_status', 'summaries'])
        await fsp.mkdir(path.join(walInto, folder), { recursive: true })
      const { facts, label, linked } = await this.#call<{
        facts?: Record<string, unknown>
        label: string
        linked: string[]
      }>('backupStop', { factsSql, walInto })
      if (linked.length) await copyAtLowPriority(['segments', path.join(from, 'pg_wal'), walInto, ...linked])
      await this.#call('backupDone', {})
      await fsp.writeFile(path.join(into, 'backup_label'), label, { mode: 0o600 })
      return { facts }
    } catch (error) {
      await this.#call('backupAbort', {}).catch(() => {})
      throw error
    }
  }

  async close() {
    if (this.#closed) return
    await this.#call('close', {}).catch(() => {})
    this.#closed = true
    for (const held of this.#held.splice(0)) held.send()
    openThreads.delete(this)
    await this.#worker.terminate()
  }
}
