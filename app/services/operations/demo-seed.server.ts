import { Readable } from 'node:stream'
import { mediaStorage } from '#app/services/media/media.server.ts'
import type { Database } from '#db/client.server.ts'
import { business } from '#db/schema.ts'

/**
 * The demo data on an empty database, its photos in the app's media storage: `npm run seed`, and the server itself
 * when `npm start` asks (SEED_DEMO_DATA). What it says is for the person at the terminal: the demo sign-ins.
 */
export async function seedDemoDataIfEmpty(database: Database, timeZone: string) {
  // A database with data (every start but the first) costs one query: the seed and its image library load only for
  // an empty one.
  if ((await database.select({ id: business.businessID }).from(business).limit(1)).length) {
    console.info('The database already has data; demo seed skipped.')
    return { seeded: false as const }
  }
  const [{ seedDemoData }, { DEMO_BUSINESSES, DEMO_FREE_ORGANISATION, DEMO_STAFF }] = await Promise.all([
    import('#db/seed.ts'),
    import('#db/demo-data.ts'),
  ])
  const result = await seedDemoData(database, {
    putMedia: (key, bytes, contentType) => mediaStorage().put(key, Readable.from([bytes]), contentType),
    timeZone,
  })
  if (result.seeded) {
    console.info(`Seeded demo data: ${result.events} events, ${result.clicks} clicks.`)
    for (const b of DEMO_BUSINESSES) console.info(`  advertiser login: ${b.businessEmail} / ${b.password}`)
    const library = DEMO_FREE_ORGANISATION
    console.info(`  free community listings: ${library.businessEmail} / ${library.password}`)
    for (const s of DEMO_STAFF) console.info(`  ${s.roles.join(', ')}: ${s.email} (sign in at /api/login)`)
  } else {
    console.info('The database already has data; demo seed skipped.')
  }
  return result
}
