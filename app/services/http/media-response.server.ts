/**
 * The answer to a request for a stored media file (`/api/media/{file}`, `/uploads/{file}`): its type, length,
 * validators and caching, `If-None-Match`/`If-Modified-Since` (304), `Range` and `If-Range` (206/416), HEAD, and a
 * body that stops being read when the client goes away. Whether the viewer may see the file is decided before, by
 * the media service (`viewableMedia`); this only answers for what it was given.
 */
import type { Readable } from 'node:stream'
import { createReadableStreamFromReadable } from '@remix-run/node'
import { AppError } from '#app/utils/app-error.ts'
import { getBusiness, hasRole } from './auth.server.ts'
import { errorResponse } from './http.server.ts'

export interface ByteRange {
  start: number
  end: number
}

/** A stored file the viewer may see, as its answer needs it. */
export interface ServedMedia {
  contentType: string
  size: number
  modified: Date
  /** Changes whenever the file is replaced: part of the ETag. */
  version: string
  /** Everyone may see it, so shared caches may keep it; otherwise it is for this viewer alone. */
  isPublic: boolean
  /** The bytes of `range`; null when the file has been replaced or removed since it was described. */
  read(range: ByteRange): Promise<Readable | null>
}

/** Media of an ad that is not live may be seen by some and not others: no cache may keep or share a copy. */
const PRIVATE_MEDIA_CACHE = 'private, no-store'

/** The same answer for a file that does not exist and one the viewer may not see, so neither is revealed. */
function mediaNotFound() {
  return errorResponse(new AppError('Media not found', 'not_found'), {
    headers: { 'Cache-Control': PRIVATE_MEDIA_CACHE },
  })
}

/**
 * Who asks for a file, as the media service's access rule needs it: read from the session only when the file is
 * not public (most requests are for a live ad's media, which need neither).
 */
export function mediaViewer(request: Request) {
  return {
    businessID: async () => (await getBusiness(request))?.businessID ?? null,
    isAdmin: () => hasRole(request, 'admin'),
  }
}

/**
 * Keys are reused when media is replaced (an event keeps its name; the upload test page rewrites its sample file),
 * so only a versioned URL (`?v=`, as the stored media's URL carries) may be cached for good; a bare name is cached
 * for an hour. Only for media everyone may see (a live ad's).
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

function isNotModified(request: Request, media: ServedMedia, etag: string) {
  const ifNoneMatch = request.headers.get('if-none-match')
  if (ifNoneMatch) return etagMatches(ifNoneMatch, etag)
  const ifModifiedSince = Date.parse(request.headers.get('if-modified-since') ?? '')
  return (
    Number.isFinite(ifModifiedSince) && Math.floor(media.modified.getTime() / 1000) * 1000 <= ifModifiedSince
  )
}

/**
 * The Node adapter keeps reading a body to its end after the client has gone (every video seek aborts a request);
 * destroying the source ends the body early and releases its file or connection at once.
 */
function stopReadingOnAbort(request: Request, body: Readable) {
  const stopReading = () => body.destroy()
  if (request.signal.aborted) stopReading()
  request.signal.addEventListener('abort', stopReading, { once: true })
  body.once('close', () => request.signal.removeEventListener('abort', stopReading))
}

/**
 * GET/HEAD of a media file: streams it with its type, length, validators and caching, honours `Range` (206/416),
 * `If-None-Match`/`If-Modified-Since` (304) and `If-Range`; 404 JSON when `media` is null (unknown, or not for this
 * viewer).
 */
export async function mediaFileResponse(request: Request, media: ServedMedia | null): Promise<Response> {
  if (!media) return mediaNotFound()
  const etag = `"${media.size.toString(36)}-${media.version}"`
  const lastModified = media.modified.toUTCString()
  const headers = new Headers({
    'Cache-Control': media.isPublic ? publicCacheControl(request) : PRIVATE_MEDIA_CACHE,
    ETag: etag,
    'Last-Modified': lastModified,
    'Accept-Ranges': 'bytes',
    'X-Content-Type-Options': 'nosniff',
    // Opened directly, the file is its own document: nothing in it may run or load anything.
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  })
  if (isNotModified(request, media, etag)) return new Response(null, { status: 304, headers })

  const ifRange = request.headers.get('if-range')
  const rangeAllowed = !ifRange || ifRange === etag || ifRange === lastModified
  const range = rangeAllowed ? parseRange(request.headers.get('range'), media.size) : null
  if (range === 'unsatisfiable') {
    headers.set('Content-Range', `bytes */${media.size}`)
    return new Response(null, { status: 416, headers })
  }

  const { start, end } = range ?? { start: 0, end: media.size - 1 }
  const length = Math.max(0, end - start + 1)
  headers.set('Content-Type', media.contentType)
  headers.set('Content-Length', String(length))
  if (range) headers.set('Content-Range', `bytes ${start}-${end}/${media.size}`)
  const status = range ? 206 : 200
  if (request.method === 'HEAD' || length === 0) return new Response(null, { status, headers })

  // Replaced since it was described: the validators above would be wrong, so this answer is not given.
  const body = await media.read({ start, end })
  if (!body) return mediaNotFound()
  stopReadingOnAbort(request, body)
  return new Response(createReadableStreamFromReadable(body), { status, headers })
}
