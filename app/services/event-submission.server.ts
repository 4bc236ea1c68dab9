import { inArray } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { categoryList } from '#db/schema.ts'
import { attachEventMedia, insertEvent } from '#app/models/event.server.ts'
import type { EventInput } from '#app/models/event-schema.ts'
import type { BusinessSessionCopy } from './auth.server.ts'
import { getEnv } from './env.server.ts'
import { deleteStoredMedia, storeEventMedia, type StagedFile } from './media.server.ts'
import { chargeCentsForDays } from './pricing.ts'
import { isoDateInZone, todayInZone } from './time.ts'

export class SubmissionError extends Error {
  constructor(
    message: string,
    readonly status = 400,
    readonly fieldErrors: Record<string, string[]> = {},
  ) {
    super(message)
  }
}

export const TOTAL_MISMATCH_MESSAGE = 'The total does not match the price of the chosen dates. Please review your ad.'

export async function assertCategoriesExist(names: string[]) {
  const found = await db
    .select({ name: categoryList.categoryName })
    .from(categoryList)
    .where(inArray(categoryList.categoryName, names))
  const known = new Set(found.map((f) => f.name))
  const unknown = names.filter((n) => !known.has(n))
  if (unknown.length) {
    throw new SubmissionError('Please choose a category from the list', 400, {
      eventCategory: ['Please choose a category from the list'],
    })
  }
}

/** The price in cents for the chosen dates; a differing total sent by the browser is refused, never charged. */
export function priceFor(input: EventInput, claimedDollars?: number | null) {
  const totalCents = chargeCentsForDays(input.showAdDates.length)
  if (claimedDollars !== undefined && claimedDollars !== null && Math.round(claimedDollars * 100) !== totalCents) {
    throw new SubmissionError(TOTAL_MISMATCH_MESSAGE, 400, { totalAmount: [TOTAL_MISMATCH_MESSAGE] })
  }
  return totalCents
}

/**
 * Saves the advertiser's approved ad (pending payment and review) with its media in one unit:
 * if anything fails, the row is rolled back and the stored files are removed.
 */
export async function saveApprovedEvent({
  business,
  input,
  files,
  claimedTotal,
}: {
  business: BusinessSessionCopy
  input: EventInput
  files: { photo?: StagedFile; video?: StagedFile }
  claimedTotal?: number | null
}) {
  const { APP_TIME_ZONE } = getEnv()
  await assertCategoriesExist(input.eventCategory)
  const totalCents = priceFor(input, claimedTotal)
  const storedKeys: string[] = []
  try {
    return await db.transaction(async (tx) => {
      const { eventID, createdDate } = await insertEvent(tx, {
        ...input,
        contactPerson: input.contactPerson || business.businessContact,
        contactPhone: input.contactPhone || business.businessPhone,
        contactEmail: input.contactEmail || business.businessEmail,
        businessID: business.businessID,
        businessName: business.businessName,
        totalCents,
        approvedDateByBusiness: todayInZone(APP_TIME_ZONE),
      })
      const uploadDate = isoDateInZone(createdDate, APP_TIME_ZONE)
      const media = []
      for (const file of [files.photo, files.video]) {
        if (!file) continue
        const stored = await storeEventMedia({ eventID, createdDate: uploadDate, file })
        storedKeys.push(stored.key)
        media.push({ mediaType: stored.mediaType, url: stored.url })
      }
      await attachEventMedia(tx, eventID, media)
      return { eventID, totalCents }
    })
  } catch (error) {
    await deleteStoredMedia(storedKeys)
    throw error
  }
}
