/** Fills an empty database with the demo data: `npm run seed`. */
import { getEnv } from '#app/services/platform/env.server.ts'
import { seedDemoDataIfEmpty } from '#app/services/operations/demo-seed.server.ts'
import { DatabaseLockedError, openConfiguredDatabase } from '#db/client.server.ts'

const env = getEnv()
let handle
try {
  handle = await openConfiguredDatabase(env)
} catch (error) {
  if (error instanceof DatabaseLockedError) {
    console.error(error.message)
    process.exit(1)
  }
  throw error
}
try {
  await seedDemoDataIfEmpty(handle.db, env.APP_TIME_ZONE)
} finally {
  await handle.close()
}
