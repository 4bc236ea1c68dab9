/**
 * Restores a backup archive (backup-archive.server.ts) into the configured, empty target: the data folder
 * (DATA_DIR, embedded database) or the database at DATABASE_URL, and the media store. Refuses a target that holds
 * data unless told to replace it, a data folder a server is using, and an archive that is damaged or of another
 * kind, each with a message that says what to do. Migrations newer than the archive are applied afterwards.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import postgres from 'postgres'
import * as tar from 'tar'
import { AppError } from '#app/utils/app-error.ts'
import { MEDIA_EXTENSIONS } from '#app/utils/media-types.ts'
import { migrateServerDatabase, openEmbeddedDatabase, SERVER_POOL_OPTIONS } from '#db/client.server.ts'
import { adminSocketPath } from './admin-socket-path.server.ts'
import { answersOn } from './admin-socket.server.ts'
import {
  describeArchiveError,
  KIND_NAMES,
  MANIFEST_FILE,
  MEDIA_FOLDER,
  DATABASE_FOLDER,
  readManifest,
  type BackupManifest,
  type DatabaseKind,
} from './backup-archive.server.ts'
import { workFolder } from './backup.server.ts'
import { getEnv } from '../platform/env.server.ts'
import { mediaStorage } from '../media/media.server.ts'
import { mediaRoot } from '../media/media-storage.server.ts'
import { runPostgresTool } from './postgres-tools.server.ts'

const USER_RELATIONS_SQL = `select count(*)::int as count from pg_class c
  join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p', 'v', 'm', 'S')
    and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'`

/** Runs `run` on a connection of its own to `url`. */
async function withConnection<T>(url: string, run: (sql: postgres.Sql) => Promise<T>) {
  const sql = postgres(url, {
    onnotice: () => {},
    max: 1,
    connect_timeout: SERVER_POOL_OPTIONS.connect_timeout,
  })
  try {
    return await run(sql)
  } finally {
    await sql.end({ timeout: 2 })
  }
}

/** What the target already holds, in words (empty list: nothing). */
async function targetContents(kind: DatabaseKind, mediaKeys: readonly string[]) {
  const env = getEnv()
  const found: string[] = []
  if (kind === 'pglite' && fs.existsSync(path.resolve(env.DATA_DIR, 'pg', 'PG_VERSION'))) {
    found.push(`a database in ${path.resolve(env.DATA_DIR, 'pg')}`)
  }
  if (kind === 'postgres') {
    const [row] = await withConnection(env.DATABASE_URL!, (sql) => sql.unsafe(USER_RELATIONS_SQL))
    const count = Number(row?.count)
    if (count > 0) found.push(`${count} table(s) and other relations in the database at DATABASE_URL`)
  }
  if (!env.S3_BUCKET) {
    const present = ['images', 'videos'].some((top) => fs.existsSync(path.join(mediaRoot(), top)))
    if (present) found.push(`media files in ${mediaRoot()}`)
  } else {
    const clashes = []
    for (const key of mediaKeys) if (await mediaStorage().head(key)) clashes.push(key)
    if (clashes.length) found.push(`${clashes.length} of the archive's media keys in the bucket`)
  }
  return found
}

/** Empties the target (what `--force` means): the database's schemas, the local media folders. */
async function clearTarget(kind: DatabaseKind) {
  const env = getEnv()
  if (kind === 'postgres') {
    await withConnection(env.DATABASE_URL!, (sql) =>
      sql.unsafe(
        'drop schema if exists drizzle cascade; drop schema if exists public cascade; create schema public',
      ),
    )
  }
  // The embedded database's folder is emptied under its lock when it is opened (openEmbeddedDatabase).
  if (!env.S3_BUCKET) {
    for (const top of ['images', 'videos'])
      fs.rmSync(path.join(mediaRoot(), top), { recursive: true, force: true })
  }
}

/** Extracts the archive's database and media (plain files and folders only) into `into`. */
async function extract(file: string, into: string, manifest: BackupManifest) {
  try {
    await tar.x({
      file,
      cwd: into,
      strict: true,
      filter: (entryPath, entry) =>
        'type' in entry &&
        (entry.type === 'File' || entry.type === 'Directory') &&
        [DATABASE_FOLDER, MEDIA_FOLDER].includes(entryPath.split('/')[0]!) &&
        entryPath !== MANIFEST_FILE,
    })
  } catch (error) {
    throw describeArchiveError(error, file)
  }
  const missing = [
    manifest.database.kind === 'pglite' ? `${manifest.database.file}/PG_VERSION` : manifest.database.file,
    ...(manifest.media.storage === 'local' ? manifest.media.keys.map((key) => `${MEDIA_FOLDER}/${key}`) : []),
  ].filter((entry) => !fs.existsSync(path.join(into, entry)))
  if (missing.length) {
    throw new AppError(
      `${file} is incomplete: ${missing.length} file(s) its manifest lists are missing (${missing.slice(0, 3).join(', ')}).`,
      'invalid',
    )
  }
}

/** Moves the extracted media files into the configured store (the folder, or the bucket). */
async function placeMedia(from: string, keys: readonly string[]) {
  const store = mediaStorage()
  for (const key of keys) {
    const type = MEDIA_EXTENSIONS[key.split('.').pop() ?? '']
    await store.put(key, { file: path.join(from, key) }, type?.contentType ?? 'application/octet-stream')
  }
}

export interface RestoreResult {
  manifest: BackupManifest
  replaced: string[]
}

/**
 * Restores `file` into the configured target. `force` replaces what the target holds (said in `replaced`);
 * otherwise a target with data is refused.
 */
export async function restoreBackup(file: string, { force = false } = {}): Promise<RestoreResult> {
  const env = getEnv()
  const manifest = await readManifest(file)
  const kind: DatabaseKind = env.DATABASE_URL ? 'postgres' : 'pglite'
  if (manifest.database.kind !== kind) {
    throw new AppError(
      `${file} holds ${KIND_NAMES[manifest.database.kind]}, but the target is ${KIND_NAMES[kind]}. ` +
        (manifest.database.kind === 'pglite'
          ? 'Unset DATABASE_URL and point DATA_DIR at an empty folder to restore it.'
          : 'Set DATABASE_URL to an empty database to restore it.'),
      'invalid',
    )
  }
  const socket = adminSocketPath()
  if (fs.existsSync(socket) && (await answersOn(socket))) {
    throw new AppError(
      `A server is running on ${path.resolve(env.DATA_DIR)} (it answers on ${socket}): stop it before restoring.`,
      'conflict',
    )
  }
  const replaced = await targetContents(kind, manifest.media.storage === 'local' ? manifest.media.keys : [])
  if (replaced.length && !force) {
    throw new AppError(
      `The target is not empty: it holds ${replaced.join('; ')}. Restore into an empty one, or add --force to ` +
        'replace what it holds.',
      'conflict',
    )
  }

  const work = path.join(workFolder('restore'), randomUUID())
  await fsp.mkdir(work, { recursive: true, mode: 0o700 })
  try {
    await extract(file, work, manifest)
    const media = path.join(work, MEDIA_FOLDER)
    const keys = manifest.media.storage === 'local' ? manifest.media.keys : []
    if (kind === 'pglite') {
      // Opening takes the data folder's lock: a server started meanwhile, or one without a socket, is refused.
      const handle = await openEmbeddedDatabase(env.DATA_DIR, {
        restoreFrom: path.join(work, manifest.database.file),
      })
      try {
        if (force) await clearTarget(kind)
        await placeMedia(media, keys)
      } finally {
        await handle.close()
      }
    } else {
      if (force) await clearTarget(kind)
      const url = env.DATABASE_URL!
      await runPostgresTool('pg_restore', url, [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        '--single-transaction',
        path.join(work, manifest.database.file),
      ])
      await migrateServerDatabase(url)
      await placeMedia(media, keys)
    }
    return { manifest, replaced }
  } finally {
    await fsp.rm(work, { recursive: true, force: true })
    await fsp.rmdir(workFolder('restore')).catch(() => {})
  }
}
