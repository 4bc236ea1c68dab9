import { afterAll, beforeAll, inject } from 'vitest'
import { closeDatabase, useDatabase } from '#db/client.server.ts'
import { createTestDatabase } from './test-database.ts'

beforeAll(async () => {
  useDatabase(await createTestDatabase(inject('databaseTemplate')))
})

afterAll(async () => {
  await closeDatabase()
})
