/**
 * Copies of stored media for another ad (running an ad again): the bytes are copied, never shared, so deleting
 * either ad's file leaves the other's in place. Works through the storage interface, so the local folder and the
 * S3 bucket alike.
 */
import { randomUUID } from 'node:crypto'
import {
  mediaFileName,
  parseMediaFileName,
  PHOTO_SRCSET_WIDTHS,
  photoVariantKey,
} from '#app/utils/media-types.ts'
import { storeFailure } from './media-store-failure.server.ts'
import { STAGING_PREFIX } from './media-storage.server.ts'
import { discardStaged, mediaStorage, type StagedFile } from './media.server.ts'

/**
 * A stored photo or video (by its URL, with a photo's srcset copies) copied into fresh staged files, ready to be
 * stored as another ad's media; null when the URL is not stored media or its file is gone.
 */
export async function stageCopyOfStoredMedia(storedUrl: string): Promise<StagedFile | null> {
  const name = parseMediaFileName(mediaFileName(storedUrl))
  if (!name || name.width || name.revision) return null
  const store = mediaStorage()
  const ext = name.fileName.slice(name.fileName.lastIndexOf('.') + 1)
  const stem = `${STAGING_PREFIX}${randomUUID()}`
  const copy = async (from: string, to: string) => {
    const object = await store.get(from)
    if (!object) return null
    await store.put(to, object.body, name.contentType)
    return object.size
  }
  const staged: StagedFile = {
    kind: name.kind,
    key: `${stem}.${ext}`,
    size: 0,
    mime: name.contentType,
    ext,
    originalName: name.fileName,
    variants: [],
  }
  try {
    const size = await copy(name.key, staged.key)
    if (size === null) return null
    staged.size = size
    if (name.kind === 'photo') {
      for (const width of PHOTO_SRCSET_WIDTHS) {
        const key = `${stem}-${width}w.${ext}`
        if ((await copy(photoVariantKey(name.key, width), key)) !== null) staged.variants.push({ width, key })
      }
    }
    return staged
  } catch (error) {
    await discardStaged(staged)
    throw storeFailure(error) ?? error
  }
}
