/**
 * Who may see a stored media file: a live ad's media everyone, any other only its advertiser and administrators.
 * The answer itself (validators, caching, ranges) is built in app/services/http/media-response.server.ts.
 */
import { getEventMediaAudience } from '#app/models/ads/event.server.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import { isLive } from '#app/models/ads/event-status.ts'
import {
  MEDIA_SAMPLE_DATE,
  mediaFileName,
  parseMediaFileName,
  type MediaName,
} from '#app/utils/media-types.ts'
import type { ServedMedia } from '../http/media-response.server.ts'
import { mediaStorage } from './media.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'

/** Who asks for a file. Each is asked only when the file is not public, and at most once. */
export interface MediaViewer {
  /** The signed-in business's id, or null. */
  businessID(): Promise<number | null>
  isAdmin(): Promise<boolean>
}

/**
 * Who may get a stored file: everyone when its ad is live (a revision's file once it is the ad's); otherwise only its
 * owner (the signed-in business) and administrators, so a draft's preview and the moderation queue still show it;
 * null = nobody. Files under the sample date belong to the business whose id they carry (the upload test page) and
 * are never public. The id in the name is the event's primary key, so this is one indexed read.
 */
async function mediaAudience(media: MediaName, viewer: MediaViewer): Promise<'everyone' | 'viewer' | null> {
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
  if ((await viewer.businessID()) === ownerID) return 'viewer'
  return (await viewer.isAdmin()) ? 'viewer' : null
}

/**
 * The stored file `fileName` names (`2024-05-01_12.webp`), when `viewer` may see it (see {@link mediaAudience});
 * null for anything unknown, missing or not for this viewer, which are answered alike.
 */
export async function viewableMedia(
  fileName: string | undefined,
  viewer: MediaViewer,
): Promise<ServedMedia | null> {
  const media = fileName === undefined ? null : parseMediaFileName(fileName)
  if (!media) return null
  const audience = await mediaAudience(media, viewer)
  if (!audience) return null
  const store = mediaStorage()
  const object = await store.head(media.key)
  if (!object) return null
  return {
    contentType: media.contentType,
    size: object.size,
    modified: object.modified,
    version: object.version,
    isPublic: audience === 'everyone',
    read: async (range) => (await store.get(media.key, { range, version: object.version }))?.body ?? null,
  }
}
