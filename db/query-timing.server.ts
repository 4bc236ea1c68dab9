import type postgres from 'postgres'

/** Told how long a query took, from the call to the answer (waiting for a connection or the session included). */
export type QueryTimer = (seconds: number) => void

let timer: QueryTimer | undefined

/** Calls `queryTimer` with the time of every query on the database, embedded or PostgreSQL (for the metrics). */
export function timeQueries(queryTimer: QueryTimer) {
  timer = queryTimer
}

/** For the drivers: a query answered (or failed) `seconds` after it was made. */
export function queryTook(seconds: number) {
  timer?.(seconds)
}

interface PendingQuery {
  resolve(value: unknown): void
  reject(error: unknown): void
}
type Unsafe = (...args: unknown[]) => PendingQuery
type Scope = (sql: postgres.Sql) => unknown

/**
 * `sql` (a postgres.js client, or a transaction's) with every query timed, in its transactions and savepoints too.
 * postgres.js has no hook at the end of a query: the query settles through its own `resolve`/`reject`, which are
 * wrapped here once per query.
 */
export function timePostgresQueries<T extends postgres.Sql>(sql: T): T {
  const scoped = sql as unknown as Record<string, unknown>
  const unsafe = scoped.unsafe as Unsafe
  scoped.unsafe = (...args: unknown[]) => {
    const query = unsafe(...args)
    const started = performance.now()
    const { resolve, reject } = query
    const took = () => queryTook((performance.now() - started) / 1000)
    query.resolve = (value) => (took(), resolve(value))
    query.reject = (error) => (took(), reject(error))
    return query
  }
  const timedScope = (fn: Scope) => (tx: postgres.Sql) => fn(timePostgresQueries(tx))
  for (const name of ['begin', 'savepoint'] as const) {
    const open = scoped[name] as ((...args: unknown[]) => unknown) | undefined
    if (!open) continue
    // begin(fn), begin(options, fn); savepoint(fn), savepoint(name, fn): the scope is the last argument.
    scoped[name] = (...args: unknown[]) => {
      const last = args.length - 1
      if (typeof args[last] === 'function') args[last] = timedScope(args[last] as Scope)
      return open(...args)
    }
  }
  return sql
}
