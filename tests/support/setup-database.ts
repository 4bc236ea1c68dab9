import { afterAll, beforeAll, inject } from 'vitest'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import { closeDatabase } from '#db/client.server.ts'
import { startAsNewProcess } from './test-file-start.ts'

const startingEnvironment = { ...process.env }

beforeAll(() => startAsNewProcess(inject('databaseTemplate')))

afterAll(async () => {
  await closeDatabase()
  for (const name of Object.keys(process.env)) if (!(name in startingEnvironment)) delete process.env[name]
  Object.assign(process.env, startingEnvironment)
  resetEnvCache()
})
