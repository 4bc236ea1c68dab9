import { closeDatabase, initDatabase } from '#db/client.server.ts'
import { logRefreshFailuresWith } from '#app/models/calendar/live-events-cache.server.ts'
import { followPublicPagesChanges } from '#app/models/calendar/public-pages-changes.server.ts'
import { getEnv } from './env.server.ts'
import { logError } from './logger.server.ts'

/** What must stop before the database closes (the mail worker finishing its round, the view counts' last flush). */
const beforeClose = new Set<() => Promise<void>>()

/** Runs `stop` at shutdown, before the database is closed. */
export function stopBeforeDatabaseCloses(stop: () => Promise<void>) {
  beforeClose.add(stop)
}

/** Opens the database for the server process. */
export async function startDatabase() {
  const handle = await initDatabase(getEnv())
  const logFailure = (error: unknown, msg: string) => logError(error, { msg })
  logRefreshFailuresWith(logFailure)
  followPublicPagesChanges({ logFailure })
  return handle
}

/**
 * The end of the server's shutdown (server.js), once no request is in flight: the jobs and workers stop, then the
 * database closes (and its folder's lock is released).
 */
export async function stopJobsAndCloseDatabase() {
  const results = await Promise.allSettled([...beforeClose].map((stop) => stop()))
  beforeClose.clear()
  for (const result of results)
    if (result.status === 'rejected') logError(result.reason, { msg: 'Stopping a background job failed' })
  await closeDatabase()
}
