import { closeDatabase, initDatabase } from '#db/client.server.ts'
import { followPublicPagesChanges } from '#app/models/calendar/public-pages-changes.server.ts'
import { getEnv } from './env.server.ts'

/** What must stop before the database closes (the mail worker finishing its round, the view counts' last flush). */
const beforeClose = new Set<() => Promise<void>>()

/** Runs `stop` at shutdown, before the database is closed. */
export function stopBeforeDatabaseCloses(stop: () => Promise<void>) {
  beforeClose.add(stop)
}

/** Opens the database for the server process. */
export async function startDatabase() {
  const handle = await initDatabase(getEnv())
  followPublicPagesChanges()
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
    if (result.status === 'rejected') console.error('Stopping a background job failed', result.reason)
  await closeDatabase()
}
