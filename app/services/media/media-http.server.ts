/**
 * Serving stored media over HTTP: `/api/media/{file}` with its access rules (a live ad's media to everyone, any
 * other only to its advertiser and administrators), validators and caching, and `Range` for video seeking.
 */
import { createReadableStreamFromReadable } from '@remix-run/node'
import { getEventMediaAudience } from '#app/models/ads/event.server.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import { isLive } from '#app/models/ads/event-status.ts'
import {
  MEDIA_SAMPLE_DATE,
  mediaFileName,
  parseMediaFileName,
  type MediaName,
} from '#app/utils/media-types.ts'
import { getBusiness, hasRole } from '../accounts/auth.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { errorResponse } from '../http/http.server.ts'
import type { ByteRange } from './media-storage.server.ts'
import { mediaStorage } from './media.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'

/** Media of an ad that is not live may be seen by some and not others: no cache may keep or share a copy. */
const PRIVATE_MEDIA_CACHE = 'private, no-store'

/** The same answer for a file that does not exist and one the viewer may not see, so neither is revealed. */
function mediaNotFound() {
  return errorResponse(new AppError('Media not found', 'not_found'), {
    headers: { 'Cache-Control': PRIVATE_MEDIA_CACHE },
  })
}

/**
 * Who may get a stored file: everyone when its ad is live (a revision's file once it is the ad's); otherwise only its owner (the business in the session)
 * and administrators, so a draft's preview and the moderation queue still show it; null = nobody (404).
 * Files under the sample date belong to the business whose id they carry (the upload test page) and are never public.
 * The id in the name is the event's primary key, so this is one indexed read.
 */
async function mediaAudience(request: Request, media: MediaName): Promise<'everyone' | 'viewer' | null> {
  const id = parseId(media.id)
  if (id === null) return null
  let ownerID = id
  if (media.date !== MEDIA_SAMPLE_DATE) {
    const event = await getEventMediaAudience(id)
    if (!event) return null
    // A revision's files stay private until it is approved and they are the live ad's own.
    const adsOwn =
      media.revision === undefined ||
      [event.stillPhotoURL, event.videoURL].some((url) => mediaFileName(url) === media.baseName)
    if (adsOwn && isLive(event, platformToday())) return 'everyone'
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
 * GET/HEAD of `/api/media/{fileName}` (and `/uploads/{fileName}`): streams the file from storage with its type,
 * length, validators and caching, honours `Range` (206/416), `If-None-Match`/`If-Modified-Since` (304) and
 * `If-Range`; 404 JSON for anything unknown or not for this viewer (see {@link mediaAudience}).
 */
export async function mediaResponse(request: Request, fileName: string | undefined): Promise<Response> {
  const media = fileName === undefined ? null : parseMediaFileName(fileName)
  if (!media) return mediaNotFound()
  const audience = await mediaAudience(request, media)
  if (!audience) return mediaNotFound()
  const store = mediaStorage()
  const object = await store.head(media.key)
  if (!object) return mediaNotFound()
  const etag = `"${object.size.toString(36)}-${object.version}"`
  const lastModified = object.modified.toUTCString()
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
    : Number.isFinite(ifModifiedSince) &&
      Math.floor(object.modified.getTime() / 1000) * 1000 <= ifModifiedSince
  if (notModified) return new Response(null, { status: 304, headers })

  const ifRange = request.headers.get('if-range')
  const rangeAllowed = !ifRange || ifRange === etag || ifRange === lastModified
  const range = rangeAllowed ? parseRange(request.headers.get('range'), object.size) : null
  if (range === 'unsatisfiable') {
    headers.set('Content-Range', `bytes */${object.size}`)
    return new Response(null, { status: 416, headers })
  }

  const { start, end } = range ?? { start: 0, end: object.size - 1 }
  const length = Math.max(0, end - start + 1)
  headers.set('Content-Type', media.contentType)
  headers.set('Content-Length', String(length))
  if (range) headers.set('Content-Range', `bytes ${start}-${end}/${object.size}`)
  const status = range ? 206 : 200
  if (request.method === 'HEAD' || length === 0) return new Response(null, { status, headers })

  // Replaced since the head: the validators above would be wrong, so this answer is not given.
  const content = await store.get(media.key, { range: { start, end }, version: object.version })
  if (!content) return mediaNotFound()
  const body = content.body
  // The Node adapter keeps reading a body to its end after the client has gone (every video seek aborts a
  // request); destroying the source ends the body early and releases its file or connection at once.
  const stopReading = () => body.destroy()
  if (request.signal.aborted) stopReading()
  request.signal.addEventListener('abort', stopReading, { once: true })
  body.once('close', () => request.signal.removeEventListener('abort', stopReading))
  return new Response(createReadableStreamFromReadable(body), { status, headers })
}
