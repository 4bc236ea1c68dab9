import { z } from 'zod'
import { BODY_MAX_BYTES, JSON_BODY_MAX_BYTES } from '#app/constants.ts'
import { BODY_FIELD, NUL_MESSAGE, nulField, nulMessage } from '#app/models/platform/input-rules.ts'
import { AppError } from '#app/utils/app-error.ts'

/**
 * The one way the app reads a JSON, form or text body: bounded before it is read (413 past the limit, counting the
 * bytes that arrive when no Content-Length was sent), refused when it cannot be parsed or holds a NUL character
 * (400): a thrown AppError with that status, never a 500.
 */

export const INVALID_JSON_MESSAGE = 'The request body is not valid JSON'
export const FORM_CONTENT_TYPE_MESSAGE =
  'Send the form as application/x-www-form-urlencoded or multipart/form-data (with a boundary)'

/** How the server's body limit (server/request-bodies.js) marks the error of a body cut off past its limit. */
export function isBodyTooLarge(error: unknown) {
  return (error as { code?: unknown } | null)?.code === 'BODY_TOO_LARGE'
}

function tooLarge(maxBytes: number): AppError {
  const limit = maxBytes >= 1024 * 1024 ? `${maxBytes / (1024 * 1024)} MB` : `${maxBytes / 1024} KB`
  return new AppError(`The request body is too large (at most ${limit}).`, 'too_large')
}

/** The body's bytes, at most `maxBytes`; throws 413 as soon as more is declared or arrives. */
export async function readBodyBytes(
  request: Request,
  maxBytes = BODY_MAX_BYTES,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get('Content-Length') ?? Number.NaN)
  if (Number.isFinite(declared) && declared > maxBytes) {
    await request.body?.cancel().catch(() => {})
    throw tooLarge(maxBytes)
  }
  if (!request.body) return new Uint8Array()
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > maxBytes) {
        await reader.cancel().catch(() => {})
        throw tooLarge(maxBytes)
      }
      chunks.push(value)
    }
  } catch (error) {
    if (error instanceof AppError) throw error
    if (isBodyTooLarge(error)) throw tooLarge(maxBytes)
    throw new AppError('The request body could not be read', 'invalid')
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

/** The body as UTF-8 text (a signed webhook's raw payload), bounded; invalid UTF-8 is a 400. */
export async function readBodyText(request: Request, maxBytes = BODY_MAX_BYTES): Promise<string> {
  const bytes = await readBodyBytes(request, maxBytes)
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new AppError('The request body is not valid UTF-8 text', 'invalid')
  }
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i

export function isJsonRequest(request: Request) {
  return JSON_TYPE.test(request.headers.get('Content-Type') ?? '')
}

function zodMessage(error: z.ZodError) {
  return error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')
}

export const NOT_JSON_MESSAGE = 'must be JSON'

/**
 * JSON text parsed (a request body, or a form field that carries JSON, named `field`); a string that is not JSON is
 * an issue, and so is a NUL character in any of its texts (escaped as \u0000 it passes the checks of the raw
 * field), named by the field it is in (`field` when that is the value itself or an item of it): PostgreSQL cannot
 * store it.
 */
export function jsonText(field = BODY_FIELD) {
  return z.string().transform((text, ctx): unknown => {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      ctx.addIssue({ code: 'custom', message: NOT_JSON_MESSAGE })
      return z.NEVER
    }
    const nulAt = nulField(value)
    if (nulAt === null) return value
    ctx.addIssue({ code: 'custom', message: nulMessage(nulAt === BODY_FIELD ? field : nulAt) })
    return z.NEVER
  })
}

export const jsonTextSchema = jsonText()

export const JSON_CONTENT_TYPE_MESSAGE = 'Send a JSON body (Content-Type: application/json)'

/**
 * The one JSON reader: a body validated by `schema`. 415 without a JSON Content-Type, 413 past the limit, 400 for
 * broken JSON, a NUL character, or a value the schema refuses (`invalidMessage`, or the schema's own messages).
 */
export async function readJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  { invalidMessage, maxBytes = BODY_MAX_BYTES }: { invalidMessage?: string; maxBytes?: number } = {},
): Promise<z.output<S>> {
  if (!isJsonRequest(request)) {
    await request.body?.cancel().catch(() => {})
    throw new AppError(JSON_CONTENT_TYPE_MESSAGE, 'unsupported_media_type')
  }
  const parsed = jsonTextSchema.safeParse(await readBodyText(request, maxBytes))
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message
    throw new AppError(message?.includes(NUL_MESSAGE) ? message : INVALID_JSON_MESSAGE, 'invalid')
  }
  const body = parsed.data
  const checked = schema.safeParse(body)
  if (!checked.success) throw new AppError(invalidMessage ?? zodMessage(checked.error), 'invalid')
  return checked.data
}

/** A JSON object body (the calls that take a record's fields), or a thrown 400/413/415. */
export function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  return readJsonBody(request, z.record(z.string(), z.unknown()), {
    invalidMessage: 'The request body must be a JSON object',
    maxBytes: JSON_BODY_MAX_BYTES,
  })
}

const FORM_TYPE = /^(?:application\/x-www-form-urlencoded\s*(?:;|$)|multipart\/form-data\s*;.*\bboundary=)/i

/**
 * A form post (url-encoded, or multipart with text fields only): 415 for any other Content-Type (text/plain,
 * application/json, multipart without a boundary), 413 past the limit, 400 when it cannot be parsed or a field
 * holds a NUL character.
 */
export async function readFormData(request: Request, maxBytes = BODY_MAX_BYTES): Promise<FormData> {
  const type = request.headers.get('Content-Type') ?? ''
  if (!FORM_TYPE.test(type)) {
    await request.body?.cancel().catch(() => {})
    throw new AppError(FORM_CONTENT_TYPE_MESSAGE, 'unsupported_media_type')
  }
  const bytes = await readBodyBytes(request, maxBytes)
  let form: FormData
  try {
    form = await new Response(bytes, { headers: { 'Content-Type': type } }).formData()
  } catch {
    throw new AppError('The form data could not be read', 'invalid')
  }
  for (const [name, value] of form) {
    const field = nulField({ [name]: value })
    if (field !== null) throw new AppError(nulMessage(field), 'invalid')
  }
  return form
}

/** A copy of a request whose form body was already read, for code that reads `request.formData()` itself. */
export function withFormBody(request: Request, form: FormData): Request {
  const body = new URLSearchParams()
  for (const [name, value] of form) if (typeof value === 'string') body.append(name, value)
  const headers = new Headers(request.headers)
  headers.set('Content-Type', 'application/x-www-form-urlencoded')
  headers.delete('Content-Length')
  return new Request(request.url, { method: request.method, headers, body, signal: request.signal })
}

export const JSON_OR_FORM_CONTENT_TYPE_MESSAGE = 'Send the fields as JSON (application/json) or as a form'

/**
 * A body that may come as JSON (validated by `schema`) or as a form post, read by the reader for its Content-Type;
 * 415 for any other type. Each reader's own limits and answers apply.
 */
export async function readJsonOrFormBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  options: { invalidMessage?: string; maxBytes?: number } = {},
): Promise<{ json: z.output<S>; form?: never } | { form: FormData; json?: never }> {
  if (isJsonRequest(request)) return { json: await readJsonBody(request, schema, options) }
  if (!FORM_TYPE.test(request.headers.get('Content-Type') ?? '')) {
    await request.body?.cancel().catch(() => {})
    throw new AppError(JSON_OR_FORM_CONTENT_TYPE_MESSAGE, 'unsupported_media_type')
  }
  return { form: await readFormData(request, options.maxBytes) }
}
