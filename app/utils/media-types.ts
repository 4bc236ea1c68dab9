/**
 * Pure media rules shared by the server and the UI: content sniffing, the storage key convention
 * (`images|videos/yyyy-mm/yyyy-mm-dd_ID.ext`), media URLs and the photo srcset.
 */
import type { MediaType } from '#app/constants.ts'

export const PHOTO_TYPE_MESSAGE = 'Please select an image file'
export const VIDEO_TYPE_MESSAGE = 'Please select a video file'
export const PHOTO_SIZE_MESSAGE = 'File size must be less than 5MB'
export const VIDEO_SIZE_MESSAGE = 'Video file must be under 50MB'
/** An upload the server could not store (its disk full, its media store unreachable): not the advertiser's doing. */
export const MEDIA_STORE_FAILED_MESSAGE = 'The server could not store the file. Please try again later.'
/** The `code` of that answer, which the scripted form shows as it is. */
export const MEDIA_STORE_FAILED_CODE = 'media_store_failed'

export function typeMessage(kind: MediaType) {
  return kind === 'photo' ? PHOTO_TYPE_MESSAGE : VIDEO_TYPE_MESSAGE
}

export function sizeMessage(kind: MediaType) {
  return kind === 'photo' ? PHOTO_SIZE_MESSAGE : VIDEO_SIZE_MESSAGE
}

export const MEDIA_URL_PREFIX = '/api/media/'
/** Public upload placeholder names use a fixed sample date with the business id as the id part. */
export const MEDIA_SAMPLE_DATE = '2000-01-01'

/** Photos are stored as WebP no wider than this, plus the narrower copies below for `srcset`. */
export const PHOTO_MAX_WIDTH = 1600
export const PHOTO_SRCSET_WIDTHS = [480, 960] as const
export type PhotoVariantWidth = (typeof PHOTO_SRCSET_WIDTHS)[number]

/** How many leading bytes of an upload decide its type. */
export const SNIFF_BYTES = 4096

export interface SniffedType {
  kind: MediaType
  mime: string
  ext: string
}

const JPEG: SniffedType = { kind: 'photo', mime: 'image/jpeg', ext: 'jpg' }
const PNG: SniffedType = { kind: 'photo', mime: 'image/png', ext: 'png' }
const GIF: SniffedType = { kind: 'photo', mime: 'image/gif', ext: 'gif' }
const WEBP: SniffedType = { kind: 'photo', mime: 'image/webp', ext: 'webp' }
const MP4: SniffedType = { kind: 'video', mime: 'video/mp4', ext: 'mp4' }
const WEBM: SniffedType = { kind: 'video', mime: 'video/webm', ext: 'webm' }
const OGG: SniffedType = { kind: 'video', mime: 'video/ogg', ext: 'ogv' }

function startsWith(bytes: Uint8Array, signature: ArrayLike<number>, offset = 0) {
  if (bytes.length < offset + signature.length) return false
  for (let i = 0; i < signature.length; i++) {
    if (bytes[offset + i] !== signature[i]) return false
  }
  return true
}

function ascii(text: string) {
  return Array.from(text, (c) => c.charCodeAt(0))
}

function readAscii(bytes: Uint8Array, offset: number, length: number) {
  if (bytes.length < offset + length) return ''
  return String.fromCharCode(...bytes.subarray(offset, offset + length))
}

function u32be(bytes: Uint8Array, offset: number) {
  return (
    ((bytes[offset]! << 24) | (bytes[offset + 1]! << 16) | (bytes[offset + 2]! << 8) | bytes[offset + 3]!) >>>
    0
  )
}

/**
 * Markup a browser could run if the file were ever rendered as a document. Photos are re-encoded anyway and media
 * is served with `nosniff`, so this only refuses obvious polyglots early; the patterns are long enough that they
 * do not turn up by chance in compressed image or video data.
 */
const MARKUP = ['<script', '<html', '<!doctype', '<iframe', '<body', '<svg', '<?php', '<object', '<embed']

function containsMarkup(bytes: Uint8Array) {
  let text = ''
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!
    text += String.fromCharCode(b >= 65 && b <= 90 ? b + 32 : b)
  }
  return MARKUP.some((pattern) => text.includes(pattern))
}

/** JPEG: SOI followed by a real marker (APPn, DQT, SOFn, DHT, DRI or COM), not just any bytes. */
function isJpeg(b: Uint8Array) {
  if (!startsWith(b, [0xff, 0xd8, 0xff]) || b.length < 4) return false
  const marker = b[3]!
  return (
    (marker >= 0xe0 && marker <= 0xef) ||
    marker === 0xdb ||
    marker === 0xc4 ||
    marker === 0xdd ||
    marker === 0xfe ||
    (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc8 && marker !== 0xcc)
  )
}

/** PNG: signature, then the mandatory 13-byte IHDR chunk first. */
function isPng(b: Uint8Array) {
  return (
    startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) &&
    startsWith(b, [0, 0, 0, 13], 8) &&
    startsWith(b, ascii('IHDR'), 12)
  )
}

/** GIF: header, non-empty logical screen, and the block after the colour table is a real GIF block. */
function isGif(b: Uint8Array) {
  if (!startsWith(b, ascii('GIF87a')) && !startsWith(b, ascii('GIF89a'))) return false
  if (b.length < 13) return false
  const width = b[6]! | (b[7]! << 8)
  const height = b[8]! | (b[9]! << 8)
  if (width === 0 || height === 0) return false
  const packed = b[10]!
  const colourTable = packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0
  const next = b[13 + colourTable]
  return next === 0x21 || next === 0x2c || next === 0x3b
}

function isWebp(b: Uint8Array) {
  if (!startsWith(b, ascii('RIFF')) || !startsWith(b, ascii('WEBP'), 8)) return false
  const chunk = readAscii(b, 12, 4)
  return chunk === 'VP8 ' || chunk === 'VP8L' || chunk === 'VP8X'
}

/** ISO BMFF brands of playable MP4 video; HEIF/AVIF images share the `ftyp` box and must not pass as video. */
const MP4_BRANDS = new Set([
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'mp41',
  'mp42',
  'mp71',
  'avc1',
  'M4V ',
  'M4VH',
  'M4VP',
  'dash',
  'msnv',
  'ndas',
  'qt  ',
  'f4v ',
  'mmp4',
])
const IMAGE_BRANDS = new Set([
  'heic',
  'heix',
  'hevc',
  'hevx',
  'heim',
  'heis',
  'mif1',
  'msf1',
  'avif',
  'avis',
  'jpeg',
])

function isMp4(b: Uint8Array) {
  if (b.length < 16 || readAscii(b, 4, 4) !== 'ftyp') return false
  const size = u32be(b, 0)
  if (size < 16 || size > 1024 || size % 4 !== 0) return false
  const major = readAscii(b, 8, 4)
  if (IMAGE_BRANDS.has(major)) return false
  let playable = MP4_BRANDS.has(major)
  for (let offset = 16; offset + 4 <= Math.min(size, b.length); offset += 4) {
    const brand = readAscii(b, offset, 4)
    if (IMAGE_BRANDS.has(brand) && !playable) return false
    if (MP4_BRANDS.has(brand)) playable = true
  }
  if (!playable) return false
  // When the next box header is in view, it must look like one (four printable type characters).
  if (b.length >= size + 8) {
    const type = readAscii(b, size + 4, 4)
    if (!/^[a-z0-9 ]{4}$/i.test(type)) return false
  }
  return true
}

/** WebM: an EBML header whose DocType is `webm` (Matroska `.mkv` is not reliably playable in browsers). */
function isWebm(b: Uint8Array) {
  if (!startsWith(b, [0x1a, 0x45, 0xdf, 0xa3])) return false
  const end = Math.min(b.length, 64)
  for (let i = 4; i + 3 < end; i++) {
    if (b[i] === 0x42 && b[i + 1] === 0x82) {
      const sizeByte = b[i + 2]!
      if ((sizeByte & 0x80) === 0) return false
      const length = sizeByte & 0x7f
      return readAscii(b, i + 3, length) === 'webm'
    }
  }
  return false
}

/** Ogg: the first page starts a stream (BOS) carrying Theora or VP8 video, or a Skeleton index. */
function isOggVideo(b: Uint8Array) {
  if (!startsWith(b, ascii('OggS')) || b.length < 28) return false
  if (b[4] !== 0 || (b[5]! & 0x02) === 0) return false
  const packet = 27 + b[26]!
  return (
    startsWith(b, [0x80, ...ascii('theora')], packet) ||
    startsWith(b, ascii('fishead\0'), packet) ||
    startsWith(b, ascii('OVP80'), packet)
  )
}

/**
 * The media type of an upload, from its first bytes (at most {@link SNIFF_BYTES}); null when it is none of the
 * accepted types. The file name and the browser's claimed type are never consulted.
 */
export function sniffMedia(head: Uint8Array): SniffedType | null {
  const bytes = head.subarray(0, SNIFF_BYTES)
  if (bytes.length < 12 || containsMarkup(bytes)) return null
  if (isJpeg(bytes)) return JPEG
  if (isPng(bytes)) return PNG
  if (isGif(bytes)) return GIF
  if (isWebp(bytes)) return WEBP
  if (isMp4(bytes)) return MP4
  if (isWebm(bytes)) return WEBM
  if (isOggVideo(bytes)) return OGG
  return null
}

export const MEDIA_FOLDERS = { photo: 'images', video: 'videos' } as const

/** What a stored file's extension means; anything else is never served. */
export const MEDIA_EXTENSIONS: Record<string, { kind: MediaType; contentType: string }> = {
  webp: { kind: 'photo', contentType: 'image/webp' },
  jpg: { kind: 'photo', contentType: 'image/jpeg' },
  png: { kind: 'photo', contentType: 'image/png' },
  gif: { kind: 'photo', contentType: 'image/gif' },
  mp4: { kind: 'video', contentType: 'video/mp4' },
  webm: { kind: 'video', contentType: 'video/webm' },
  ogg: { kind: 'video', contentType: 'video/ogg' },
  ogv: { kind: 'video', contentType: 'video/ogg' },
}

const DATE = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/
const ID = /^[1-9]\d{0,11}$/
const FILE_NAME =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])_([1-9]\d{0,11})(?:-r([1-9]\d{0,11}))?(?:-(\d+)w)?\.(webp|jpg|png|gif|mp4|webm|ogg|ogv)$/

export function isMediaDate(value: string) {
  const match = DATE.exec(value)
  if (!match) return false
  const date = new Date(`${value}T00:00:00Z`)
  return date.getUTCDate() === Number(match[3])
}

export interface MediaName {
  /** `images/2024-05/2024-05-01_12.webp` */
  key: string
  fileName: string
  kind: MediaType
  contentType: string
  /** The yyyy-mm-dd date part. */
  date: string
  id: string
  /** Set for the media of a revision of a live ad (`…_ID-rN.ext`): private until the revision is approved. */
  revision?: string
  /** Set for the narrower srcset copies of a photo. */
  width?: PhotoVariantWidth
  /** The file name without the srcset width: the name of the photo or video a copy belongs to. */
  baseName: string
}

/** Reads a stored file name back into its key; null for anything that is not exactly a name this code writes. */
export function parseMediaFileName(fileName: string): MediaName | null {
  if (fileName.length > 64) return null
  const match = FILE_NAME.exec(fileName)
  if (!match) return null
  const [, year, month, day, id, revision, width, ext] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string | undefined,
    string | undefined,
    string,
  ]
  const date = `${year}-${month}-${day}`
  if (!isMediaDate(date)) return null
  const type = MEDIA_EXTENSIONS[ext]
  if (!type) return null
  let variant: PhotoVariantWidth | undefined
  if (width !== undefined) {
    variant = PHOTO_SRCSET_WIDTHS.find((w) => String(w) === width)
    if (variant === undefined || type.kind !== 'photo') return null
  }
  return {
    key: `${MEDIA_FOLDERS[type.kind]}/${year}-${month}/${fileName}`,
    fileName,
    kind: type.kind,
    contentType: type.contentType,
    date,
    id,
    revision,
    width: variant,
    baseName: `${date}_${id}${revision ? `-r${revision}` : ''}.${ext}`,
  }
}

/**
 * The storage key of an event's media: `images|videos/yyyy-mm/yyyy-mm-dd_ID.ext`, or `…_ID-rN.ext` for the
 * media of the event's revision N.
 */
export function mediaKey({
  kind,
  date,
  id,
  ext,
  revision,
}: {
  kind: MediaType
  date: string
  id: number | string
  ext: string
  revision?: number
}) {
  const idText = revision === undefined ? String(id) : `${id}-r${revision}`
  if (revision !== undefined && !ID.test(String(revision))) throw new Error(`Not a revision id: ${revision}`)
  if (!isMediaDate(date)) throw new Error(`Not a yyyy-mm-dd date: ${date}`)
  if (!ID.test(String(id))) throw new Error(`Not a media id: ${String(id)}`)
  const type = MEDIA_EXTENSIONS[ext]
  if (!type || type.kind !== kind) throw new Error(`Not a ${kind} extension: ${ext}`)
  return `${MEDIA_FOLDERS[kind]}/${date.slice(0, 7)}/${date}_${idText}.${ext}`
}

/** The key of a photo's narrower copy: `..._12.webp` → `..._12-480w.webp`. */
export function photoVariantKey(key: string, width: PhotoVariantWidth) {
  return key.replace(/(\.[a-z0-9]+)$/, `-${width}w$1`)
}

/** The last segment of a stored key, path or URL (query and fragment dropped). */
export function mediaFileName(keyOrUrl: string) {
  const path = keyOrUrl.split(/[?#]/, 1)[0] ?? ''
  return path.slice(path.lastIndexOf('/') + 1)
}

/** `/api/media/<file name>`: media is served by file name, the last segment of the stored key. */
export function mediaUrlFromKey(key: string) {
  return `${MEDIA_URL_PREFIX}${mediaFileName(key)}`
}

/**
 * A `srcset` for a stored photo URL (the 480 and 960 px copies plus the main file), or '' when the URL is not a
 * stored WebP photo, so the UI can simply omit the attribute. Query strings (the cache version) are kept.
 */
export function photoSrcSet(url: string) {
  const match = /^(.*?)(\.webp)((?:[?#].*)?)$/.exec(url)
  if (!match) return ''
  const [, stem, ext, suffix] = match as unknown as [string, string, string, string]
  const name = parseMediaFileName(mediaFileName(url))
  if (!name || name.kind !== 'photo' || name.width) return ''
  const candidates = PHOTO_SRCSET_WIDTHS.map((w) => `${stem}-${w}w${ext}${suffix} ${w}w`)
  candidates.push(`${url} ${PHOTO_MAX_WIDTH}w`)
  return candidates.join(', ')
}
