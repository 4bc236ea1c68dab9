/**
 * Media uploads as they stream: each accepted file is checked while it is written to scratch space (never held whole
 * in memory), photos are re-encoded, then the file is staged in media storage. The multipart body itself is read by
 * app/services/http/multipart-upload.server.ts, which hands each file to {@link mediaUpload}'s receiver.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { MediaType } from '#app/constants.ts'
import { PHOTO_SRCSET_WIDTHS, sizeMessage, typeMessage } from '#app/utils/media-types.ts'
import type { MultipartUpload, MultipartUploadOptions, UploadFiles } from '../http/multipart-upload.server.ts'
import { checkedUpload, encodePhoto, maxBytesFor } from './media-content.server.ts'
import { storeFailure } from './media-store-failure.server.ts'
import { mediaRoot } from './media-storage.server.ts'
import { discardStaged, stageFiles, STALE_STAGED_MS, type StagedFile } from './media.server.ts'

export interface ParseUploadOptions {
  /** The file fields accepted and what each must contain; any other file field is refused. */
  files: Readonly<Record<string, MediaType>>
  /** Largest text field, in bytes (64 KiB unless set). */
  maxFieldBytes?: number
  /** Most text fields (32 unless set). */
  maxFields?: number
}

/** A media upload as read: its text fields and its checked files, staged in storage. */
export type ParsedUpload = MultipartUpload<StagedFile>

const SWEEP_EVERY_MS = 60 * 60 * 1000

/** Scratch space for uploads being received and checked, on this server's disk whatever the storage backend. */
export function uploadScratchDir() {
  return path.join(mediaRoot(), 'tmp')
}

async function removeFiles(paths: Iterable<string>) {
  await Promise.all(Array.from(paths, (p) => fsp.rm(p, { force: true }).catch(() => {})))
}

const lastSweep = new Map<string, number>()

/** Clears scratch files a crash mid-upload left behind, at most hourly. */
function sweepStaleScratch(folder: string) {
  const now = Date.now()
  if (now - (lastSweep.get(folder) ?? 0) < SWEEP_EVERY_MS) return
  lastSweep.set(folder, now)
  void (async () => {
    const cutoff = Date.now() - STALE_STAGED_MS
    for (const name of await fsp.readdir(folder)) {
      const file = path.join(folder, name)
      const stat = await fsp.stat(file).catch(() => null)
      if (stat?.isFile() && stat.mtimeMs < cutoff) await fsp.rm(file, { force: true }).catch(() => {})
    }
  })().catch(() => {})
}

/**
 * Writes an upload to `target` through its checks (refused as soon as it passes its size limit or its first bytes
 * are not an accepted type); its size and sniffed type, or null when nothing was sent.
 */
async function writeChecked(kind: MediaType, stream: Readable, target: string) {
  const checked = checkedUpload(kind)
  const out = fs.createWriteStream(target, { flags: 'wx', mode: 0o600 })
  // A refused upload destroys this stream, which may still finish opening (creating the file) after the pipeline
  // has failed: the clean-up waits for it to close before removing the scratch files.
  const closed = new Promise<void>((resolve) => out.once('close', () => resolve()))
  try {
    await pipeline(stream, checked.stream, out)
  } catch (error) {
    await closed
    throw error
  }
  const type = checked.type()
  return checked.size() === 0 || !type ? null : { size: checked.size(), type }
}

/**
 * One file of an upload: written to scratch space through its checks, a photo re-encoded (see {@link encodePhoto}),
 * then staged in storage. Null for an empty file; on a refusal its scratch files are removed and the error thrown
 * (the storage's own failure as the answer that says so: see media-store-failure).
 */
async function receiveMedia(kind: MediaType, file: { stream: Readable; name: string }) {
  const folder = uploadScratchDir()
  const stem = path.join(folder, randomUUID())
  const uploadPath = `${stem}.upload`
  const scratch = [uploadPath, `${stem}.webp`, ...PHOTO_SRCSET_WIDTHS.map((w) => `${stem}-${w}w.webp`)]
  try {
    await fsp.mkdir(folder, { recursive: true })
    sweepStaleScratch(folder)
    const checked = await writeChecked(kind, file.stream, uploadPath)
    if (!checked) {
      await removeFiles([uploadPath])
      return null
    }
    const upload = {
      kind,
      size: checked.size,
      mime: checked.type.mime,
      originalName: path.basename(file.name).slice(0, 255),
    }
    if (kind === 'video')
      return await stageFiles({ ...upload, ext: checked.type.ext, path: uploadPath, variants: [] })
    const photo = await encodePhoto(uploadPath, stem)
    // The original may carry GPS coordinates; it is not kept a moment longer than needed.
    await removeFiles([uploadPath])
    return await stageFiles({ ...upload, ext: 'webp', path: photo.main, variants: photo.variants })
  } catch (error) {
    await removeFiles(scratch)
    throw storeFailure(error) ?? error
  }
}

/** The receiver of a media upload's files: each field with the kind of media it must contain. */
export function mediaUploadFiles(files: Readonly<Record<string, MediaType>>): UploadFiles<StagedFile> {
  const kinds = new Map(Object.entries(files))
  return {
    fields: Object.fromEntries(
      [...kinds].map(([field, kind]) => [
        field,
        {
          maxBytes: maxBytesFor(kind),
          tooLargeMessage: sizeMessage(kind),
          notAFileMessage: typeMessage(kind),
        },
      ]),
    ),
    receive: (field, file) => receiveMedia(kinds.get(field)!, file),
    discard: (staged) => discardStaged(staged),
  }
}

/**
 * What `readMultipartUpload` (app/services/http/multipart-upload.server.ts) needs to read a media upload: its text
 * fields' limits, and each accepted file checked as it streams to scratch space, then staged in storage (see
 * {@link receiveMedia}). An empty file input counts as absent. The caller stores the staged files or calls
 * {@link discardStaged}.
 */
export function mediaUpload({ files, ...limits }: ParseUploadOptions): MultipartUploadOptions<StagedFile> {
  return { files: mediaUploadFiles(files), ...limits }
}
