import { afterAll, beforeAll, inject } from 'vitest'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import { closeDatabase, getDatabaseHandle, useDatabase } from '#db/client.server.ts'
import { handBack } from './embedded-test-database.ts'
import { startAsNewProcess } from './test-file-start.ts'

const startingEnvironment = { ...process.env }

beforeAll(() => startAsNewProcess(inject('databaseTemplate')))

/** The database the file ends on, if one is open. */
function currentDatabase() {
  try {
    return getDatabaseHandle()
  } catch {
    return undefined
  }
}

afterAll(async () => {
  // The worker's embedded database stays open for its next file, which starts on it once it is reset.
  if (handBack(currentDatabase())) useDatabase(undefined)
  else await closeDatabase()
  for (const name of Object.keys(process.env)) if (!(name in startingEnvironment)) delete process.env[name]
  Object.assign(process.env, startingEnvironment)
  resetEnvCache()
})
