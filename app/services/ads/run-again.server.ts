/** "Run again": a paid ad's content (media copied) as a new unpaid ad, which then goes through the form like any. */
import { listCategories } from '#app/models/ads/category.server.ts'
import { attachEventMedia, getOwnedEvent } from '#app/models/ads/event.server.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import { canRunAgain, insertRunAgainCopy } from '#app/models/ads/copied-ad.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { db } from '#db/client.server.ts'
import type { BusinessSessionCopy } from '../http/auth.server.ts'
import { stageCopyOfStoredMedia } from '../media/media-copy.server.ts'
import {
  deleteStoredMedia,
  discardStaged,
  storeMediaForEvent,
  type StagedFile,
} from '../media/media.server.ts'
import { EVENT_NOT_FOUND_MESSAGE } from './save.server.ts'

export const RUN_AGAIN_DRAFT_MESSAGE =
  'Only an ad that has been paid for can be run again. This one is not paid yet: edit it instead.'

/**
 * Makes a new unpaid ad from the business's paid ad `id`: the same title, description, categories (those still
 * offered), contact, photo and video (copied in storage), and no dates; returns its id. Another business's ad, or
 * none, is not found (nobody learns it exists); an ad that was never paid is a conflict.
 */
export async function runAdAgain(business: BusinessSessionCopy, id: unknown) {
  const eventID = parseId(id)
  const source = eventID ? await getOwnedEvent(eventID, business.businessID) : null
  if (!source) throw new AppError(EVENT_NOT_FOUND_MESSAGE, 'not_found')
  if (!canRunAgain(source)) throw new AppError(RUN_AGAIN_DRAFT_MESSAGE, 'conflict')
  const offered = new Set((await listCategories()).map((c) => c.categoryName))
  const staged = (
    await Promise.all(
      [source.stillPhotoURL, source.videoURL].map((url) => url && stageCopyOfStoredMedia(url)),
    )
  ).filter((file): file is StagedFile => Boolean(file))
  const storedKeys: string[] = []
  try {
    return await db.transaction(async (tx) => {
      const copy = await insertRunAgainCopy(tx, source, {
        businessName: business.businessName,
        category: source.category.filter((name) => offered.has(name)),
      })
      const media = []
      for (const file of staged) {
        const stored = await storeMediaForEvent(tx, {
          eventID: copy.eventID,
          businessID: business.businessID,
          file,
        })
        storedKeys.push(stored.key)
        media.push({ mediaType: stored.mediaType, url: stored.url })
      }
      await attachEventMedia(tx, copy.eventID, media)
      return { eventID: copy.eventID }
    })
  } catch (error) {
    await discardStaged(staged)
    await deleteStoredMedia(storedKeys)
    throw error
  }
}
