/**
 * The streamed multipart/form-data reader (busboy): text fields, and each file handed as it arrives to the receiver
 * the caller gives (the media uploads check and stage it: app/services/media/media-upload.server.ts), so no file is
 * ever held whole in memory. The form's limits (fields, files, the declared length) are checked here; on any refusal
 * the files received are let go, the rest of the body is read and dropped so the answer reaches the client, and an
 * AppError is thrown.
 */
import { Readable } from 'node:stream'
import { finished } from 'node:stream/promises'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import busboy from 'busboy'
import { MULTIPART_BODY_MAX_BYTES, VIDEO_MAX_BYTES } from '#app/constants.ts'
import { nulField, nulMessage } from '#app/models/platform/input-rules.ts'
import { AppError } from '#app/utils/app-error.ts'
import { isBodyTooLarge } from './request-body.server.ts'

/** A file field the form may send. */
export interface UploadFileField {
  /** The largest file accepted, in bytes. */
  maxBytes: number
  /** The refusal of a body declared longer than the form may take, at its largest file field. */
  tooLargeMessage: string
  /** The refusal of this field sent as text instead of a file. */
  notAFileMessage: string
}

/** Where an upload's files go: each is received as it streams, and let go if the upload is refused after. */
export interface UploadFiles<T> {
  /** The file fields accepted; any other file field is refused. */
  fields: Record<string, UploadFileField>
  /**
   * Reads one file to its end as it arrives (`name` is the name the client gave it, never empty) and resolves to
   * what is kept of it, or null for nothing (an empty file). Throws to refuse it (an AppError), leaving nothing behind.
   */
  receive(field: string, file: { stream: Readable; name: string }): Promise<T | null>
  /** Lets go of the files received before the upload was refused. */
  discard(files: T[]): Promise<void>
}

export interface MultipartUploadOptions<T> {
  files: UploadFiles<T>
  /** Largest text field, in bytes (64 KiB unless set). */
  maxFieldBytes?: number
  /** Most text fields (32 unless set). */
  maxFields?: number
}

export interface MultipartUpload<T> {
  /** The last value of each text field. */
  fields: Record<string, string>
  /** Every value of each text field, in order (checkbox groups repeat a name). */
  fieldLists: Record<string, string[]>
  files: Partial<Record<string, T>>
}

const DEFAULT_MAX_FIELD_BYTES = 64 * 1024
const DEFAULT_MAX_FIELDS = 32
/** Room for the parts' headers and boundaries, beside the fields and files themselves. */
const ENVELOPE_BYTES = 64 * 1024
/** After a refusal the rest of the body is read and dropped so the client gets the answer; beyond this, cut off. */
const DRAIN_LIMIT_BYTES = VIDEO_MAX_BYTES + 8 * 1024 * 1024
const TOO_MANY_PARTS = 'Too many form fields'
const UPLOAD_TOO_LARGE = `The upload is too large (at most ${MULTIPART_BODY_MAX_BYTES / (1024 * 1024)} MB in all)`
const MALFORMED = 'The upload could not be read; send the form as multipart/form-data'

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

/** A refusal of one file names its form field, so a form can show it there. */
function fileError(field: string, error: unknown) {
  if (!(error instanceof AppError) || Object.keys(error.fieldErrors).length > 0) return error
  return error.withFieldErrors({ [field]: [error.message] })
}

function isFsError(error: unknown) {
  return (
    error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && 'syscall' in error
  )
}

interface UploadLimits {
  fileFields: Map<string, UploadFileField>
  maxFieldBytes: number
  maxFields: number
}

function uploadLimits<T>(options: MultipartUploadOptions<T>): UploadLimits {
  return {
    fileFields: new Map(Object.entries(options.files.fields)),
    maxFieldBytes: options.maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES,
    maxFields: options.maxFields ?? DEFAULT_MAX_FIELDS,
  }
}

/**
 * The request's multipart Content-Type. A body that is not multipart, or declares more than every file at its
 * largest and every field at its longest, is refused before it is read (and discarded, so the answer arrives).
 */
function multipartContentType(request: Request, limits: UploadLimits): string {
  const contentType = request.headers.get('content-type') ?? ''
  if (!request.body || !/^multipart\/form-data\s*;/i.test(contentType)) {
    discardRequestBody(request)
    throw new AppError(MALFORMED, 'invalid')
  }
  const files = [...limits.fileFields]
  const allowance =
    files.reduce((sum, [, field]) => sum + field.maxBytes, 0) +
    limits.maxFields * limits.maxFieldBytes +
    ENVELOPE_BYTES
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (Number.isFinite(declared) && declared > allowance) {
    discardRequestBody(request)
    const [largest] = [...files].sort(([, a], [, b]) => b.maxBytes - a.maxBytes)
    if (!largest) throw new AppError(UPLOAD_TOO_LARGE, 'too_large')
    const [name, field] = largest
    throw fileError(name, new AppError(field.tooLargeMessage, 'too_large'))
  }
  return contentType
}

function multipartParser(request: Request, contentType: string, limits: UploadLimits): busboy.Busboy {
  const files = limits.fileFields.size
  try {
    return busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      limits: {
        fieldSize: limits.maxFieldBytes,
        fields: limits.maxFields,
        files,
        parts: limits.maxFields + files,
        fileSize: Math.max(0, ...[...limits.fileFields.values()].map((field) => field.maxBytes)) + 1,
        headerPairs: 16,
      },
    })
  } catch {
    discardRequestBody(request)
    throw new AppError(MALFORMED, 'invalid')
  }
}

/** One upload being read: what has arrived, the work on its files, and how it ends early. */
class UploadReading<T> {
  private readonly fields = new Map<string, string>()
  private readonly fieldLists = new Map<string, string[]>()
  private readonly files = new Map<string, T>()
  private readonly seenFiles = new Set<string>()
  readonly work: Array<Promise<void>> = []
  failed = false
  failure: unknown
  /** Rejects with the refusal as soon as there is one. */
  readonly aborted: Promise<never>
  private rejectAborted: (error: unknown) => void = () => {}

  constructor(
    private readonly source: Readable,
    private readonly parser: busboy.Busboy,
    private readonly limits: UploadLimits,
    private readonly receiver: UploadFiles<T>,
  ) {
    this.aborted = new Promise<never>((_, reject) => (this.rejectAborted = reject))
    this.aborted.catch(() => {})
  }

  /** Stops reading at the first refusal: the parser is torn down and the rest of the body drained. */
  abort(error: unknown) {
    if (this.failed) return
    this.failed = true
    this.failure = error
    this.source.unpipe(this.parser)
    this.parser.destroy()
    drainReadable(this.source)
    this.rejectAborted(error)
  }

  collectField(name: string, value: string, info: busboy.FieldInfo) {
    if (this.failed) return
    if (info.nameTruncated || info.valueTruncated)
      return this.abort(new AppError('A form field is too long', 'too_large'))
    const fileField = this.limits.fileFields.get(name)
    if (fileField) return this.abort(fileError(name, new AppError(fileField.notAFileMessage, 'invalid')))
    const nulAt = nulField({ [name]: value })
    if (nulAt !== null) return this.abort(new AppError(nulMessage(nulAt), 'invalid'))
    this.fields.set(name, value)
    this.fieldLists.set(name, [...(this.fieldLists.get(name) ?? []), value])
  }

  streamFile(name: string, stream: Readable, info: busboy.FileInfo) {
    const accepted = this.limits.fileFields.has(name)
    if (this.failed || !accepted || this.seenFiles.has(name)) {
      // Destroying the parser errors this stream; nobody else is listening to it.
      stream.on('error', () => {})
      stream.resume()
      if (!accepted) this.abort(new AppError(`Unexpected file field "${name.slice(0, 100)}"`, 'invalid'))
      else if (this.seenFiles.has(name)) this.abort(new AppError('Send one file per field', 'invalid'))
      return
    }
    this.seenFiles.add(name)
    // The receiver may start reading only after a step of its own; should the body fail before, the stream's error
    // is the parser's, already handled, and reaches the receiver when it reads.
    stream.on('error', () => {})
    this.work.push(
      this.receive(name, stream, info).then(
        (received) => {
          if (received !== null) this.files.set(name, received)
        },
        (error) => this.abort(fileError(name, error)),
      ),
    )
  }

  /** An empty file input sends a part without a file name: it counts as absent. */
  private async receive(name: string, stream: Readable, info: busboy.FileInfo): Promise<T | null> {
    if (!info.filename) {
      stream.resume()
      await finished(stream)
      return null
    }
    return this.receiver.receive(name, { stream, name: info.filename })
  }

  result(): MultipartUpload<T> {
    return {
      fields: Object.fromEntries(this.fields),
      fieldLists: Object.fromEntries(this.fieldLists),
      files: Object.fromEntries(this.files),
    }
  }

  /** Ends a failed read: once every file's work has settled, lets go of what was received; the error to throw. */
  async refusal(error: unknown) {
    this.abort(error)
    await Promise.allSettled(this.work)
    await this.receiver.discard([...this.files.values()])
    if (this.failure instanceof AppError || isFsError(this.failure)) return this.failure
    return new AppError(MALFORMED, 'invalid')
  }
}

/**
 * Reads a multipart/form-data request as it arrives: text fields into `fields` (and `fieldLists`), each accepted
 * file field handed to `options.files` as it streams, refused as soon as a limit is passed. On any refusal the files
 * received are let go (`discard`) and an {@link AppError} is thrown; otherwise the caller owns the files.
 */
export async function readMultipartUpload<T>(
  request: Request,
  options: MultipartUploadOptions<T>,
): Promise<MultipartUpload<T>> {
  const limits = uploadLimits(options)
  const contentType = multipartContentType(request, limits)
  const parser = multipartParser(request, contentType, limits)
  const source = Readable.fromWeb(request.body as unknown as NodeReadableStream<Uint8Array>)
  const reading = new UploadReading(source, parser, limits, options.files)

  parser.on('error', (error) => reading.abort(error))
  // The server cuts a body off past its limit (server/request-bodies.js): that is a 413, not a failure.
  source.on('error', (error) =>
    reading.abort(isBodyTooLarge(error) ? new AppError(UPLOAD_TOO_LARGE, 'too_large') : error),
  )
  const onClientAbort = () => reading.abort(new AppError('The upload was cancelled', 'invalid'))
  request.signal.addEventListener('abort', onClientAbort, { once: true })
  for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
    parser.on(limit, () => reading.abort(new AppError(TOO_MANY_PARTS, 'too_large')))
  }
  parser.on('field', (name, value, info) => reading.collectField(name, value, info))
  parser.on('file', (name, stream, info) => reading.streamFile(name, stream, info))

  const parsed = new Promise<void>((resolve) => parser.once('finish', resolve))
  source.pipe(parser)
  try {
    await Promise.race([parsed, reading.aborted])
    await Promise.race([Promise.all(reading.work), reading.aborted])
    if (reading.failed) throw reading.failure
    return reading.result()
  } catch (error) {
    throw await reading.refusal(error)
  } finally {
    request.signal.removeEventListener('abort', onClientAbort)
  }
}

/** An upload's text fields as a form, for `parseFormSubmission` (every value of a repeated field, in order). */
export function uploadFormData(upload: Pick<MultipartUpload<unknown>, 'fieldLists'>): FormData {
  const form = new FormData()
  for (const [name, values] of Object.entries(upload.fieldLists)) {
    for (const value of values) form.append(name, value)
  }
  return form
}
