/** The draft's preview page: the card as customers will see it, and its buttons (save and pay, or back to the form). */
import { getCardBusiness } from '#app/models/accounts/business.server.ts'
import { customerCardData } from '#app/models/ads/customer-card.ts'
import { ownSimilarAd } from '#app/models/ads/duplicate-ads.server.ts'
import { paidDatesOf } from '#app/models/ads/event-schema.ts'
import { AppError } from '#app/utils/app-error.ts'
import { formatDollars } from '#app/utils/pricing.ts'
import type { BusinessSessionCopy } from '../http/auth.server.ts'
import { discardStaged } from '../media/media.server.ts'
import { HIGHEST_PRICE_NOTE } from '#app/models/payments/price-list.ts'
import { currentCategoriesPricedApart, currentFreeAllowance } from '../payments/pricing.server.ts'
import { saveAndSubmitAd, type AdSender } from './approval.server.ts'
import type { EventDraft } from './draft.server.ts'
import { adAsEdited, requireEditableEvent } from './editable.server.ts'

/**
 * The preview page: the draft's card as customers will see it (media kept from the edited ad unless replaced), and the
 * business's own unpaid, paid or live ad it looks like (a similar title on a date in common), to warn before checkout.
 * Null when the business has no record any more (it signs in again); the edited ad no longer editable is its AppError.
 */
export async function draftPreview(business: BusinessSessionCopy, draft: EventDraft) {
  const edited = draft.eventID === undefined ? null : await requireEditableEvent(business, draft.eventID)
  const media = edited ? (await adAsEdited(edited)).media : null
  const [cardBusiness, similar] = await Promise.all([
    getCardBusiness(business.businessID),
    ownSimilarAd({
      businessID: business.businessID,
      title: draft.input.eventTitle,
      dates: draft.input.showAdDates,
      exceptEventID: draft.eventID,
    }),
  ])
  if (!cardBusiness) return null
  const afterPayment = Boolean(edited && paidDatesOf(edited))
  const free =
    !afterPayment && draft.totalCents === 0 && Boolean(await currentFreeAllowance(draft.input.eventCategory))
  return {
    // The same card data as the public page builds from the saved ad.
    card: customerCardData(cardBusiness, { ...draft.input, ...media }),
    cost: formatDollars(draft.totalCents),
    /** The dates the ad is paid for, repeat rules expanded: shown before checkout. */
    dates: draft.input.showAdDates,
    /** Paid already: saving sends the edit for review, with nothing to pay. */
    afterPayment,
    /** A free listing: sent for review without a card. */
    free,
    /** Said next to the total of an ad in categories priced apart: the highest of their prices applies. */
    priceNote:
      !afterPayment && !free && (await currentCategoriesPricedApart(draft.input.eventCategory))
        ? HIGHEST_PRICE_NOTE
        : null,
    photoFileName: draft.files.photo?.originalName,
    videoFileName: draft.files.video?.originalName,
    /** The business's ad this one looks like, with its page: the advertiser may still continue. */
    duplicate: similar ? { ...similar, href: `/dashboard/events/${similar.eventID}` } : null,
  }
}

/** Where "Cancel Your Ad" returns to: the form the draft came from. */
export function draftFormPath(draft: EventDraft) {
  return draft.eventID === undefined ? '/dashboard/events/new' : `/dashboard/events/${draft.eventID}/edit`
}

/** What approving the draft came to; the draft is done with in every case. */
export type DraftApproval =
  /** Saved unpaid: checkout pays for it next. */
  | { kind: 'saved'; eventID: number; totalCents: number }
  /** A free listing, saved and sent on without a card: to review, or live for a trusted business. */
  | { kind: 'free'; eventID: number }
  /** The edit of a paid ad: back to review, or (a trusted business's live ad) applied at once. */
  | { kind: 'resubmitted'; eventID: number; appliedAtOnce: boolean }
  /** The edited ad is gone, or was paid or is being paid meanwhile: the draft can never be saved. */
  | { kind: 'dropped'; message: string }

/**
 * "Approve": saves the session's draft (a new ad, or the edit of its ad) and removes its staged files. Any other
 * refusal of the save is thrown as it is, and the draft stays for another try.
 */
export async function approveDraft(
  business: BusinessSessionCopy,
  draft: EventDraft,
  sender: AdSender,
): Promise<DraftApproval> {
  let saved
  try {
    saved = await saveAndSubmitAd(
      { business, input: draft.input, files: draft.files, eventID: draft.eventID },
      sender,
    )
  } catch (error) {
    if (!(error instanceof AppError && (error.kind === 'not_found' || error.kind === 'conflict'))) throw error
    await discardStaged(Object.values(draft.files))
    return { kind: 'dropped', message: error.message }
  }
  await discardStaged(Object.values(draft.files))
  if (saved.resubmitted)
    return { kind: 'resubmitted', eventID: saved.eventID, appliedAtOnce: saved.appliedAtOnce }
  if (saved.free) return { kind: 'free', eventID: saved.eventID }
  return { kind: 'saved', eventID: saved.eventID, totalCents: saved.totalCents }
}
