/** The words of the duplicate warnings: the advertiser's on the preview, the moderators' on the queue. */
import { formatShortDate } from '#app/models/ads/event-times.ts'

/** "You already have “Jazz Night” on Sat, Nov 29." (the title is the link to that ad). */
export function ownDuplicateParts(eventTitle: string, date: string) {
  return { before: 'You already have ', title: `“${eventTitle}”`, after: ` on ${formatShortDate(date)}.` }
}

export const CONTINUE_ANYWAY_TEXT = 'If this is another event, you can still save it and continue.'

/** The mark of a pending ad that looks like another business's ad on the same date at the same ZIP. */
export const POSSIBLE_DUPLICATE_LABEL = 'possible duplicate'
