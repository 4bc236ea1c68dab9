/**
 * "Public pages changed": a change that alters what visitors see (an ad approved, rejected or refunded) makes every
 * cached listing and shared page stale. This process forgets its own at once; on PostgreSQL the change is also
 * announced with NOTIFY, and every server on the database (this one too) listens and forgets its caches when the
 * announcement arrives. With the embedded database there is one process, so the first part is all there is.
 */
import { sql } from 'drizzle-orm'
import { db, getDatabaseHandle, type Transaction } from '#db/client.server.ts'
import { invalidateLiveEvents, type FailureLog } from '#app/models/calendar/live-events-cache.server.ts'

export const PUBLIC_PAGES_CHANNEL = 'public_pages_changed'

/** Where a failed announcement is logged: what the server gave `followPublicPagesChanges`. */
let logFailure: FailureLog = () => {}

/**
 * Announces a change. Inside a transaction (`executor`), PostgreSQL delivers the announcement when it commits, so
 * no server refills its caches from the state before it. Outside one the change is already saved, so an
 * announcement that fails is logged, not thrown: the other servers' caches then expire on their own (15 s).
 */
export async function announcePublicPagesChanged(executor: Transaction | typeof db = db) {
  invalidateLiveEvents()
  if (getDatabaseHandle().kind !== 'postgres') return
  const notify = executor.execute(sql`select pg_notify(${PUBLIC_PAGES_CHANNEL}, '')`)
  if (executor !== db) return void (await notify)
  await notify.catch((error: unknown) => logFailure(error, 'Announcing a change of the public pages failed'))
}

/**
 * Forgets the caches whenever any server announces a change, and each time listening (re)starts, since an
 * announcement may have been missed while the connection was down. Stops when the database is closed. A failed
 * announcement of this process is logged with `logFailure` (the server's logger: a model cannot import it).
 */
export function followPublicPagesChanges({ logFailure: log }: { logFailure: FailureLog }) {
  logFailure = log
  getDatabaseHandle().follow?.(PUBLIC_PAGES_CHANNEL, {
    onNotify: invalidateLiveEvents,
    onListening: invalidateLiveEvents,
  })
}
