import crypto from 'node:crypto'
import path from 'node:path'
import postgres from 'postgres'
import { openServerDatabase, type DatabaseHandle } from '#db/client.server.ts'
import { embeddedTestDatabase } from './embedded-test-database.ts'

export const TMP_DIR = path.resolve('tests/.tmp')

function withDatabase(url: string, name: string) {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.toString()
}

function quoteIdent(name: string) {
  return `"${name.replace(/"/g, '""')}"`
}

/** A fresh, migrated database for one test file: a copy of the template made once per run. */
export async function createTestDatabase(template: string): Promise<DatabaseHandle> {
  const serverUrl = process.env.DATABASE_URL
  if (!serverUrl) return embeddedTestDatabase(template)
  const name = `es_test_${crypto.randomBytes(6).toString('hex')}`
  const admin = postgres(serverUrl, { onnotice: () => {}, max: 1 })
  await admin.unsafe(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(template)}`)
  await admin.end()
  const handle = await openServerDatabase(withDatabase(serverUrl, name), { runMigrations: false })
  return {
    ...handle,
    async close() {
      await handle.close()
      const dropper = postgres(serverUrl, { onnotice: () => {}, max: 1 })
      await dropper.unsafe(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`)
      await dropper.end()
    },
  }
}

export { withDatabase, quoteIdent }
