import { afterAll, beforeAll, inject } from 'vitest'
import { invalidateLiveEvents } from '#app/models/live-events-cache.server.ts'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import { closeDatabase, useDatabase } from '#db/client.server.ts'
import { createTestDatabase } from './test-database.ts'

/**
 * Every test file starts as a new process would, even in a worker that ran other files before it: its own copy of
 * the migrated database, no listings cached from another file's data, and the environment the run started with.
 */
const startingEnvironment = { ...process.env }

beforeAll(async () => {
  resetEnvCache()
  invalidateLiveEvents()
  useDatabase(await createTestDatabase(inject('databaseTemplate')))
})

afterAll(async () => {
  await closeDatabase()
  for (const name of Object.keys(process.env)) if (!(name in startingEnvironment)) delete process.env[name]
  Object.assign(process.env, startingEnvironment)
  resetEnvCache()
})
