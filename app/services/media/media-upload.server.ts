/**
 * Multipart/form-data requests parsed as they arrive (busboy): text fields, and each accepted file checked while it
 * streams to scratch space (never held whole in memory), photos re-encoded, then staged in media storage.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { finished, pipeline } from 'node:stream/promises'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import busboy from 'busboy'
import { MULTIPART_BODY_MAX_BYTES, VIDEO_MAX_BYTES, type MediaType } from '#app/constants.ts'
import { nulField, nulMessage } from '#app/models/platform/input-rules.ts'
import { PHOTO_SRCSET_WIDTHS, sizeMessage, typeMessage } from '#app/utils/media-types.ts'
import { checkedUpload, encodePhoto, maxBytesFor } from './media-content.server.ts'
import { mediaRoot } from './media-storage.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { discardStaged, stageFiles, STALE_STAGED_MS, type StagedFile } from './media.server.ts'
import { isBodyTooLarge } from '../http/request-body.server.ts'

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

const DEFAULT_MAX_FIELD_BYTES = 64 * 1024
const DEFAULT_MAX_FIELDS = 32
/** After a refusal the rest of the body is read and dropped so the client gets the answer; beyond this, cut off. */
const DRAIN_LIMIT_BYTES = VIDEO_MAX_BYTES + 8 * 1024 * 1024
const SWEEP_EVERY_MS = 60 * 60 * 1000
const TOO_MANY_PARTS = 'Too many form fields'
const UPLOAD_TOO_LARGE = `The upload is too large (at most ${MULTIPART_BODY_MAX_BYTES / (1024 * 1024)} MB in all)`
const MALFORMED = 'The upload could not be read; send the form as multipart/form-data'

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

/** A refusal of one file names its form field, so a form can show it there. */
function fileError(field: string, error: unknown) {
  if (!(error instanceof AppError) || Object.keys(error.fieldErrors).length > 0) return error
  return new AppError(error.message, error.kind, { fieldErrors: { [field]: [error.message] } })
}

function isFsError(error: unknown) {
  return (
    error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && 'syscall' in error
  )
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

/**
 * Parses a multipart/form-data request as it arrives: text fields into `fields`, each accepted file field
 * written straight to `${DATA_DIR}/media/tmp` (never held whole in memory), refused as soon as it passes its size
 * limit or its first bytes are not an accepted type. Photos are then re-encoded (see {@link encodePhoto}).
 * An empty file input counts as absent. On any refusal every temp file of the request is removed and an
 * {@link AppError} is thrown. The caller stores the staged files or calls {@link discardStaged}.
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
    throw new AppError(MALFORMED, 'invalid')
  }

  const fileLimits = [...kinds.values()].map(maxBytesFor)
  const allowance = fileLimits.reduce((sum, n) => sum + n, 0) + maxFields * maxFieldBytes + 64 * 1024
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (Number.isFinite(declared) && declared > allowance) {
    discardRequestBody(request)
    const [name, kind] = [...kinds].find(([, k]) => k === 'video') ?? [...kinds][0] ?? ['', 'photo']
    throw fileError(name, new AppError(sizeMessage(kind), 'too_large'))
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
    throw new AppError(MALFORMED, 'invalid')
  }

  const tmpDir = uploadScratchDir()
  await fsp.mkdir(tmpDir, { recursive: true })
  sweepStaleScratch(tmpDir)

  const source = Readable.fromWeb(request.body as unknown as NodeReadableStream<Uint8Array>)
  const fields = new Map<string, string>()
  const fieldLists = new Map<string, string[]>()
  const files = new Map<string, StagedFile>()
  const seenFiles = new Set<string>()
  const tempPaths = new Set<string>()
  const writersClosed: Array<Promise<unknown>> = []
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
    const checked = checkedUpload(kind)
    tempPaths.add(uploadPath)
    const out = fs.createWriteStream(uploadPath, { flags: 'wx', mode: 0o600 })
    // A refused upload destroys this stream, which may still finish opening (creating the file) after the pipeline
    // has failed: the clean-up waits for it to close before removing the scratch files.
    writersClosed.push(new Promise<void>((resolve) => out.once('close', () => resolve())))
    await pipeline(stream, checked.stream, out)
    const type = checked.type()
    if (checked.size() === 0 || !type) {
      await removeFiles([uploadPath])
      return null
    }
    const upload = {
      kind,
      size: checked.size(),
      mime: type.mime,
      originalName: path.basename(info.filename).slice(0, 255),
    }
    if (kind === 'video') return stageFiles({ ...upload, ext: type.ext, path: uploadPath, variants: [] })
    for (const output of [`${stem}.webp`, ...PHOTO_SRCSET_WIDTHS.map((w) => `${stem}-${w}w.webp`)]) {
      tempPaths.add(output)
    }
    const photo = await encodePhoto(uploadPath, stem)
    // The original may carry GPS coordinates; it is not kept a moment longer than needed.
    await removeFiles([uploadPath])
    return stageFiles({ ...upload, ext: 'webp', path: photo.main, variants: photo.variants })
  }

  parser.on('error', abort)
  // The server cuts a body off past its limit (server/request-bodies.js): that is a 413, not a failure.
  source.on('error', (error) =>
    abort(isBodyTooLarge(error) ? new AppError(UPLOAD_TOO_LARGE, 'too_large') : error),
  )
  const onClientAbort = () => abort(new AppError('The upload was cancelled', 'invalid'))
  request.signal.addEventListener('abort', onClientAbort, { once: true })
  for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
    parser.on(limit, () => abort(new AppError(TOO_MANY_PARTS, 'too_large')))
  }
  parser.on('field', (name, value, info) => {
    if (failed) return
    if (info.nameTruncated || info.valueTruncated)
      return abort(new AppError('A form field is too long', 'too_large'))
    const kind = kinds.get(name)
    if (kind) return abort(fileError(name, new AppError(typeMessage(kind), 'invalid')))
    const nulAt = nulField({ [name]: value })
    if (nulAt !== null) return abort(new AppError(nulMessage(nulAt), 'invalid'))
    fields.set(name, value)
    fieldLists.set(name, [...(fieldLists.get(name) ?? []), value])
  })
  parser.on('file', (name, stream, info) => {
    const kind = kinds.get(name)
    if (failed || !kind || seenFiles.has(name)) {
      // Destroying the parser below errors this stream; nobody else is listening to it.
      stream.on('error', () => {})
      stream.resume()
      if (!kind) abort(new AppError(`Unexpected file field "${name.slice(0, 100)}"`, 'invalid'))
      else if (seenFiles.has(name)) abort(new AppError('Send one file per field', 'invalid'))
      return
    }
    seenFiles.add(name)
    work.push(
      receiveFile(kind, stream, info).then(
        (staged) => {
          if (staged) files.set(name, staged)
        },
        (error) => abort(fileError(name, error)),
      ),
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
    await Promise.all(writersClosed)
    await Promise.all([removeFiles(tempPaths), discardStaged([...files.values()])])
    if (failure instanceof AppError) throw failure
    if (isFsError(failure)) throw failure
    throw new AppError(MALFORMED, 'invalid')
  } finally {
    request.signal.removeEventListener('abort', onClientAbort)
  }
}
