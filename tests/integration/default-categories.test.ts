import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DEFAULT_CATEGORIES } from '#app/constants.ts'
import { loader as categoriesLoader } from '#app/routes/api.categories.ts'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import { db } from '#db/client.server.ts'
import { seedDemoData } from '#db/seed.ts'
import { putStored } from '#tests/support/media-storage.ts'
import { callRoute } from '#tests/support/routes.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const dataDir = path.join(TMP_DIR, `categories-it-${process.pid}-${Date.now().toString(36)}`)

beforeAll(() => {
  process.env.DATA_DIR = dataDir
  resetEnvCache()
})
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

async function categoryNames() {
  const response = await callRoute(categoriesLoader, '/api/categories')
  expect(response.status).toBe(200)
  const body = (await response.json()) as Array<{ categoryID: number; categoryName: string }>
  expect(body.every((c) => Number.isInteger(c.categoryID))).toBe(true)
  return body.map((c) => c.categoryName)
}

// This file's database is a freshly migrated one: nothing seeded, nothing inserted by the test.
describe('the default categories on an install without the demo seed', () => {
  test('a migrated database lists exactly the default categories', async () => {
    const names = await categoryNames()
    expect([...names].sort()).toEqual([...DEFAULT_CATEGORIES].sort())
    expect(new Set(names).size).toBe(names.length)
  })

  // The whole demo seed (36 posters drawn with sharp) can take longer than the default timeout on a busy machine.
  test('seeding the demo data afterwards adds no duplicates', async () => {
    const result = await seedDemoData(db, { putMedia: putStored, timeZone: 'America/New_York' })
    expect(result.seeded).toBe(true)
    const names = await categoryNames()
    expect([...names].sort()).toEqual([...DEFAULT_CATEGORIES].sort())
  }, 120_000)
})
