/**
 * Event media in storage: files staged by an upload, stored under the key convention
 * (`images|videos/yyyy-mm/yyyy-mm-dd_ID.ext`) when their ad is saved, and deleted with it. Multipart parsing is in
 * media-upload, content checks in media-content, the backends behind media-storage, who may see a file in
 * media-access.
 */
import { randomUUID } from 'node:crypto'
import type { MediaType } from '#app/constants.ts'
import { lockOwnedEventForMediaChange } from '#app/models/ads/event.server.ts'
import { MEDIA_LOCKED_MESSAGE, ownerEditKind, type OwnerEdit } from '#app/models/ads/event-status.ts'
import { db, type Transaction } from '#db/client.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import {
  isMediaDate,
  MEDIA_EXTENSIONS,
  mediaFileName,
  mediaKey,
  mediaUrlFromKey,
  parseMediaFileName,
  PHOTO_SRCSET_WIDTHS,
  photoVariantKey,
  type PhotoVariantWidth,
} from '#app/utils/media-types.ts'
import { getEnv } from '../platform/env.server.ts'
import { storeFailure } from './media-store-failure.server.ts'
import { localMediaStorage } from './media-storage-local.server.ts'
import { s3MediaStorage } from './media-storage-s3.server.ts'
import { mediaRoot, STAGING_PREFIX, type MediaStorage } from './media-storage.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'

let storage: { config: string; backend: MediaStorage } | undefined

/**
 * The configured backend: the bucket `S3_BUCKET` when set, else the folder `${DATA_DIR}/media`. The environment is
 * read on each call, so tests can switch it.
 */
export function mediaStorage(): MediaStorage {
  const env = getEnv()
  const s3 = env.S3_BUCKET
    ? {
        bucket: env.S3_BUCKET,
        endpoint: env.S3_ENDPOINT,
        region: env.S3_REGION,
        forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
      }
    : null
  const root = mediaRoot()
  const config = JSON.stringify(s3 ?? root)
  if (storage?.config !== config) {
    storage = { config, backend: s3 ? s3MediaStorage(s3) : localMediaStorage(root) }
  }
  return storage.backend
}

function contentTypeOf(ext: string) {
  const type = MEDIA_EXTENSIONS[ext]
  if (!type) throw new Error(`Not a media extension: ${ext}`)
  return type.contentType
}

/** A checked upload waiting in storage (under `tmp/`) until its ad is saved or the draft is dropped. */
export interface StagedFile {
  kind: MediaType
  /** The file that will be stored: the re-encoded WebP for a photo, the upload itself for a video. */
  key: string
  /** Bytes received. */
  size: number
  /** The upload's type, sniffed from its bytes. */
  mime: string
  /** Extension of the file as stored ('webp' for every photo). */
  ext: string
  originalName: string
  /** Photos only: the narrower WebP copies for `srcset`. */
  variants: Array<{ width: PhotoVariantWidth; key: string }>
}

export interface StoredMedia {
  /** `images/2024-05/2024-05-01_12.webp` */
  key: string
  /** `/api/media/2024-05-01_12.webp?v=…`; the version changes whenever the file is replaced. */
  url: string
  mediaType: MediaType
}

/** Staged files may wait in a draft between the form and its preview, so only day-old ones are swept. */
export const STALE_STAGED_MS = 24 * 60 * 60 * 1000
const SWEEP_EVERY_MS = 60 * 60 * 1000
let lastSweep = 0

/** Clears staged files nobody stored or discarded (abandoned drafts), at most hourly. */
function sweepStaleStaged() {
  const now = Date.now()
  if (now - lastSweep < SWEEP_EVERY_MS) return
  lastSweep = now
  void (async () => {
    const store = mediaStorage()
    const stale: string[] = []
    for await (const { key, modified } of store.list(STAGING_PREFIX)) {
      if (modified.getTime() < now - STALE_STAGED_MS) stale.push(key)
    }
    await store.delete(stale)
  })().catch(() => {})
}

/**
 * Puts checked local files (an upload and, for a photo, its srcset copies) into storage under fresh `tmp/` keys.
 * The local files are consumed.
 */
export async function stageFiles(
  file: Omit<StagedFile, 'key' | 'variants'> & {
    path: string
    variants: Array<{ width: PhotoVariantWidth; path: string }>
  },
): Promise<StagedFile> {
  sweepStaleStaged()
  const store = mediaStorage()
  const stem = `${STAGING_PREFIX}${randomUUID()}`
  const { path, variants, ...rest } = file
  const contentType = contentTypeOf(file.ext)
  const staged: StagedFile = {
    ...rest,
    key: `${stem}.${file.ext}`,
    variants: variants.map((v) => ({ width: v.width, key: `${stem}-${v.width}w.${file.ext}` })),
  }
  // Every write settles before a failure clears them, so none lands after the clearing.
  const written = await Promise.allSettled([
    store.put(staged.key, { file: path }, contentType),
    ...variants.map((v, i) => store.put(staged.variants[i]!.key, { file: v.path }, contentType)),
  ])
  const failed = written.find((result) => result.status === 'rejected')
  if (failed) {
    await discardStaged(staged).catch(() => {})
    throw failed.reason
  }
  return staged
}

/** Removes staged files that will not be stored (a no-op for files already stored). */
export async function discardStaged(
  files: StagedFile | Array<StagedFile | undefined> | Partial<Record<string, StagedFile>> | null | undefined,
) {
  if (!files) return
  const list: Array<StagedFile | undefined> =
    'key' in files && typeof files.key === 'string'
      ? [files as StagedFile]
      : Array.isArray(files)
        ? files
        : Object.values(files as Partial<Record<string, StagedFile>>)
  await mediaStorage().delete(list.flatMap((f) => (f ? [f.key, ...f.variants.map((v) => v.key)] : [])))
}

/** The date part of a key: `createdDate`'s day in the platform time zone; a yyyy-mm-dd string is taken as is. */
export function mediaDate(createdDate: Date | string) {
  if (typeof createdDate === 'string' && isMediaDate(createdDate)) return createdDate
  const date = new Date(createdDate)
  if (Number.isNaN(date.getTime())) throw new Error(`Not a date: ${String(createdDate)}`)
  return platformToday(date)
}

/**
 * Moves a staged file to its key, `images|videos/yyyy-mm/yyyy-mm-dd_eventID.ext` (photos also get their srcset
 * copies). The date is `createdDate` in the platform time zone. Replacing an existing file is atomic. A store that
 * refuses the file (full, read-only, unreachable) is the AppError that says so, with what was placed removed.
 */
export async function storeEventMedia({
  eventID,
  createdDate,
  file,
  revisionID,
}: {
  eventID: number | string
  createdDate: Date | string
  file: StagedFile
  /** The media of this revision of the event: a key of its own, so the live file stays. */
  revisionID?: number
}): Promise<StoredMedia> {
  const store = mediaStorage()
  const key = mediaKey({
    kind: file.kind,
    date: mediaDate(createdDate),
    id: eventID,
    ext: file.ext,
    revision: revisionID,
  })
  const contentType = contentTypeOf(file.ext)
  const placed: string[] = []
  try {
    for (const variant of file.variants) {
      const to = photoVariantKey(key, variant.width)
      await store.move(variant.key, to, contentType)
      placed.push(to)
    }
    const stored = await store.move(file.key, key, contentType)
    return { key, url: `${mediaUrlFromKey(key)}?v=${stored.version}`, mediaType: file.kind }
  } catch (error) {
    // A store that refuses writes may refuse this too; the failure told is the write's.
    await store.delete(placed).catch(() => {})
    throw storeFailure(error) ?? error
  }
}

/**
 * Stores a staged file as the media of one of the business's events, the one way event media is written: the event
 * row is locked for the rest of `tx` and the file is refused (a conflict) unless the ad's {@link ownerEditKind} is
 * one of `allow` (by default only an unpaid ad: the upload calls; saving an edit after payment allows its own), or
 * Forbidden when the event is not the business's own. A live ad's media are never replaced here: an edit of it stores its
 * files as those of its revision (`revisionID`).
 */
export async function storeMediaForEvent(
  tx: Transaction,
  {
    eventID,
    businessID,
    file,
    allow = ['draft'],
    revisionID,
  }: { eventID: number; businessID: number; file: StagedFile; allow?: OwnerEdit[]; revisionID?: number },
): Promise<StoredMedia> {
  const event = await lockOwnedEventForMediaChange(tx, eventID, businessID)
  if (!event) throw new AppError('You can only upload media for your own events', 'forbidden')
  const kind = ownerEditKind(event, platformToday())
  if (!kind || !allow.includes(kind) || (kind === 'revision') !== (revisionID !== undefined)) {
    throw new AppError(MEDIA_LOCKED_MESSAGE, 'conflict')
  }
  return storeEventMedia({ eventID, createdDate: event.createdDate, file, revisionID })
}

/** {@link storeMediaForEvent} in a transaction of its own. */
export function storeMediaForOwnEvent(args: { eventID: number; businessID: number; file: StagedFile }) {
  return db.transaction((tx) => storeMediaForEvent(tx, args))
}

/**
 * Deletions of stored media asked for while a backup runs, with the version each key had then. A backup's database
 * copy may still point to a file whose row has changed since, so the file stays until the backup has it; a key
 * stored again meanwhile (a new version) is not deleted afterwards.
 */
const heldDeletions = { holds: 0, versions: new Map<string, string | undefined>() }

/**
 * Holds every deletion of stored media (not of staged uploads) until the returned release is called: from before a
 * backup copies the database until it has the files.
 */
export function holdMediaDeletions() {
  heldDeletions.holds++
  let released = false
  return async () => {
    if (released) return
    released = true
    if (--heldDeletions.holds > 0) return
    const store = mediaStorage()
    const held = [...heldDeletions.versions]
    heldDeletions.versions.clear()
    const unchanged = await Promise.all(
      held.map(async ([key, version]) => ((await store.head(key))?.version === version ? key : null)),
    )
    await store.delete(unchanged.filter((key) => key !== null))
  }
}

async function deleteOrHold(keys: string[]) {
  const store = mediaStorage()
  if (!heldDeletions.holds) return store.delete(keys)
  // The version at the latest request: a file stored at the key after it is kept.
  for (const key of keys) heldDeletions.versions.set(key, (await store.head(key))?.version)
}

/** Deletes stored media given keys, media URLs or file names (a photo's srcset copies go with it). */
export async function deleteStoredMedia(refs: Iterable<string>) {
  const keys: string[] = []
  for (const ref of refs) {
    const media = parseMediaFileName(mediaFileName(ref))
    if (!media) continue
    keys.push(media.key)
    if (media.kind === 'photo' && !media.width) {
      for (const width of PHOTO_SRCSET_WIDTHS) keys.push(photoVariantKey(media.key, width))
    }
  }
  await deleteOrHold(keys)
}
