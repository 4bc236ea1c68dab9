/**
 * `npm run seed` killed part-way (kill -9 while it stores the demo photos and writes their rows) leaves no demo data,
 * so the next run seeds again and ends with all of it — on the embedded database and on a PostgreSQL server.
 */
import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { count } from 'drizzle-orm'
import postgres from 'postgres'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { openEmbeddedDatabase, openServerDatabase } from '#db/client.server.ts'
import { DEMO_BUSINESSES } from '#db/demo-data.ts'
import { business, events, payments } from '#db/schema.ts'
import { quoteIdent, TMP_DIR, withDatabase } from '#tests/support/test-database.ts'

const serverUrl = process.env.DATABASE_URL
const dataDir = path.join(TMP_DIR, `seed-all-or-nothing-${process.pid}`)
const databaseName = `es_seed_${crypto.randomBytes(5).toString('hex')}`
const databaseUrl = serverUrl ? withDatabase(serverUrl, databaseName) : ''
/** 36 paid ads (34 paid for) and the library's 3 free listings ($0 paid). */
const DEMO_EVENTS = 39

beforeAll(async () => {
  if (!serverUrl) return
  const admin = postgres(serverUrl, { onnotice: () => {}, max: 1 })
  await admin.unsafe(`CREATE DATABASE ${quoteIdent(databaseName)}`)
  await admin.end()
})

afterAll(async () => {
  fs.rmSync(dataDir, { recursive: true, force: true })
  if (!serverUrl) return
  const admin = postgres(serverUrl, { onnotice: () => {}, max: 1 })
  await admin.unsafe(`DROP DATABASE IF EXISTS ${quoteIdent(databaseName)} WITH (FORCE)`)
  await admin.end()
})

function runSeed() {
  return spawn(process.execPath, ['--import', 'tsx', 'scripts/seed.ts'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      NODE_ENV: 'development',
      APP_ENV: 'development',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

const mediaFiles = () => {
  const folder = path.join(dataDir, 'media')
  return fs.existsSync(folder)
    ? fs.readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.webp'))
    : []
}

async function demoCounts() {
  const handle = serverUrl ? await openServerDatabase(databaseUrl) : await openEmbeddedDatabase(dataDir)
  try {
    const [businesses] = await handle.db.select({ n: count() }).from(business)
    const [ads] = await handle.db.select({ n: count() }).from(events)
    const [paid] = await handle.db.select({ n: count() }).from(payments)
    return { businesses: businesses!.n, ads: ads!.n, payments: paid!.n }
  } finally {
    await handle.close()
  }
}

test('a seed killed part-way leaves nothing; the next one seeds everything', async () => {
  const seed = runSeed()
  const exited = new Promise((resolve) => seed.on('exit', resolve))
  // Killed once it is well into the demo ads: a dozen photos stored, their rows written in the open transaction.
  const deadline = Date.now() + 90_000
  while (mediaFiles().length < 12 && seed.exitCode === null && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50))
  expect(seed.exitCode).toBeNull()
  seed.kill('SIGKILL')
  await exited

  expect(await demoCounts()).toEqual({ businesses: 0, ads: 0, payments: 0 })

  const again = runSeed()
  let output = ''
  again.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const code = await new Promise((resolve) => again.on('exit', resolve))
  expect(code).toBe(0)
  expect(output).toMatch(`Seeded demo data: ${DEMO_EVENTS} events`)
  expect(await demoCounts()).toEqual({
    businesses: DEMO_BUSINESSES.length + 1,
    ads: DEMO_EVENTS,
    payments: 37,
  })
}, 180_000)
