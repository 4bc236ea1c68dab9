/**
 * `npm run restore -- <file> [--force]`: restores a backup archive made by `npm run backup` into the configured
 * target, which must be empty: the data folder DATA_DIR (embedded database), or the database at DATABASE_URL, and
 * the media store. `--force` replaces what the target holds. No server may be running on it.
 */
import path from 'node:path'
import { EnvError } from '#app/services/platform/env.server.ts'
import { restoreBackup } from '#app/services/operations/restore.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { DatabaseLockedError } from '#db/client.server.ts'

async function main() {
  const args = process.argv.slice(2)
  const force = args.includes('--force')
  const files = args.filter((arg) => arg !== '--force')
  if (files.length !== 1 || files[0]!.startsWith('-')) {
    console.error('Usage: npm run restore -- <file.tar.gz> [--force]')
    return 2
  }
  const file = path.resolve(files[0]!)
  const started = performance.now()
  const { manifest, replaced } = await restoreBackup(file, { force })
  const { counts, media } = manifest
  if (replaced.length) console.info(`Replaced: ${replaced.join('; ')}.`)
  console.info(
    `Restored ${file} (made ${manifest.createdAt}) in ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
      `${counts.events} events, ${counts.businesses} businesses, ${counts.users} users, ` +
      (media.storage === 'local'
        ? `${media.keys.length} media files.`
        : `media keys listed only (their files stay in the bucket the archive was made with).`),
  )
  console.info('Start the server (npm run serve) to serve it; newer migrations have been applied.')
  return 0
}

try {
  process.exitCode = await main()
} catch (error) {
  // A refusal (AppError), a locked folder or a bad environment say what to do; anything else is still one line.
  const known = error instanceof AppError || error instanceof EnvError || error instanceof DatabaseLockedError
  console.error(`The restore failed: ${(error as Error).message}`)
  if (!known && process.env.DEBUG) console.error(error)
  process.exitCode = 1
}
