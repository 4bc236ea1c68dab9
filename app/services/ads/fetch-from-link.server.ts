/**
 * The outbound HTTP client of "Fill from a link": reads a page or an .ics file, and the photo it names, from an
 * address an advertiser typed, without letting that address reach into the server's own network
 * (docs/decisions/047-fill-from-a-link.md). Every hop (the link and each of at most 3 redirects) is checked as a
 * URL (http(s), ports 80/443) and its host name is resolved by our own `lookup`, which refuses a name with any
 * private, loopback, link-local, shared or metadata address and hands the connection exactly the addresses it
 * checked, so a second answer of the DNS cannot change where it goes. One deadline covers the whole read; bodies
 * are capped while they stream, and what they are is told from their bytes.
 */
import dns from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import net from 'node:net'
import { Transform, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import zlib from 'node:zlib'
import {
  checkedLinkUrl,
  isAllowedHost,
  isPublicAddress,
  LINK_TEXT,
  MAX_LINK_REDIRECTS,
} from '#app/models/ads/link-address-rules.ts'
import { AppError } from '#app/utils/app-error.ts'
import { checkedUpload } from '../media/media-content.server.ts'
import { getEnv } from '../platform/env.server.ts'

/** The whole read of a link (its redirects, the page and the photo) ends after this. */
export const LINK_DEADLINE_MS = 5000
export const LINK_PAGE_MAX_BYTES = 2 * 1024 * 1024

const USER_AGENT = 'EventShout-LinkReader/1.0 (+fills an event ad from its page)'
const REDIRECTS = new Set([301, 302, 303, 307, 308])

export const LINK_REFUSED_CODE = 'link_refused'

/** A link that cannot be read, and why, at the form's link field. */
export function linkRefusal(message: string) {
  return new AppError(message, 'invalid', {
    code: LINK_REFUSED_CODE,
    fieldErrors: { linkAddress: [message] },
  })
}

export interface LinkReadOptions {
  /** Aborted when the read must stop (the deadline); see {@link linkDeadline}. */
  signal: AbortSignal
  /** Hosts whose port and addresses are not checked: LINK_FETCH_ALLOW_HOSTS, which only tests set. */
  allowedHosts?: readonly string[]
}

/** The signal of a read's deadline, {@link LINK_DEADLINE_MS} unless a test sets a shorter one. */
export function linkDeadline(ms = LINK_DEADLINE_MS) {
  return AbortSignal.timeout(ms)
}

/**
 * The resolver every connection uses: all of the name's addresses, refused unless each is public (a host on the
 * allow-list excepted), and only those addresses given to the socket.
 */
function checkedLookup(allowed: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family, hints: options.hints }, (error, found) => {
      if (error) return callback(error, '', 0)
      if (found.length === 0 || (!allowed && found.some((a) => !isPublicAddress(a.address)))) {
        return callback(linkRefusal(LINK_TEXT.privateAddress), '', 0)
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, found)
      callback(null, found[0]!.address, found[0]!.family)
    })
  }
}

/** What a failed connection or read means for the advertiser. */
function readFailure(error: unknown, signal: AbortSignal): AppError {
  if (error instanceof AppError) return error
  if (signal.aborted) return linkRefusal(LINK_TEXT.slow)
  const code = (error as { code?: string } | null)?.code
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA')
    return linkRefusal(LINK_TEXT.notFound)
  return linkRefusal(LINK_TEXT.unreachable)
}

/** One request, no redirect followed: its answer's head, with the body still to read. */
function requestOnce(url: URL, { signal, allowedHosts = [] }: LinkReadOptions, accept: string) {
  const allowed = isAllowedHost(url, allowedHosts)
  const host = url.hostname.replace(/^\[|\]$/g, '')
  // An address typed as the host is connected to without a lookup, so it is checked here.
  if (net.isIP(host) && !allowed && !isPublicAddress(host)) throw linkRefusal(LINK_TEXT.privateAddress)
  const client = url.protocol === 'https:' ? https : http
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = client.request(url, {
      method: 'GET',
      agent: false,
      lookup: checkedLookup(allowed),
      signal,
      headers: {
        'User-Agent': USER_AGENT,
        Accept: accept,
        'Accept-Encoding': 'gzip, deflate, br',
      },
    })
    request.once('response', resolve)
    request.once('error', reject)
    request.end()
  })
}

/**
 * Follows the link through at most {@link MAX_LINK_REDIRECTS} redirects, each checked as the link was: the final
 * answer (2xx) and its address. A loop, a refused hop, an error status or the deadline is the refusal that says so.
 */
async function openLink(link: URL, options: LinkReadOptions, accept: string) {
  const allowedHosts = options.allowedHosts ?? []
  const seen = new Set<string>()
  let url = link
  for (let hop = 0; ; hop++) {
    seen.add(url.href)
    let response: http.IncomingMessage
    try {
      response = await requestOnce(url, { ...options, allowedHosts }, accept)
    } catch (error) {
      throw readFailure(error, options.signal)
    }
    const status = response.statusCode ?? 0
    if (REDIRECTS.has(status)) {
      response.resume()
      const location = response.headers.location
      if (!location) throw linkRefusal(LINK_TEXT.status(status))
      let next: URL
      try {
        next = new URL(location, url)
      } catch {
        throw linkRefusal(LINK_TEXT.notALink)
      }
      if (seen.has(next.href)) throw linkRefusal(LINK_TEXT.redirectLoop)
      if (hop + 1 > MAX_LINK_REDIRECTS) throw linkRefusal(LINK_TEXT.tooManyRedirects)
      const checked = checkedLinkUrl(next.href, { allowedHosts })
      if ('problem' in checked) throw linkRefusal(checked.problem)
      url = checked.url
      continue
    }
    if (status < 200 || status > 299) {
      response.resume()
      throw linkRefusal(LINK_TEXT.status(status))
    }
    return { response, url }
  }
}

/** The body as sent, decompressed when the server compressed it (the caps apply to what it decompresses to). */
function decodedBody(response: http.IncomingMessage): Readable {
  switch ((response.headers['content-encoding'] ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return response.pipe(zlib.createGunzip())
    case 'deflate':
      return response.pipe(zlib.createInflate())
    case 'br':
      return response.pipe(zlib.createBrotliDecompress())
    default:
      return response
  }
}

/** Reads a body through `check` (which throws past its cap), all of it, before the deadline. */
async function readBody(
  response: http.IncomingMessage,
  check: Transform,
  signal: AbortSignal,
): Promise<Buffer> {
  const chunks: Buffer[] = []
  const collect = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk)
      callback()
    },
  })
  try {
    await pipeline(decodedBody(response), check, collect, { signal })
  } catch (error) {
    response.destroy()
    throw readFailure(error, signal)
  }
  return Buffer.concat(chunks)
}

function cappedAt(maxBytes: number, message: string) {
  let size = 0
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length
      if (size > maxBytes) return callback(linkRefusal(message))
      callback(null, chunk)
    },
  })
}

export type LinkDocumentKind = 'html' | 'icalendar'

/** What the body is, from its first bytes: an iCalendar file, an HTML page, or neither. */
export function sniffLinkDocument(text: string): LinkDocumentKind | null {
  const head = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 1024)
  if (/^BEGIN:VCALENDAR\b/i.test(head)) return 'icalendar'
  if (
    /^(?:<!doctype\s+html|<html|<head|<meta|<title|<body|<!--|<script|<link|<\?xml[^>]*>\s*<html)/i.test(head)
  )
    return 'html'
  return null
}

function charsetOf(contentType: string | undefined) {
  const match = /charset\s*=\s*"?([\w-]+)/i.exec(contentType ?? '')
  return match?.[1] ?? 'utf-8'
}

function decodeText(bytes: Buffer, contentType: string | undefined) {
  try {
    return new TextDecoder(charsetOf(contentType)).decode(bytes)
  } catch {
    return new TextDecoder('utf-8').decode(bytes)
  }
}

export interface LinkDocument {
  /** Where the document was read, after redirects (relative links in it are read from here). */
  url: URL
  kind: LinkDocumentKind
  text: string
}

/** The allow-list as configured (empty unless a test set LINK_FETCH_ALLOW_HOSTS). */
export function configuredAllowedHosts(): readonly string[] {
  return getEnv().linkFetchAllowHosts
}

/**
 * Reads the page or .ics file at `address` (a typed link) within the deadline, at most {@link LINK_PAGE_MAX_BYTES}.
 * Throws the link's refusal ({@link linkRefusal}) when it cannot be read or is neither.
 */
export async function fetchLinkDocument(
  address: string,
  { signal, allowedHosts = configuredAllowedHosts() }: Partial<LinkReadOptions> & { signal: AbortSignal },
): Promise<LinkDocument> {
  const checked = checkedLinkUrl(address, { allowedHosts })
  if ('problem' in checked) throw linkRefusal(checked.problem)
  const accept = 'text/html,application/xhtml+xml,text/calendar;q=0.9,*/*;q=0.5'
  const { response, url } = await openLink(checked.url, { signal, allowedHosts }, accept)
  const declared = Number(response.headers['content-length'])
  if (Number.isFinite(declared) && declared > LINK_PAGE_MAX_BYTES) {
    response.destroy()
    throw linkRefusal(LINK_TEXT.tooLarge)
  }
  const bytes = await readBody(response, cappedAt(LINK_PAGE_MAX_BYTES, LINK_TEXT.tooLarge), signal)
  const text = decodeText(bytes, response.headers['content-type'])
  const kind = sniffLinkDocument(text)
  if (!kind) throw linkRefusal(LINK_TEXT.notAnEventPage)
  return { url, kind, text }
}

export interface LinkPhoto {
  bytes: Buffer
  /** The type its bytes are (the upload check's sniffing). */
  mime: string
  /** A file name for the form: the last part of its address, or `photo.<ext>`. */
  name: string
}

/**
 * Reads the photo at `imageUrl` through the same checks as a link, capped and sniffed as a photo upload is (5 MB,
 * JPEG, PNG, WebP or GIF by its bytes). Throws an AppError saying why it cannot be used.
 */
export async function fetchLinkPhoto(
  imageUrl: string,
  { signal, allowedHosts = configuredAllowedHosts() }: Partial<LinkReadOptions> & { signal: AbortSignal },
): Promise<LinkPhoto> {
  const checked = checkedLinkUrl(imageUrl, { allowedHosts })
  if ('problem' in checked) throw linkRefusal(checked.problem)
  const accept = 'image/jpeg,image/png,image/webp,image/gif;q=0.9'
  const { response, url } = await openLink(checked.url, { signal, allowedHosts }, accept)
  const upload = checkedUpload('photo')
  const bytes = await readBody(response, upload.stream, signal)
  const type = upload.type()
  if (!type || bytes.length === 0) throw new AppError('The photo at that link is empty.', 'invalid')
  const last = (url.pathname.split('/').pop() ?? '').replace(/%[0-9a-f]{2}|[^\w.-]+/gi, '-')
  const name = /\.(?:jpe?g|png|webp|gif)$/i.test(last) ? last.slice(-100) : `photo.${type.ext}`
  return { bytes, mime: type.mime, name }
}
