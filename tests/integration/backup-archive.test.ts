/** An archive whose manifest is absurdly large is refused with a message, without reading the manifest into memory. */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import * as tar from 'tar'
import { afterAll, expect, test } from 'vitest'
import { MANIFEST_FILE, readManifest } from '#app/services/operations/backup-archive.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { TMP_DIR } from '#tests/support/test-database.ts'

const folder = path.join(TMP_DIR, `backup-archive-${process.pid}`)
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }))

test('a manifest over 64 MB is refused as not an archive of this kind, with a 400', async () => {
  fs.mkdirSync(folder, { recursive: true })
  // Mostly zeros, quick to compress, with a random byte in every 64 so the archive is not refused for its
  // compression ratio instead.
  const manifest = Buffer.alloc(65 * 1024 * 1024)
  const noise = crypto.randomBytes(manifest.length / 64)
  for (let i = 0; i < noise.length; i++) manifest[i * 64] = noise[i]!
  fs.writeFileSync(path.join(folder, MANIFEST_FILE), manifest)
  const archive = path.join(folder, 'huge-manifest.tar.gz')
  await tar.c({ gzip: true, file: archive, cwd: folder }, [MANIFEST_FILE])
  const refusal = readManifest(archive)
  await expect(refusal).rejects.toBeInstanceOf(AppError)
  const error = (await refusal.catch((e: unknown) => e)) as AppError
  expect(error.message).toMatch(/over 64 MB/)
  expect(error.kind).toBe('invalid')
})
