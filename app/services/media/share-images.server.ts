/**
 * A live event's share images (docs/decisions/043): drawn on their own first request, never in a page's, then kept
 * in media storage (the folder or the bucket, so every server shares them) as `share/ID/<kind>-<hash>.jpg`. The hash
 * is of what they show, as in their address, so a stored image is never out of date; older ones go when a new one
 * is stored, and those of events no longer live go with the daily sweep.
 */
import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { getLiveShareImageSource, liveEventIdsAmong } from '#app/models/ads/share-image-source.server.ts'
import {
  SHARE_IMAGE_CONTENT_TYPE,
  SHARE_IMAGE_SIZES,
  shareImagePath,
  shareImageSubject,
  shareImageVersion,
  type ShareImageKind,
  type ShareImageSource,
} from '#app/models/ads/share-images.ts'
import type { ServedMedia } from '../http/media-response.server.ts'
import { logError } from '../platform/logger.server.ts'
import { shareImagesDrawn } from '../platform/metrics.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import { drawPhotoShareImage, drawTitleShareImage } from './share-image-drawing.server.ts'
import { mediaStorage } from './media.server.ts'
import { SHARE_IMAGES_PREFIX, type StoredObject } from './media-storage.server.ts'

function shareImageKey(eventID: number, kind: ShareImageKind, version: string) {
  return `${SHARE_IMAGES_PREFIX}${eventID}/${kind}-${version}.jpg`
}

const eventFolder = (eventID: number) => `${SHARE_IMAGES_PREFIX}${eventID}/`

/** The image, or where the current one is when `version` is not (a photo or title changed since): null = not live. */
export type ShareImageAnswer = { media: ServedMedia } | { currentPath: string }

/**
 * The share image of kind `kind` of event `eventID`, when the event is live (anything else is null, answered as not
 * found): drawn and stored on its first request, read from storage afterwards.
 */
export async function shareImage(
  eventID: number,
  kind: ShareImageKind,
  version: string | null,
): Promise<ShareImageAnswer | null> {
  const source = await getLiveShareImageSource(eventID, platformToday())
  if (!source) return null
  const current = shareImageVersion(source)
  if (version !== current) return { currentPath: shareImagePath(source, kind) }
  const key = shareImageKey(eventID, kind, current)
  const store = mediaStorage()
  const object = (await store.head(key)) ?? (await drawOnce(key, () => drawAndStore(source, kind, key)))
  return {
    media: {
      contentType: SHARE_IMAGE_CONTENT_TYPE,
      size: object.size,
      modified: object.modified,
      version: object.version,
      isPublic: true,
      read: async (range) => (await store.get(key, { range, version: object.version }))?.body ?? null,
    },
  }
}

/** Requests for an image being drawn wait for that drawing. */
const drawing = new Map<string, Promise<StoredObject>>()

function drawOnce(key: string, draw: () => Promise<StoredObject>) {
  let pending = drawing.get(key)
  if (!pending) {
    pending = draw().finally(() => drawing.delete(key))
    drawing.set(key, pending)
  }
  return pending
}

let lastDrawing: Promise<unknown> = Promise.resolve()

/** One drawing at a time on a server, so a crawler asking for many images at once cannot hold the pages up. */
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const turn = lastDrawing.then(work, work)
  lastDrawing = turn.catch(() => {})
  return turn
}

async function draw(source: ShareImageSource, kind: ShareImageKind) {
  const size = SHARE_IMAGE_SIZES[kind]
  const subject = shareImageSubject(source)
  if ('photoKey' in subject) {
    const stored = await mediaStorage().get(subject.photoKey)
    if (stored) {
      try {
        return await drawPhotoShareImage(await buffer(stored.body), size)
      } catch (error) {
        logError(error, {
          msg: `The photo of event ${source.eventID} could not be drawn; its title card is used`,
        })
      }
    }
  }
  return drawTitleShareImage(source.eventTitle, size)
}

async function drawAndStore(source: ShareImageSource, kind: ShareImageKind, key: string) {
  const bytes = await inTurn(() => draw(source, kind))
  const store = mediaStorage()
  const stored = await store.put(key, Readable.from([bytes]), SHARE_IMAGE_CONTENT_TYPE)
  shareImagesDrawn.inc({ kind })
  // The images of an earlier photo or title: nothing links to them any more.
  const version = key.slice(key.lastIndexOf('-'))
  const older: string[] = []
  for await (const { key: other } of store.list(eventFolder(source.eventID))) {
    if (!other.endsWith(version)) older.push(other)
  }
  await store.delete(older)
  return stored
}

const SWEEP_BATCH = 500

/** Deletes the stored share images of events that are no longer live (ended, taken down, removed). */
export async function deleteShareImagesOfEventsNotLive() {
  const store = mediaStorage()
  const byEvent = new Map<number, string[]>()
  for await (const { key } of store.list(SHARE_IMAGES_PREFIX)) {
    const eventID = Number(key.slice(SHARE_IMAGES_PREFIX.length).split('/', 1)[0])
    byEvent.set(eventID, [...(byEvent.get(eventID) ?? []), key])
  }
  const today = platformToday()
  const ids = [...byEvent.keys()]
  let deleted = 0
  for (let i = 0; i < ids.length; i += SWEEP_BATCH) {
    const batch = ids.slice(i, i + SWEEP_BATCH)
    const live = await liveEventIdsAmong(batch, today)
    const keys = batch.filter((id) => !live.has(id)).flatMap((id) => byEvent.get(id)!)
    await store.delete(keys)
    deleted += keys.length
  }
  return deleted
}
