/**
 * Event media: streaming multipart uploads, content checks, storage under `${DATA_DIR}/media` with the spec's key
 * convention, and serving with HTTP caching and ranges.
 *
 * Storage is a plain folder tree (`media/images|videos/yyyy-mm/yyyy-mm-dd_ID.ext`) written with fs.rename rather
 * than `@remix-run/file-storage` 0.13. Its fs backend can stream a file in without buffering, but (1) it stores
 * each key as `<sha256>.dat` plus a `.meta.json`, so the convention would exist only as a key and files could not be
 * located or served without its internals; (2) the streams its files hand out have no `cancel`, so every aborted
 * range request (video seeking) leaks a file descriptor (measured: 20 cancelled reads left 20 descriptors open);
 * (3) `put` copies the upload and overwrites in place, so a replacement is neither atomic nor free for a 50 MB
 * video, where a rename within one file system is both.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import { Readable, Transform, type TransformCallback } from 'node:stream'
import { finished, pipeline } from 'node:stream/promises'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import { createReadableStreamFromReadable } from '@remix-run/node'
import busboy from 'busboy'
import sharp from 'sharp'
import { MULTIPART_BODY_MAX_BYTES, PHOTO_MAX_BYTES, VIDEO_MAX_BYTES, type MediaType } from '#app/constants.ts'
import { containsNul, NUL_MESSAGE } from '#app/models/input-rules.ts'
import { getEventMediaAudience, lockOwnedEventForMediaChange } from '#app/models/event.server.ts'
import { isEditableByOwner, isLive, MEDIA_LOCKED_MESSAGE } from '#app/models/event-status.ts'
import { db, type Transaction } from '#db/client.server.ts'
import { getBusiness, hasRole } from './auth.server.ts'
import { getEnv } from './env.server.ts'
import { jsonError } from './http.server.ts'
import { platformToday } from './platform-today.server.ts'
import { isBodyTooLarge } from './request-body.server.ts'
import {
  isMediaDate,
  MEDIA_SAMPLE_DATE,
  mediaFileName,
  mediaKey,
  mediaUrlFromKey,
  parseMediaFileName,
  PHOTO_MAX_WIDTH,
  PHOTO_SRCSET_WIDTHS,
  PHOTO_TYPE_MESSAGE,
  photoVariantKey,
  sizeMessage,
  SNIFF_BYTES,
  sniffMedia,
  typeMessage,
  type MediaName,
  type PhotoVariantWidth,
  type SniffedType,
} from '#app/utils/media-types.ts'

export {
  MEDIA_SAMPLE_DATE,
  mediaFileName,
  mediaKey,
  mediaUrlFromKey,
  photoSrcSet,
  sniffMedia,
} from '#app/utils/media-types.ts'

/** An upload refused for a reason the client can fix; `message` is safe to show, `kind` names the file at fault. */
export class UploadError extends Error {
  readonly status: number
  readonly kind?: MediaType
  constructor(message: string, status: number, kind?: MediaType) {
    super(message)
    this.name = 'UploadError'
    this.status = status
    this.kind = kind
  }
}

export interface StagedFile {
  kind: MediaType
  /** The file that will be stored: the re-encoded WebP for a photo, the upload itself for a video. */
  tempPath: string
  /** Bytes received. */
  size: number
  /** The upload's type, sniffed from its bytes. */
  mime: string
  /** Extension of the file as stored ('webp' for every photo). */
  ext: string
  originalName: string
  /** Photos only: the narrower WebP copies for `srcset`. */
  variants: Array<{ width: PhotoVariantWidth; tempPath: string }>
}

export interface ParseUploadOptions {
  /** The file fields accepted and what each must contain; any other file field is refused. */
  files: Record<string, MediaType>
  /** Largest text field, in bytes (64 KiB unless set). */
  maxFieldBytes?: number
  /** Most text fields (32 unless set). */
  maxFields?: number
}

export interface ParsedUpload {
  /** The last value of each text field. */
  fields: Record<string, string>
  /** Every value of each text field, in order (checkbox groups repeat a name). */
  fieldLists: Record<string, string[]>
  files: Partial<Record<string, StagedFile>>
}

export interface StoredMedia {
  /** `images/2024-05/2024-05-01_12.webp` */
  key: string
  /** `/api/media/2024-05-01_12.webp?v=…`; the version changes whenever the file is replaced. */
  url: string
  mediaType: MediaType
}

const DEFAULT_MAX_FIELD_BYTES = 64 * 1024
const DEFAULT_MAX_FIELDS = 32
/** Decoding cost grows with pixels, not bytes: a 5 MB PNG can claim 400 megapixels. */
const PHOTO_MAX_PIXELS = 40_000_000
/** After a refusal the rest of the body is read and dropped so the client gets the answer; beyond this, cut off. */
const DRAIN_LIMIT_BYTES = VIDEO_MAX_BYTES + 8 * 1024 * 1024
/** Staged files may wait in a draft between the form and its preview, so only day-old ones are swept. */
const STALE_TEMP_MS = 24 * 60 * 60 * 1000
const SWEEP_EVERY_MS = 60 * 60 * 1000
const TOO_MANY_PARTS = 'Too many form fields'
const UPLOAD_TOO_LARGE = `The upload is too large (at most ${MULTIPART_BODY_MAX_BYTES / (1024 * 1024)} MB in all)`
const MALFORMED = 'The upload could not be read; send the form as multipart/form-data'

// libvips' operation cache only helps when the same image is processed repeatedly; uploads are all different.
sharp.cache(false)

export function maxBytesFor(kind: MediaType) {
  return kind === 'photo' ? PHOTO_MAX_BYTES : VIDEO_MAX_BYTES
}

export function mediaRoot() {
  return path.resolve(getEnv().DATA_DIR, 'media')
}

export function mediaTempDir() {
  return path.join(mediaRoot(), 'tmp')
}

async function removeFiles(paths: Iterable<string>) {
  await Promise.all(Array.from(paths, (p) => fsp.rm(p, { force: true }).catch(() => {})))
}

const lastSweep = new Map<string, number>()

/** Clears staged files nobody stored or discarded (abandoned drafts, a crash mid-upload), at most hourly. */
function sweepStaleTempFiles(folder: string) {
  const now = Date.now()
  if (now - (lastSweep.get(folder) ?? 0) < SWEEP_EVERY_MS) return
  lastSweep.set(folder, now)
  void (async () => {
    const cutoff = Date.now() - STALE_TEMP_MS
    for (const name of await fsp.readdir(folder)) {
      const file = path.join(folder, name)
      const stat = await fsp.stat(file).catch(() => null)
      if (stat?.isFile() && stat.mtimeMs < cutoff) await fsp.rm(file, { force: true }).catch(() => {})
    }
  })().catch(() => {})
}

/** Reads and drops what is left of a body, so an early answer reaches the client; cuts off past the limit. */
function drainReadable(source: Readable) {
  let seen = 0
  source.on('error', () => {})
  source.on('data', (chunk: Buffer) => {
    seen += chunk.length
    if (seen > DRAIN_LIMIT_BYTES) source.destroy()
  })
  source.resume()
}

/** For answers given before a body was read (signed out, wrong method). */
export function discardRequestBody(request: Request) {
  if (!request.body || request.bodyUsed || request.body.locked) return
  drainReadable(Readable.fromWeb(request.body as unknown as NodeReadableStream<Uint8Array>))
}

function isFsError(error: unknown) {
  return (
    error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && 'syscall' in error
  )
}

function photoEncodeError(error: unknown) {
  const message = error instanceof Error ? error.message : ''
  if (/pixel limit/i.test(message)) {
    return new UploadError('The image is too large; use a photo of at most 40 megapixels', 400, 'photo')
  }
  return new UploadError(PHOTO_TYPE_MESSAGE, 400, 'photo')
}

/**
 * Auto-rotates and re-encodes a photo as WebP (all metadata, EXIF and GPS included, is dropped): `<stem>.webp` at
 * most {@link PHOTO_MAX_WIDTH} wide plus `<stem>-480w.webp` and `<stem>-960w.webp`. Never enlarges, so a small
 * photo's copies are simply its own size. An image libvips cannot decode is an UploadError 400.
 */
export async function encodePhoto(inputPath: string, outputStem: string) {
  const main = `${outputStem}.webp`
  const variants = PHOTO_SRCSET_WIDTHS.map((width) => ({ width, tempPath: `${outputStem}-${width}w.webp` }))
  const outputs = [main, ...variants.map((v) => v.tempPath)]
  try {
    const image = sharp(inputPath, { autoOrient: true, failOn: 'error', limitInputPixels: PHOTO_MAX_PIXELS })
    const encode = (width: number, quality: number, file: string) =>
      image.clone().resize({ width, withoutEnlargement: true }).webp({ quality }).toFile(file)
    await Promise.all([
      encode(PHOTO_MAX_WIDTH, 82, main),
      ...variants.map((v) => encode(v.width, 78, v.tempPath)),
    ])
  } catch (error) {
    await removeFiles(outputs)
    throw photoEncodeError(error)
  }
  return { main, variants, outputs }
}

function meter(kind: MediaType, onType: (type: SniffedType) => void) {
  const limit = maxBytesFor(kind)
  let size = 0
  let head: Buffer[] = []
  let headBytes = 0
  let known = false
  const check = () => {
    const type = sniffMedia(Buffer.concat(head))
    head = []
    if (!type || type.kind !== kind) throw new UploadError(typeMessage(kind), 415, kind)
    known = true
    onType(type)
  }
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      size += chunk.length
      if (size > limit) return callback(new UploadError(sizeMessage(kind), 413, kind))
      if (!known) {
        head.push(chunk)
        headBytes += chunk.length
        if (headBytes >= SNIFF_BYTES) {
          try {
            check()
          } catch (error) {
            return callback(error as Error)
          }
        }
      }
      callback(null, chunk)
    },
    flush(callback: TransformCallback) {
      if (!known && size > 0) {
        try {
          check()
        } catch (error) {
          return callback(error as Error)
        }
      }
      callback()
    },
  })
  return { stream, size: () => size }
}

/**
 * Parses a multipart/form-data request as it arrives: text fields into `fields`, each accepted file field
 * written straight to `${DATA_DIR}/media/tmp` (never held whole in memory), refused as soon as it passes its size
 * limit or its first bytes are not an accepted type. Photos are then re-encoded (see {@link encodePhoto}).
 * An empty file input counts as absent. On any refusal every temp file of the request is removed and an
 * {@link UploadError} is thrown. The caller stores the staged files or calls {@link discardStaged}.
 */
export async function parseMultipartUpload(
  request: Request,
  options: ParseUploadOptions,
): Promise<ParsedUpload> {
  const kinds = new Map(Object.entries(options.files))
  const maxFieldBytes = options.maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES
  const maxFields = options.maxFields ?? DEFAULT_MAX_FIELDS
  const contentType = request.headers.get('content-type') ?? ''
  if (!request.body || !/^multipart\/form-data\s*;/i.test(contentType)) {
    discardRequestBody(request)
    throw new UploadError(MALFORMED, 400)
  }

  const fileLimits = [...kinds.values()].map(maxBytesFor)
  const allowance = fileLimits.reduce((sum, n) => sum + n, 0) + maxFields * maxFieldBytes + 64 * 1024
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (Number.isFinite(declared) && declared > allowance) {
    discardRequestBody(request)
    const kind = [...kinds.values()].includes('video') ? 'video' : 'photo'
    throw new UploadError(sizeMessage(kind), 413, kind)
  }

  let parser: busboy.Busboy
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      limits: {
        fieldSize: maxFieldBytes,
        fields: maxFields,
        files: kinds.size,
        parts: maxFields + kinds.size,
        fileSize: Math.max(0, ...fileLimits) + 1,
        headerPairs: 16,
      },
    })
  } catch {
    discardRequestBody(request)
    throw new UploadError(MALFORMED, 400)
  }

  const tmpDir = mediaTempDir()
  await fsp.mkdir(tmpDir, { recursive: true })
  sweepStaleTempFiles(tmpDir)

  const source = Readable.fromWeb(request.body as unknown as NodeReadableStream<Uint8Array>)
  const fields = new Map<string, string>()
  const fieldLists = new Map<string, string[]>()
  const files = new Map<string, StagedFile>()
  const seenFiles = new Set<string>()
  const tempPaths = new Set<string>()
  const work: Array<Promise<void>> = []
  let failure: unknown
  let failed = false
  let rejectAborted: (error: unknown) => void = () => {}
  const aborted = new Promise<never>((_, reject) => (rejectAborted = reject))
  aborted.catch(() => {})

  const abort = (error: unknown) => {
    if (failed) return
    failed = true
    failure = error
    source.unpipe(parser)
    parser.destroy()
    drainReadable(source)
    rejectAborted(error)
  }

  async function receiveFile(
    kind: MediaType,
    stream: Readable,
    info: busboy.FileInfo,
  ): Promise<StagedFile | null> {
    if (!info.filename) {
      stream.resume()
      await finished(stream)
      return null
    }
    const stem = path.join(tmpDir, randomUUID())
    const uploadPath = `${stem}.upload`
    let type: SniffedType | undefined
    const counter = meter(kind, (t) => (type = t))
    tempPaths.add(uploadPath)
    await pipeline(stream, counter.stream, fs.createWriteStream(uploadPath, { flags: 'wx', mode: 0o600 }))
    if (counter.size() === 0 || !type) {
      await removeFiles([uploadPath])
      return null
    }
    const originalName = path.basename(info.filename).slice(0, 255)
    if (kind === 'video') {
      return {
        kind,
        tempPath: uploadPath,
        size: counter.size(),
        mime: type.mime,
        ext: type.ext,
        originalName,
        variants: [],
      }
    }
    for (const output of [`${stem}.webp`, ...PHOTO_SRCSET_WIDTHS.map((w) => `${stem}-${w}w.webp`)]) {
      tempPaths.add(output)
    }
    const photo = await encodePhoto(uploadPath, stem)
    // The original may carry GPS coordinates; it is not kept a moment longer than needed.
    await removeFiles([uploadPath])
    return {
      kind,
      tempPath: photo.main,
      size: counter.size(),
      mime: type.mime,
      ext: 'webp',
      originalName,
      variants: photo.variants,
    }
  }

  parser.on('error', abort)
  // The server cuts a body off past its limit (server/request-bodies.js): that is a 413, not a failure.
  source.on('error', (error) => abort(isBodyTooLarge(error) ? new UploadError(UPLOAD_TOO_LARGE, 413) : error))
  const onClientAbort = () => abort(new UploadError('The upload was cancelled', 400))
  request.signal.addEventListener('abort', onClientAbort, { once: true })
  for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
    parser.on(limit, () => abort(new UploadError(TOO_MANY_PARTS, 413)))
  }
  parser.on('field', (name, value, info) => {
    if (failed) return
    if (info.nameTruncated || info.valueTruncated)
      return abort(new UploadError('A form field is too long', 413))
    const kind = kinds.get(name)
    if (kind) return abort(new UploadError(typeMessage(kind), 400, kind))
    if (containsNul(name) || containsNul(value)) return abort(new UploadError(NUL_MESSAGE, 400))
    fields.set(name, value)
    fieldLists.set(name, [...(fieldLists.get(name) ?? []), value])
  })
  parser.on('file', (name, stream, info) => {
    const kind = kinds.get(name)
    if (failed || !kind || seenFiles.has(name)) {
      // Destroying the parser below errors this stream; nobody else is listening to it.
      stream.on('error', () => {})
      stream.resume()
      if (!kind) abort(new UploadError(`Unexpected file field "${name.slice(0, 100)}"`, 400))
      else if (seenFiles.has(name)) abort(new UploadError('Send one file per field', 400))
      return
    }
    seenFiles.add(name)
    work.push(
      receiveFile(kind, stream, info).then((staged) => {
        if (staged) files.set(name, staged)
      }, abort),
    )
  })

  const parsed = new Promise<void>((resolve) => parser.once('finish', resolve))
  source.pipe(parser)
  try {
    await Promise.race([parsed, aborted])
    await Promise.race([Promise.all(work), aborted])
    if (failed) throw failure
    return {
      fields: Object.fromEntries(fields),
      fieldLists: Object.fromEntries(fieldLists),
      files: Object.fromEntries(files),
    }
  } catch (error) {
    abort(error)
    await Promise.allSettled(work)
    await removeFiles(tempPaths)
    if (failure instanceof UploadError) throw failure
    if (isFsError(failure)) throw failure
    throw new UploadError(MALFORMED, 400)
  } finally {
    request.signal.removeEventListener('abort', onClientAbort)
  }
}

/** Removes staged temp files that will not be stored (a no-op for files already stored). */
export async function discardStaged(
  files: StagedFile | Array<StagedFile | undefined> | Partial<Record<string, StagedFile>> | null | undefined,
) {
  if (!files) return
  const list: Array<StagedFile | undefined> =
    'tempPath' in files && typeof files.tempPath === 'string'
      ? [files as StagedFile]
      : Array.isArray(files)
        ? files
        : Object.values(files as Partial<Record<string, StagedFile>>)
  await removeFiles(list.flatMap((f) => (f ? [f.tempPath, ...f.variants.map((v) => v.tempPath)] : [])))
}

/** `path.resolve` inside the media folder, or null when the result would fall outside it. */
function insideMediaRoot(relative: string) {
  const root = mediaRoot()
  const resolved = path.resolve(root, relative)
  return resolved.startsWith(root + path.sep) ? resolved : null
}

export interface ResolvedMedia extends MediaName {
  /** Absolute path inside `${DATA_DIR}/media`. */
  path: string
}

/**
 * Maps a requested file name to its stored file: the folder comes from the extension and yyyy-mm from the date
 * prefix. Anything but a name this code writes (`yyyy-mm-dd_ID[-480w|-960w].ext`) is null, so `..`, slashes
 * (encoded or not), NUL bytes and absolute paths never reach the file system.
 */
export function resolveMediaFile(fileName: string): ResolvedMedia | null {
  if (typeof fileName !== 'string' || fileName.length > 64) return null
  const name = parseMediaFileName(fileName)
  if (!name) return null
  const filePath = insideMediaRoot(name.key)
  return filePath ? { ...name, path: filePath } : null
}

function pathForKey(key: string) {
  const media = resolveMediaFile(mediaFileName(key))
  if (!media || media.key !== key) throw new Error(`Not a media key: ${key}`)
  return media.path
}

/** The yyyy-mm-dd of a moment in the platform time zone (APP_TIME_ZONE); a yyyy-mm-dd string is taken as is. */
export function platformDate(value: Date | string) {
  if (typeof value === 'string' && isMediaDate(value)) return value
  const date = value instanceof Date ? value : new Date(value)
  if (Number.isNaN(date.getTime())) throw new Error(`Not a date: ${String(value)}`)
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: getEnv().APP_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(date)
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  return `${part('year')}-${part('month')}-${part('day')}`
}

async function moveFile(from: string, to: string) {
  try {
    await fsp.rename(from, to)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error
    // DATA_DIR/media/tmp mounted on another file system: copy under a temp name so the swap stays atomic.
    const partial = `${to}.${randomUUID()}.part`
    try {
      await fsp.copyFile(from, partial)
      await fsp.rename(partial, to)
    } finally {
      await removeFiles([partial, from])
    }
  }
}

function versionOf(mtimeMs: number) {
  return Math.floor(mtimeMs).toString(36)
}

/**
 * Moves a staged file to its key, `images|videos/yyyy-mm/yyyy-mm-dd_eventID.ext` (photos also get their srcset
 * copies). The date is `createdDate` in the platform time zone. Replacing an existing file is atomic.
 */
export async function storeEventMedia({
  eventID,
  createdDate,
  file,
}: {
  eventID: number | string
  createdDate: Date | string
  file: StagedFile
}): Promise<StoredMedia> {
  const key = mediaKey({ kind: file.kind, date: platformDate(createdDate), id: eventID, ext: file.ext })
  const target = pathForKey(key)
  await fsp.mkdir(path.dirname(target), { recursive: true })
  const placed: string[] = []
  try {
    for (const variant of file.variants) {
      const to = pathForKey(photoVariantKey(key, variant.width))
      await moveFile(variant.tempPath, to)
      placed.push(to)
    }
    await moveFile(file.tempPath, target)
  } catch (error) {
    await removeFiles(placed)
    throw error
  }
  const { mtimeMs } = await fsp.stat(target)
  return { key, url: `${mediaUrlFromKey(key)}?v=${versionOf(mtimeMs)}`, mediaType: file.kind }
}

/**
 * Stores a staged file as the media of one of the business's events, the one way event media is written: the event
 * row is locked for the rest of `tx` and the file is refused (UploadError 409) unless {@link isEditableByOwner} allows
 * it, or 403 when the event is not the business's own.
 */
export async function storeMediaForEvent(
  tx: Transaction,
  { eventID, businessID, file }: { eventID: number; businessID: number; file: StagedFile },
): Promise<StoredMedia> {
  const event = await lockOwnedEventForMediaChange(tx, eventID, businessID)
  if (!event) throw new UploadError('You can only upload media for your own events', 403, file.kind)
  if (!isEditableByOwner(event)) throw new UploadError(MEDIA_LOCKED_MESSAGE, 409, file.kind)
  return storeEventMedia({ eventID, createdDate: event.createdDate, file })
}

/** Deletes stored media given keys, media URLs or file names (a photo's srcset copies go with it). */
export async function deleteStoredMedia(refs: Iterable<string>) {
  const paths: string[] = []
  for (const ref of refs) {
    const media = resolveMediaFile(mediaFileName(ref))
    if (!media) continue
    paths.push(media.path)
    if (media.kind === 'photo' && !media.width) {
      for (const width of PHOTO_SRCSET_WIDTHS) {
        const variant = resolveMediaFile(mediaFileName(photoVariantKey(media.key, width)))
        if (variant) paths.push(variant.path)
      }
    }
  }
  await removeFiles(paths)
}

/* ----------------------------------------------------------------------------------------------------------------
 * Serving
 * -------------------------------------------------------------------------------------------------------------- */

/** Media of an ad that is not live may be seen by some and not others: no cache may keep or share a copy. */
const PRIVATE_MEDIA_CACHE = 'private, no-store'
const INT4_MAX = 2_147_483_647

/** The same answer for a file that does not exist and one the viewer may not see, so neither is revealed. */
function mediaNotFound() {
  const response = jsonError('Media not found', 404)
  response.headers.set('Cache-Control', PRIVATE_MEDIA_CACHE)
  return response
}

/**
 * Who may get a stored file: everyone when its ad is live; otherwise only its owner (the business in the session)
 * and administrators, so a draft's preview and the moderation queue still show it; null = nobody (404).
 * Files under the sample date belong to the business whose id they carry (the upload test page) and are never public.
 * The id in the name is the event's primary key, so this is one indexed read.
 */
async function mediaAudience(request: Request, media: MediaName): Promise<'everyone' | 'viewer' | null> {
  const id = Number(media.id)
  if (id > INT4_MAX) return null
  let ownerID = id
  if (media.date !== MEDIA_SAMPLE_DATE) {
    const event = await getEventMediaAudience(id)
    if (!event) return null
    if (isLive(event, platformToday())) return 'everyone'
    ownerID = event.businessID
  }
  const business = await getBusiness(request)
  if (business?.businessID === ownerID) return 'viewer'
  return (await hasRole(request, 'admin')) ? 'viewer' : null
}

/**
 * Keys are reused when media is replaced (an event keeps its name; the upload test page rewrites its sample file),
 * so only a versioned URL (`?v=`, as {@link storeEventMedia} returns) may be cached for good; a bare name is
 * cached for an hour. Only for media everyone may see (a live ad's).
 */
function publicCacheControl(request: Request) {
  if (new URL(request.url).searchParams.has('v')) return 'public, max-age=31536000, immutable'
  return 'public, max-age=3600'
}

function etagMatches(header: string | null, etag: string) {
  if (!header) return false
  if (header.trim() === '*') return true
  const bare = etag.replace(/^W\//, '')
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare)
}

type ByteRange = { start: number; end: number }

/** One `bytes=` range (a-b, a- or -n). Several ranges or other units are ignored (the whole file is sent). */
export function parseRange(header: string | null, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim())
  if (!match) return null
  const [, first = '', last = ''] = match
  if (first === '' && last === '') return null
  if (first === '') {
    const suffix = Number(last)
    if (suffix === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(first)
  if (last !== '' && Number(last) < start) return null
  if (start >= size) return 'unsatisfiable'
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) }
}

/**
 * GET/HEAD of `/api/media/{fileName}` (and `/uploads/{fileName}`): streams the file from disk with its type,
 * length, validators and caching, honours `Range` (206/416), `If-None-Match`/`If-Modified-Since` (304) and
 * `If-Range`; 404 JSON for anything unknown or not for this viewer (see {@link mediaAudience}).
 */
export async function mediaResponse(request: Request, fileName: string | undefined): Promise<Response> {
  const media = fileName === undefined ? null : resolveMediaFile(fileName)
  if (!media) return mediaNotFound()
  const audience = await mediaAudience(request, media)
  if (!audience) return mediaNotFound()
  let handle: fsp.FileHandle
  try {
    handle = await fsp.open(media.path, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW)
  } catch {
    return mediaNotFound()
  }
  let streaming = false
  try {
    const stat = await handle.stat()
    if (!stat.isFile()) return mediaNotFound()
    const etag = `"${stat.size.toString(36)}-${versionOf(stat.mtimeMs)}"`
    const lastModified = stat.mtime.toUTCString()
    const headers = new Headers({
      'Cache-Control': audience === 'everyone' ? publicCacheControl(request) : PRIVATE_MEDIA_CACHE,
      ETag: etag,
      'Last-Modified': lastModified,
      'Accept-Ranges': 'bytes',
      'X-Content-Type-Options': 'nosniff',
      // Opened directly, the file is its own document: nothing in it may run or load anything.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    })

    const ifNoneMatch = request.headers.get('if-none-match')
    const ifModifiedSince = Date.parse(request.headers.get('if-modified-since') ?? '')
    const notModified = ifNoneMatch
      ? etagMatches(ifNoneMatch, etag)
      : Number.isFinite(ifModifiedSince) && Math.floor(stat.mtimeMs / 1000) * 1000 <= ifModifiedSince
    if (notModified) return new Response(null, { status: 304, headers })

    const ifRange = request.headers.get('if-range')
    const rangeAllowed = !ifRange || ifRange === etag || ifRange === lastModified
    const range = rangeAllowed ? parseRange(request.headers.get('range'), stat.size) : null
    if (range === 'unsatisfiable') {
      headers.set('Content-Range', `bytes */${stat.size}`)
      return new Response(null, { status: 416, headers })
    }

    const { start, end } = range ?? { start: 0, end: stat.size - 1 }
    const length = Math.max(0, end - start + 1)
    headers.set('Content-Type', media.contentType)
    headers.set('Content-Length', String(length))
    if (range) headers.set('Content-Range', `bytes ${start}-${end}/${stat.size}`)
    const status = range ? 206 : 200
    if (request.method === 'HEAD' || length === 0) return new Response(null, { status, headers })

    const file = handle.createReadStream({ start, end, autoClose: true })
    streaming = true
    // The Node adapter keeps reading a body to its end after the client has gone (every video seek aborts a
    // request); closing the file ends the body early and releases the descriptor at once.
    const stopReading = () => file.destroy()
    if (request.signal.aborted) stopReading()
    request.signal.addEventListener('abort', stopReading, { once: true })
    file.once('close', () => request.signal.removeEventListener('abort', stopReading))
    return new Response(createReadableStreamFromReadable(file), { status, headers })
  } finally {
    if (!streaming) await handle.close()
  }
}

/* ----------------------------------------------------------------------------------------------------------------
 * Storage upload test endpoints (spec §7, the "Media upload test page")
 * -------------------------------------------------------------------------------------------------------------- */

function parseEventID(value: string | undefined) {
  return value && /^[1-9]\d{0,9}$/.test(value.trim()) && Number(value) <= 2_147_483_647 ? Number(value) : null
}

/**
 * `POST /api/file-storage/upload-image|upload-video` (multipart: image|video, eventID, createdDate) →
 * `{ publicUrl, error }`. The date part of the key is the event's own creation date from the database; the
 * posted `createdDate` is not trusted. A paid ad's media is not replaced here (409, see {@link isEditableByOwner}).
 */
export async function handleStorageTestUpload(request: Request, kind: MediaType): Promise<Response> {
  const field = kind === 'photo' ? 'image' : 'video'
  const refuse = (message: string, status: number) =>
    Response.json({ publicUrl: null, error: message, message }, { status })
  if (request.method !== 'POST') {
    discardRequestBody(request)
    return refuse('Method not allowed', 405)
  }
  const business = await getBusiness(request)
  if (!business) {
    discardRequestBody(request)
    return refuse('Please sign in', 401)
  }
  let upload: ParsedUpload
  try {
    upload = await parseMultipartUpload(request, { files: { [field]: kind } })
  } catch (error) {
    if (error instanceof UploadError) return refuse(error.message, error.status)
    throw error
  }
  const file = upload.files[field]
  try {
    if (!file) return refuse(typeMessage(kind), 400)
    const eventID = parseEventID(upload.fields.eventID)
    if (eventID === null) return refuse('eventID must be the number of one of your events', 400)
    const stored = await db.transaction((tx) =>
      storeMediaForEvent(tx, { eventID, businessID: business.businessID, file }),
    )
    return Response.json({ publicUrl: stored.url, error: null })
  } catch (error) {
    if (error instanceof UploadError) return refuse(error.message, error.status)
    throw error
  } finally {
    await discardStaged(file)
  }
}

/**
 * `POST /api/test-upload` (multipart: image or video) → `{ message, publicUrl }`. Stored under the fixed sample
 * date with the business id as the id part, e.g. `images/2000-01/2000-01-01_<businessID>.webp`.
 */
export async function handleTestUpload(request: Request): Promise<Response> {
  if (request.method !== 'POST') {
    discardRequestBody(request)
    return jsonError('Method not allowed', 405)
  }
  const business = await getBusiness(request)
  if (!business) {
    discardRequestBody(request)
    return jsonError('Please sign in', 401)
  }
  let upload: ParsedUpload
  try {
    upload = await parseMultipartUpload(request, { files: { image: 'photo', video: 'video' } })
  } catch (error) {
    if (error instanceof UploadError) return jsonError(error.message, error.status)
    throw error
  }
  try {
    const staged = [upload.files.image, upload.files.video].filter((f): f is StagedFile => Boolean(f))
    const [file, ...more] = staged
    if (!file) return jsonError('Please select an image or video file', 400)
    if (more.length > 0) return jsonError('Upload one file at a time', 400)
    const stored = await storeEventMedia({
      eventID: business.businessID,
      createdDate: MEDIA_SAMPLE_DATE,
      file,
    })
    return Response.json({
      message: file.kind === 'photo' ? 'Image uploaded' : 'Video uploaded',
      publicUrl: stored.url,
    })
  } finally {
    await discardStaged(upload.files)
  }
}
