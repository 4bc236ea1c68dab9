/**
 * Makes a backup archive (backup-archive.server.ts) of the open database and its media while the site serves:
 * the running server prepares its files for `npm run backup` through its admin socket and the command packs them
 * in its own process, or the command does both when no server runs. Consistent to one moment (docs/decisions/019): deletions of stored media are held from before the database
 * is copied until the media are, so every file a copied row points to is still there to be archived.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import type { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import postgres from 'postgres'
import * as tar from 'tar'
import { SERVER_POOL_OPTIONS, type DatabaseHandle } from '#db/client.server.ts'
import {
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  BACKUP_FACTS_SQL,
  DATABASE_FOLDER,
  MANIFEST_FILE,
  MEDIA_FOLDER,
  migrationTag,
  parseFacts,
  PGLITE_DUMP,
  POSTGRES_DUMP,
  type BackupFacts,
  type BackupManifest,
} from './backup-archive.server.ts'
import { getEnv } from '../platform/env.server.ts'
import { holdMediaDeletions, mediaStorage } from '../media/media.server.ts'
import { isStorageKey, mediaRoot, STAGING_PREFIX } from '../media/media-storage.server.ts'
import { runPostgresTool } from './postgres-tools.server.ts'

/** Where a backup or a restore keeps its files while it runs: in DATA_DIR, on the media's file system. */
export function workFolder(kind: 'backup' | 'restore') {
  return path.resolve(getEnv().DATA_DIR, `${kind}-work`)
}

/** Clears what a backup killed part-way left (a server calls this when it starts, before any backup runs). */
export function clearBackupLeftovers() {
  fs.rmSync(workFolder('backup'), { recursive: true, force: true })
}

/**
 * PostgreSQL: pg_dump in a snapshot exported by a transaction that reads the facts first, so both are the same
 * moment. Its own connection, without the server pool's timeouts: pg_dump may take minutes.
 */
async function dumpPostgres(url: string, file: string): Promise<BackupFacts> {
  const client = postgres(url, {
    onnotice: () => {},
    max: 1,
    connect_timeout: SERVER_POOL_OPTIONS.connect_timeout,
  })
  try {
    return await client.begin('isolation level repeatable read read only', async (tx) => {
      const [{ snapshot }] = await tx<[{ snapshot: string }]>`select pg_export_snapshot() as snapshot`
      const [facts] = await tx.unsafe(BACKUP_FACTS_SQL)
      await runPostgresTool('pg_dump', url, [
        '--format=custom',
        '--no-owner',
        '--no-privileges',
        `--snapshot=${snapshot}`,
        `--file=${file}`,
      ])
      return parseFacts(facts)
    })
  } finally {
    await client.end({ timeout: 2 })
  }
}

/** The stored media files under `root` (images/, videos/; never staged uploads or partial writes), as keys. */
async function localMediaKeys(root: string) {
  const keys: string[] = []
  for (const top of ['images', 'videos']) {
    const names = await fsp.readdir(path.join(root, top), { recursive: true }).catch(() => [] as string[])
    for (const name of names) {
      const key = `${top}/${name.split(path.sep).join('/')}`
      if (!isArchivedKey(key)) continue
      if ((await fsp.lstat(path.join(root, key)).catch(() => null))?.isFile()) keys.push(key)
    }
  }
  return keys.sort()
}

const isArchivedKey = (key: string) => isStorageKey(key) && !key.startsWith(STAGING_PREFIX)

/**
 * Links every stored file into `into` (a hard link: instant, and the file's bytes stay as they are now, since the
 * store replaces a file by renaming a new one over it); a copy where links are not possible.
 */
async function snapshotLocalMedia(into: string) {
  const root = mediaRoot()
  const keys = await localMediaKeys(root)
  let bytes = 0
  for (const key of keys) {
    const target = path.join(into, key)
    await fsp.mkdir(path.dirname(target), { recursive: true })
    try {
      await fsp.link(path.join(root, key), target)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT') continue // replaced or removed between the listing and now, and not held: unreferenced
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK') throw error
      await fsp.copyFile(path.join(root, key), target)
    }
    bytes += (await fsp.stat(target)).size
  }
  return { keys: keys.filter((key) => fs.existsSync(path.join(into, key))), bytes }
}

/** The keys of the stored media in the bucket (they stay there; docs/decisions/019 says what the bucket needs). */
async function bucketMediaKeys() {
  const keys: string[] = []
  for (const prefix of ['images/', 'videos/']) {
    for await (const { key } of mediaStorage().list(prefix)) if (isArchivedKey(key)) keys.push(key)
  }
  return { keys: keys.sort(), bytes: 0 }
}

/** A backup's files, ready to be packed: the database copy, the media (linked) and the manifest, in `folder`. */
export interface PreparedBackup {
  folder: string
  /** What the archive holds, in order: names in `folder`. */
  entries: string[]
  manifest: BackupManifest
  /** Milliseconds the database copy took. */
  dumpMs: number
  /** Removes the folder (and the shared work folder once empty). */
  remove(): Promise<void>
}

/**
 * Copies `handle`'s database and links the media into a folder of this backup's own in DATA_DIR, with the
 * manifest: everything the archive will hold, consistent to one moment. Packing it is another step
 * ({@link packBackup}), so the running server can leave that work to the backup command's own process.
 */
export async function prepareBackup(handle: DatabaseHandle): Promise<PreparedBackup> {
  const env = getEnv()
  const folder = path.join(workFolder('backup'), randomUUID())
  const remove = async () => {
    await fsp.rm(folder, { recursive: true, force: true })
    // The shared folder goes too once empty (another backup may still be using it).
    await fsp.rmdir(workFolder('backup')).catch(() => {})
  }
  await fsp.mkdir(path.join(folder, DATABASE_FOLDER), { recursive: true, mode: 0o700 })
  const release = holdMediaDeletions()
  try {
    const startedAt = performance.now()
    let facts: BackupFacts
    let file: BackupManifest['database']['file']
    if (handle.copyDataDir) {
      file = PGLITE_DUMP
      facts = parseFacts((await handle.copyDataDir(path.join(folder, file), BACKUP_FACTS_SQL)).facts)
    } else {
      if (!env.DATABASE_URL) throw new Error('A PostgreSQL backup needs DATABASE_URL')
      file = POSTGRES_DUMP
      facts = await dumpPostgres(env.DATABASE_URL, path.join(folder, file))
    }
    const dumpMs = performance.now() - startedAt
    const media = env.S3_BUCKET
      ? await bucketMediaKeys()
      : await snapshotLocalMedia(path.join(folder, MEDIA_FOLDER))
    await release()

    const manifest: BackupManifest = {
      format: ARCHIVE_FORMAT,
      formatVersion: ARCHIVE_FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      database: {
        kind: handle.kind,
        file,
        migrations: facts.migrations,
        lastMigration: migrationTag(facts.lastMigrationAt),
      },
      counts: {
        events: facts.events,
        eventMedia: facts.eventMedia,
        businesses: facts.businesses,
        users: facts.users,
      },
      media: { storage: env.S3_BUCKET ? 's3' : 'local', keys: media.keys, bytes: media.bytes },
    }
    await fsp.writeFile(path.join(folder, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, {
      mode: 0o600,
    })
    const entries = [MANIFEST_FILE, DATABASE_FOLDER]
    if (fs.existsSync(path.join(folder, MEDIA_FOLDER))) entries.push(MEDIA_FOLDER)
    return { folder, entries, manifest, dumpMs, remove }
  } catch (error) {
    await remove()
    throw error
  } finally {
    await release()
  }
}

/** Streams the prepared backup in `folder` to `output` as a tar, gzipped unless `gzip: false`. */
export async function packBackup(
  { folder, entries }: Pick<PreparedBackup, 'folder' | 'entries'>,
  output: Writable,
  { gzip = true }: { gzip?: boolean } = {},
) {
  await pipeline(tar.c({ cwd: folder, gzip, portable: true }, entries), output)
}

/** Prepares and packs a backup of `handle` into `output` in this process (no server runs to prepare it). */
export async function writeBackup(handle: DatabaseHandle, output: Writable) {
  const prepared = await prepareBackup(handle)
  try {
    await packBackup(prepared, output)
    return { manifest: prepared.manifest, dumpMs: prepared.dumpMs }
  } finally {
    await prepared.remove()
  }
}
