import path from 'node:path'
import { Worker } from 'node:worker_threads'

/** The worker's code, from the working folder as the migrations are: the built server is bundled elsewhere. */
const WORKER_FILE = path.resolve('db/pglite-worker.js')

/** What drizzle's PGlite driver uses of a PGlite client and of its transactions. */
export interface QueryClient {
  query<T>(sql: string, params?: unknown[], options?: { rowMode?: 'array' | 'object' }): Promise<QueryResult<T>>
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

type Reply = { id: number; result?: unknown; error?: Record<string, unknown> & { message: string } }

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
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>()
  #nextId = 1
  #closed = false

  private constructor(worker: Worker) {
    this.#worker = worker
    worker.on('message', (reply: Reply) => {
      const pending = this.#pending.get(reply.id)
      if (!pending) return
      this.#pending.delete(reply.id)
      if (reply.error) pending.reject(asError(reply.error))
      else pending.resolve(reply.result)
    })
    const fail = () => {
      this.#closed = true
      for (const pending of this.#pending.values()) pending.reject(closedError())
      this.#pending.clear()
    }
    worker.on('exit', fail)
    worker.on('error', (error) => {
      console.error(`The embedded database stopped: ${error.message}`)
      fail()
    })
  }

  /**
   * Starts the thread, opens the database in `dataDir` and applies the migrations. With `loadDataDir` (a file
   * written by {@link dumpDataDir}), an empty `dataDir` starts as that copy.
   */
  static open(dataDir: string, migrationsFolder: string, loadDataDir?: string): Promise<PGliteThread> {
    const worker = new Worker(WORKER_FILE, { workerData: { dataDir, migrationsFolder, loadDataDir } })
    return new Promise((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`The embedded database exited (${code}) while opening`))
      worker.once('error', reject)
      worker.once('exit', onExit)
      worker.once('message', (message: { ready?: true; failed?: Reply['error'] }) => {
        worker.off('error', reject)
        worker.off('exit', onExit)
        if (message.ready) return resolve(new PGliteThread(worker))
        void worker.terminate()
        reject(message.failed ? asError(message.failed) : new Error('The embedded database did not open'))
      })
    })
  }

  #call<T>(op: string, args: Record<string, unknown>): Promise<T> {
    if (this.#closed) return Promise.reject(closedError())
    const id = this.#nextId++
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      this.#worker.postMessage({ id, op, ...args })
    })
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

  /**
   * Writes a copy of the data directory to `file` (a tar), consistent to one moment between transactions, and
   * answers `factsSql`'s row as of that moment. Queries wait on the database thread meanwhile; this thread goes on.
   */
  dumpDataDir(file: string, factsSql?: string) {
    return this.#call<{ bytes: number; facts?: Record<string, unknown> }>('dumpDataDir', { file, factsSql })
  }

  async close() {
    if (this.#closed) return
    await this.#call('close', {}).catch(() => {})
    this.#closed = true
    await this.#worker.terminate()
  }
}
