/**
 * The backup archive (docs/decisions/019): one gzipped tar holding `manifest.json` first, the database under
 * `database/` and the media files under `media/` at their storage keys. This module knows its layout and reads and
 * checks its manifest; backup.server.ts writes archives, restore.server.ts reads them.
 */
import fs from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import * as tar from 'tar'
import { z } from 'zod'
import { AppError } from '#app/utils/app-error.ts'
import { MIGRATIONS_FOLDER } from '#db/client.server.ts'

export const ARCHIVE_FORMAT = 'eventshout-backup'
export const ARCHIVE_FORMAT_VERSION = 1
export const MANIFEST_FILE = 'manifest.json'
export const DATABASE_FOLDER = 'database'
export const MEDIA_FOLDER = 'media'
/** The embedded database: a copy of its data directory, with the WAL and backup_label that bring it to its moment. */
export const PGLITE_DUMP = `${DATABASE_FOLDER}/pgdata`
/** PostgreSQL: pg_dump's custom format, for pg_restore. */
export const POSTGRES_DUMP = `${DATABASE_FOLDER}/postgres.dump`

export type DatabaseKind = 'pglite' | 'postgres'
export const KIND_NAMES: Record<DatabaseKind, string> = {
  pglite: 'the embedded database (DATA_DIR)',
  postgres: 'a PostgreSQL database (DATABASE_URL)',
}

/**
 * What the database held at the moment of the copy, read in the same snapshot as the dump: the rows an operator
 * recognises, and how far the migrations had gone.
 */
export const BACKUP_FACTS_SQL = `select
  (select count(*) from events)::int as "events",
  (select count(*) from event_media)::int as "eventMedia",
  (select count(*) from business)::int as "businesses",
  (select count(*) from users)::int as "users",
  (select count(*) from drizzle.__drizzle_migrations)::int as "migrations",
  (select max(created_at) from drizzle.__drizzle_migrations)::text as "lastMigrationAt"`

const factsSchema = z.object({
  events: z.coerce.number(),
  eventMedia: z.coerce.number(),
  businesses: z.coerce.number(),
  users: z.coerce.number(),
  migrations: z.coerce.number(),
  lastMigrationAt: z.string().nullable(),
})
export type BackupFacts = z.infer<typeof factsSchema>

export function parseFacts(row: unknown): BackupFacts {
  return factsSchema.parse(row)
}

const manifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  formatVersion: z.number().int().positive(),
  createdAt: z.string(),
  database: z.object({
    kind: z.enum(['pglite', 'postgres']),
    file: z.enum([PGLITE_DUMP, POSTGRES_DUMP]),
    /** The migrations applied (by count, and the newest one's tag); a restore applies any newer ones. */
    migrations: z.number(),
    lastMigration: z.string().nullable(),
  }),
  counts: z.object({
    events: z.number(),
    eventMedia: z.number(),
    businesses: z.number(),
    users: z.number(),
  }),
  media: z.object({
    /** `local`: the files are in the archive; `s3`: they stay in the bucket and only their keys are listed. */
    storage: z.enum(['local', 's3']),
    keys: z.array(z.string()),
    bytes: z.number(),
  }),
})
export type BackupManifest = z.infer<typeof manifestSchema>

/** The tag of the newest applied migration, from the journal (drizzle records only when it was created). */
export function migrationTag(lastMigrationAt: string | null) {
  if (lastMigrationAt === null) return null
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
    entries: Array<{ when: number; tag: string }>
  }
  return journal.entries.find((entry) => entry.when === Number(lastMigrationAt))?.tag ?? lastMigrationAt
}

const notAnArchive = (file: string, why: string) =>
  new AppError(`${file} is not an EventShout backup archive: ${why}.`, 'invalid')

/** Checks a manifest's text: the format and a version this code can restore. */
export function parseManifest(text: string, file: string): BackupManifest {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw notAnArchive(file, `${MANIFEST_FILE} is not JSON`)
  }
  if ((json as { format?: unknown } | null)?.format !== ARCHIVE_FORMAT) {
    throw notAnArchive(file, `${MANIFEST_FILE} does not name the format "${ARCHIVE_FORMAT}"`)
  }
  const version = (json as { formatVersion?: unknown }).formatVersion
  if (typeof version === 'number' && version > ARCHIVE_FORMAT_VERSION) {
    throw new AppError(
      `${file} is an archive of format version ${version}, made by a newer EventShout; this one reads version ` +
        `${ARCHIVE_FORMAT_VERSION}. Restore it with the version that made it.`,
      'invalid',
    )
  }
  const parsed = manifestSchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw notAnArchive(
      file,
      `${MANIFEST_FILE} is incomplete (${issue.path.join('.') || 'root'}: ${issue.message})`,
    )
  }
  return parsed.data
}

/** What a tar or gzip failure means to someone holding the file. */
export function describeArchiveError(error: unknown, file: string): AppError {
  if (error instanceof AppError) return error
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return new AppError(`${file} does not exist.`, 'not_found')
  if (code === 'EISDIR') return new AppError(`${file} is a folder, not an archive.`, 'invalid')
  const message = (error as Error).message ?? String(error)
  return notAnArchive(file, `it is damaged or not a .tar.gz (${message})`)
}

/** Far above a real manifest (a list of 100,000 media keys is about 5 MB); a bigger one is not read into memory. */
const MANIFEST_MAX_BYTES = 64 * 1024 * 1024

/** The manifest of the archive `file`, read from its first entry; a clear AppError for anything else. */
export async function readManifest(file: string): Promise<BackupManifest> {
  let text: string | undefined
  let oversized = false
  try {
    await pipeline(
      fs.createReadStream(file),
      tar.t({
        strict: true,
        onReadEntry: (entry) => {
          if (entry.path !== MANIFEST_FILE) return entry.resume()
          if (entry.size > MANIFEST_MAX_BYTES) {
            oversized = true
            return entry.resume()
          }
          const chunks: Buffer[] = []
          entry.on('data', (chunk: Buffer) => chunks.push(chunk))
          entry.on('end', () => (text = Buffer.concat(chunks).toString('utf8')))
        },
      }),
    )
  } catch (error) {
    throw describeArchiveError(error, file)
  }
  if (oversized)
    throw notAnArchive(file, `its ${MANIFEST_FILE} is over ${MANIFEST_MAX_BYTES / 1024 / 1024} MB`)
  if (text === undefined) throw notAnArchive(file, `it has no ${MANIFEST_FILE}`)
  return parseManifest(text, file)
}
