/** Saving an ad with its media in one unit, and the checks every way of creating an ad shares. */
import { db } from '#db/client.server.ts'
import { UNSET_DATE } from '#app/constants.ts'
import {
  attachEventMedia,
  detachEventMedia,
  getOwnedEvent,
  insertEvent,
  lockOwnedEvent,
  resubmitPaidEvent,
  updateSubmittedEvent,
} from '#app/models/ads/event.server.ts'
import { listCategories } from '#app/models/ads/category.server.ts'
import { adContact } from '#app/models/ads/customer-card.ts'
import { saveOpenRevision, setRevisionMedia } from '#app/models/ads/event-revision.server.ts'
import { ownerEditKind } from '#app/models/ads/event-status.ts'
import type { EventInput } from '#app/models/ads/event-schema.ts'
import { assertFreeListingFits } from '#app/models/payments/free-listing.ts'
import { AppError } from '#app/utils/app-error.ts'
import type { Event } from '#db/schema.ts'
import { mediaFileName } from '#app/utils/media-types.ts'
import { claimedTotalMatches, TOTAL_MISMATCH_MESSAGE } from '#app/utils/pricing.ts'
import type { BusinessSessionCopy } from '../http/auth.server.ts'
import { autoApplyRevisionIfTrusted } from '../moderation/trust.server.ts'
import { currentAdCharge } from '../payments/pricing.server.ts'
import { deleteStoredMedia, storeMediaForEvent, type StagedFile } from '../media/media.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'

export const EVENT_NOT_FOUND_MESSAGE = 'Event not found'
export const AD_NOT_EDITABLE_MESSAGE =
  'This ad has ended or was rejected or refunded, so it can no longer be edited.'
export const CATEGORY_MESSAGE = 'Please choose a category from the list'

/**
 * An ad is saved only with categories its form offers: the visible ones, and for an edit those the ad already has
 * (a hidden category stays on the ads that have it).
 */
export async function assertCategoriesOffered(names: readonly string[], keep: readonly string[] = []) {
  const offered = new Set((await listCategories({ keep })).map((c) => c.categoryName))
  if (names.some((n) => !offered.has(n))) {
    throw new AppError(CATEGORY_MESSAGE, 'invalid', { fieldErrors: { eventCategory: [CATEGORY_MESSAGE] } })
  }
}

/**
 * The price in cents for the chosen dates at the current prices, $0 for a free listing; a differing total sent by
 * the browser is refused, never charged. A free listing with more dates, or a photo or video, than its categories'
 * free listing includes (`media`: what the ad will have) is refused at the field, unless the ad was paid for at a
 * price (`paidAtAPrice`).
 */
export async function priceFor(
  input: EventInput,
  claimedDollars?: number | null,
  media: { photo: boolean; video: boolean; paidAtAPrice?: boolean } = { photo: false, video: false },
) {
  const { cents: totalCents, allowance } = await currentAdCharge({
    days: input.showAdDates.length,
    categories: input.eventCategory,
  })
  if (allowance && !media.paidAtAPrice)
    assertFreeListingFits({ dates: input.showAdDates.length, ...media }, allowance)
  if (!claimedTotalMatches(claimedDollars, totalCents)) {
    throw new AppError(TOTAL_MISMATCH_MESSAGE, 'invalid', {
      fieldErrors: { totalAmount: [TOTAL_MISMATCH_MESSAGE] },
    })
  }
  return totalCents
}

/**
 * Saves the advertiser's ad (pending payment and review) with its media in one unit: if anything fails, the row is
 * rolled back and the newly stored files are removed. With `eventID` the business's own ad is rewritten in place
 * (its media kept unless a new file replaces it): an unpaid one whole, a paid one awaiting review or sent back with
 * changes requested in its text and media only, and it waits for review again; a live one's text and media become
 * its pending revision while the live version stays up (both `resubmitted`: nothing to pay); a trusted business's
 * revision is then applied at once (`appliedAtOnce`). Any other ad is refused as a conflict.
 */
export async function saveEventWithMedia({
  business,
  input,
  files,
  claimedTotal,
  eventID: editedID,
  approvedDateByBusiness = platformToday(),
}: {
  business: BusinessSessionCopy
  input: EventInput
  files: { photo?: StagedFile; video?: StagedFile }
  claimedTotal?: number | null
  eventID?: number
  /** Today unless given: the advertiser approves the ad by saving it from the preview. */
  approvedDateByBusiness?: string
}) {
  const edited = editedID === undefined ? null : await getOwnedEvent(editedID, business.businessID)
  await assertCategoriesOffered(input.eventCategory, edited?.category)
  const totalCents = await priceFor(input, claimedTotal, mediaOfSave(files, edited))
  const storedKeys: string[] = []
  let replacedUrls: string[] = []
  let resubmitted = false
  let revisionID: number | undefined
  let outcome: { eventID: number; totalCents: number; resubmitted: boolean }
  try {
    const result = await db.transaction(async (tx) => {
      const data = {
        ...input,
        ...adContact(input, business),
        businessID: business.businessID,
        businessName: business.businessName,
        totalCents,
        approvedDateByBusiness,
      }
      let saved: { eventID: number; createdDate: Date }
      if (editedID === undefined) {
        saved = await insertEvent(tx, data)
      } else {
        const current = await lockOwnedEvent(tx, editedID, business.businessID)
        if (!current) throw new AppError(EVENT_NOT_FOUND_MESSAGE, 'not_found')
        const kind = ownerEditKind(current, platformToday())
        if (!kind) throw new AppError(AD_NOT_EDITABLE_MESSAGE, 'conflict')
        saved = current
        resubmitted = kind !== 'draft'
        // After payment the schema held the dates to those paid for, so the price is the one paid.
        if (kind === 'revision') {
          // The live version stays up: the edit waits as the ad's revision, with media of its own.
          const open = await saveOpenRevision(tx, editedID, data)
          revisionID = open.revisionID
          replacedUrls = [
            files.photo && open.before?.stillPhotoURL,
            files.video && open.before?.videoURL,
          ].filter((url): url is string => Boolean(url))
        } else {
          if (kind === 'resubmit') await resubmitPaidEvent(tx, editedID, data)
          else await updateSubmittedEvent(tx, editedID, data)
          replacedUrls = [files.photo && current.stillPhotoURL, files.video && current.videoURL].filter(
            (url): url is string => Boolean(url),
          )
          await detachEventMedia(
            tx,
            editedID,
            [files.photo?.kind, files.video?.kind].filter((kind) => kind !== undefined),
          )
        }
      }
      const media = []
      for (const file of [files.photo, files.video]) {
        if (!file) continue
        const stored = await storeMediaForEvent(tx, {
          eventID: saved.eventID,
          businessID: business.businessID,
          file,
          allow: ['draft', 'resubmit', 'revision'],
          revisionID,
        })
        storedKeys.push(stored.key)
        media.push({ mediaType: stored.mediaType, url: stored.url })
      }
      if (revisionID === undefined) await attachEventMedia(tx, saved.eventID, media)
      else await setRevisionMedia(tx, revisionID, media)
      return { eventID: saved.eventID, totalCents, resubmitted }
    })
    // A replacement may reuse the old file's name (same kind and extension): that file is the new one now.
    await deleteStoredMedia(replacedUrls.filter((url) => !storedKeys.some((key) => sameMediaFile(url, key))))
    outcome = result
  } catch (error) {
    // Only files that no saved row points to: a key the edited ad already used stays.
    await deleteStoredMedia(storedKeys.filter((key) => !replacedUrls.some((url) => sameMediaFile(url, key))))
    throw error
  }
  const appliedAtOnce =
    revisionID !== undefined && (await autoApplyRevisionIfTrusted(outcome.eventID, business.businessID))
  return { ...outcome, appliedAtOnce }
}

/** What the saved ad will have for `priceFor`: a new file, or the edited ad's own. */
export function mediaOfSave(
  files: { photo?: unknown; video?: unknown },
  edited: Pick<Event, 'stillPhotoURL' | 'videoURL' | 'paymentStatus' | 'totalCost'> | null | undefined,
) {
  return {
    photo: Boolean(files.photo || edited?.stillPhotoURL),
    video: Boolean(files.video || edited?.videoURL),
    paidAtAPrice: edited?.paymentStatus === 'paid' && Number(edited.totalCost) > 0,
  }
}

function sameMediaFile(a: string, b: string) {
  return mediaFileName(a) === mediaFileName(b)
}

/** An ad saved from its fields alone (no media) that the advertiser has not approved yet. */
export function saveUnapprovedEvent(business: BusinessSessionCopy, input: EventInput) {
  return saveEventWithMedia({ business, input, files: {}, approvedDateByBusiness: UNSET_DATE })
}
