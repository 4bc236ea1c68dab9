import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { DatabaseLockedError, openEmbeddedDatabase } from '#db/client.server.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const dataDir = path.join(TMP_DIR, `lock-${process.pid}-${Date.now().toString(36)}`)

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

test('a second opener of the same embedded database folder is refused with a clear message', async () => {
  const first = await openEmbeddedDatabase(dataDir)
  try {
    await expect(openEmbeddedDatabase(dataDir)).rejects.toThrow(DatabaseLockedError)
    await expect(openEmbeddedDatabase(dataDir)).rejects.toThrow(/in use by another process/)

    // Another process (the seed, say) is refused too, and says so.
    const seed = spawn(process.execPath, ['--import', 'tsx', 'scripts/seed.ts'], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'development', APP_ENV: 'development' },
    })
    let stderr = ''
    seed.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => seed.on('close', resolve))
    expect(code).toBe(1)
    expect(stderr).toMatch(/is in use by another process/)
  } finally {
    await first.close()
  }
  const again = await openEmbeddedDatabase(dataDir)
  await again.close()
}, 60_000)
