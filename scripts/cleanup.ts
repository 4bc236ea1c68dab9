/** Removes ads still unpaid a day after they were saved, with their media: `npm run cleanup`. */
import { cleanupUnpaidEvents } from '#app/services/cleanup.server.ts'
import { EnvError, getEnv } from '#app/services/env.server.ts'
import { DatabaseLockedError, openConfiguredDatabase, useDatabase } from '#db/client.server.ts'

async function main() {
  const handle = await openConfiguredDatabase(getEnv())
  useDatabase(handle)
  try {
    const { removed, kept } = await cleanupUnpaidEvents()
    console.info(
      `Removed ${removed.length} unpaid event(s)${removed.length ? `: ${removed.join(', ')}` : ''}.`,
    )
    if (kept.length)
      console.info(`Kept ${kept.length} old event(s) whose payment went through or could not be checked.`)
    return 0
  } finally {
    useDatabase(undefined)
    await handle.close()
  }
}

try {
  process.exitCode = await main()
} catch (error) {
  if (error instanceof DatabaseLockedError || error instanceof EnvError) {
    console.error(error.message)
    process.exitCode = 1
  } else {
    throw error
  }
}
