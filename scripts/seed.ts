/** Fills an empty database with the demo data: `npm run seed`. */
import { Readable } from 'node:stream'
import { getEnv } from '#app/services/platform/env.server.ts'
import { mediaStorage } from '#app/services/media/media.server.ts'
import { DatabaseLockedError, openConfiguredDatabase } from '#db/client.server.ts'
import { DEMO_BUSINESSES, DEMO_STAFF } from '#db/demo-data.ts'
import { seedDemoData } from '#db/seed.ts'

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
  const result = await seedDemoData(handle.db, {
    putMedia: (key, bytes, contentType) => mediaStorage().put(key, Readable.from([bytes]), contentType),
    timeZone: env.APP_TIME_ZONE,
  })
  if (result.seeded) {
    console.info(`Seeded demo data: ${result.events} events, ${result.clicks} clicks.`)
    for (const b of DEMO_BUSINESSES) console.info(`  advertiser login: ${b.businessEmail} / ${b.password}`)
    for (const s of DEMO_STAFF) console.info(`  ${s.roles.join(', ')}: ${s.email} (sign in at /api/login)`)
  } else {
    console.info('The database already has data; demo seed skipped.')
  }
} finally {
  await handle.close()
}
