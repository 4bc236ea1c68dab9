import { closeDatabase, initDatabase } from '#db/client.server.ts'
import { followPublicPagesChanges } from '#app/models/public-pages-changes.server.ts'
import { getEnv } from './env.server.ts'

const SHUTDOWN_GRACE_MS = 4000

let shutdownHooked = false
/** What must stop before the database closes (the mail worker finishing its round). */
const beforeClose = new Set<() => Promise<void>>()

/** Runs `stop` on SIGTERM/SIGINT before the database is closed. */
export function stopBeforeDatabaseCloses(stop: () => Promise<void>) {
  beforeClose.add(stop)
}

/** Opens the database for the server process and closes it on SIGTERM/SIGINT. */
export async function startDatabase() {
  const handle = await initDatabase(getEnv())
  followPublicPagesChanges()
  if (!shutdownHooked) {
    shutdownHooked = true
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        // A lingering keep-alive socket must not keep the server up past the grace period.
        setTimeout(() => process.exit(0), SHUTDOWN_GRACE_MS).unref()
        Promise.allSettled([...beforeClose].map((stop) => stop()))
          .then(() => closeDatabase())
          .catch((error) => console.error('Closing the database failed', error))
      })
    }
  }
  return handle
}
