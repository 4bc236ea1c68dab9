/**
 * A live event's share images (docs/decisions/043): the card link previews show (`og:image`, 1200×630) and the
 * crops its structured data offers search engines (16:9, 4:3, 1:1, each 1200 wide). They are drawn from the event's
 * stored photo, cover-cropped, or without one from its title on the brand colour; the address carries a hash of
 * what they are drawn from (`?v=`), so a new photo or title is a new address and an image once served never changes.
 */
import { mediaSrc } from '#app/utils/format.ts'
import { mediaFileName, parseMediaFileName } from '#app/utils/media-types.ts'

export const SHARE_IMAGE_SIZES = {
  card: { width: 1200, height: 630 },
  '16x9': { width: 1200, height: 675 },
  '4x3': { width: 1200, height: 900 },
  '1x1': { width: 1200, height: 1200 },
} as const
export type ShareImageKind = keyof typeof SHARE_IMAGE_SIZES

/** The crops the JSON-LD `image` lists, in the aspect ratios Google's Event guidance asks for. */
const STRUCTURED_DATA_KINDS = ['16x9', '4x3', '1x1'] as const satisfies readonly ShareImageKind[]

export const SHARE_IMAGE_CONTENT_TYPE = 'image/jpeg'

/** Raised whenever the drawing changes, so every share image is made again under a new name. */
const DRAWING_REVISION = 1

export interface ShareImageSource {
  eventID: number
  eventTitle: string
  /** The stored photo's URL as the event row has it (`stillPhotoURL`). */
  stillPhotoPath?: string | null
}

/** What the images show: the stored photo (its storage key and its versioned URL), else the title. */
export type ShareImageSubject = { photoKey: string; photoUrl: string } | { title: string }

export function shareImageSubject(source: ShareImageSource): ShareImageSubject {
  const url = mediaSrc(source.stillPhotoPath)
  const photo = url ? parseMediaFileName(mediaFileName(url)) : null
  if (url && photo?.kind === 'photo' && !photo.width) return { photoKey: photo.key, photoUrl: url }
  return { title: source.eventTitle }
}

/**
 * 64 bits of a string, as 16 hex digits (the cyrb53 mixing, both halves kept): pure JavaScript, since the page's
 * meta tags are also built in the browser bundle.
 */
function hash64(text: string) {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0')
}

function versionOf(subject: ShareImageSubject) {
  const drawn = 'photoUrl' in subject ? `photo\n${subject.photoUrl}` : `title\n${subject.title}`
  return hash64(`${DRAWING_REVISION}\n${drawn}`)
}

/** The hash of what an event's share images are drawn from: the same for all its kinds. */
export function shareImageVersion(source: ShareImageSource) {
  return versionOf(shareImageSubject(source))
}

function pathOf(eventID: number, kind: ShareImageKind, version: string) {
  return `/event/${eventID}/share/${kind}.jpg?v=${version}`
}

/** `/event/12/share/card.jpg?v=…` */
export function shareImagePath(source: ShareImageSource, kind: ShareImageKind) {
  return pathOf(source.eventID, kind, shareImageVersion(source))
}

/**
 * The card's path, and the paths of the crops the structured data lists: those only for an event with a photo,
 * since search engines are told to avoid images of text (the title card is for link previews).
 */
export function shareImagePaths(source: ShareImageSource): { card: string; structuredData: string[] } {
  const subject = shareImageSubject(source)
  const version = versionOf(subject)
  return {
    card: pathOf(source.eventID, 'card', version),
    structuredData:
      'photoUrl' in subject ? STRUCTURED_DATA_KINDS.map((kind) => pathOf(source.eventID, kind, version)) : [],
  }
}

/** The kind a share image's file name (`card.jpg`) names, or null. */
export function parseShareImageName(name: string | undefined): ShareImageKind | null {
  const kind = /^([a-z0-9]+)\.jpg$/.exec(name ?? '')?.[1]
  return kind && Object.hasOwn(SHARE_IMAGE_SIZES, kind) ? (kind as ShareImageKind) : null
}
