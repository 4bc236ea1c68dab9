/** The event form's page (a new ad, or the edit of one): its options, and the values it starts from. */
import { UNSET_DATE } from '#app/constants.ts'
import { getCardBusiness } from '#app/models/accounts/business.server.ts'
import { calendarMonths } from '#app/models/calendar/calendar.ts'
import { listCategories } from '#app/models/ads/category.server.ts'
import {
  EMPTY_PRACTICAL_FACTS,
  lastBookableDate,
  paidDatesOf,
  type EventInput,
} from '#app/models/ads/event-schema.ts'
import { NO_TIMES } from '#app/models/ads/event-times.ts'
import { formatDollars } from '#app/utils/pricing.ts'
import type { BusinessSessionCopy } from '../http/auth.server.ts'
import { trustOf } from '../moderation/trust.server.ts'
import { currentFormPrices, currentFreeListings, currentPriceTable } from '../payments/pricing.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import { draftFor, type EventDraft } from './draft.server.ts'
import { adAsEdited, requireEditableEvent } from './editable.server.ts'

/**
 * Everything the event form needs besides the advertiser: categories, the date picker's months, the price table.
 * `keep`: the categories the edited ad has, offered even when hidden.
 */
async function eventFormOptions(keep: readonly string[] = []) {
  const day = platformToday()
  const categories = (await listCategories({ keep })).map((c) => c.categoryName)
  const priceTable = (await currentPriceTable()).map((row) => ({
    label: row.label,
    price: formatDollars(row.cents),
  }))
  const lastDate = lastBookableDate(day)
  const freeListings = await currentFreeListings()
  const prices = await currentFormPrices(categories)
  return {
    today: day,
    lastDate,
    categories,
    months: calendarMonths(day, 3, lastDate),
    priceTable,
    prices,
    freeListings,
  }
}

/**
 * The event form page's data: the advertiser as the card shows them, the form's options, and the values to start
 * from. Coming back from the preview ("Cancel Your Ad") shows the session's draft of this ad (`eventID`, or a new
 * ad), what was last entered; otherwise `saved`. Null when the business has no record any more (it signs in again).
 */
async function eventFormPageData(
  business: BusinessSessionCopy,
  { eventID, saved, draft }: { eventID?: number; saved: EventInput; draft: EventDraft | null },
) {
  const [cardBusiness, options] = await Promise.all([
    getCardBusiness(business.businessID),
    eventFormOptions(saved.eventCategory),
  ])
  if (!cardBusiness) return null
  const mine = draftFor(draft, eventID)
  return { business: cardBusiness, initial: mine ? mine.input : saved, ...options }
}

/** A new ad's form: empty, with the business's own contact details (or the session's draft of a new ad). */
export function newEventFormPage(business: BusinessSessionCopy, draft: EventDraft | null) {
  return eventFormPageData(business, { saved: blankFormValues(business), draft })
}

/**
 * The form to edit the business's ad `id` (or its draft from the session): what it starts from, its saved media, and
 * how the edit will go (paid: its dates stay; live: the edit waits for review, or goes live at once for a trusted
 * business). Throws the AppError of `requireEditableEvent` (not found: not theirs; conflict: no longer editable).
 */
export async function editEventFormPage(
  business: BusinessSessionCopy,
  id: unknown,
  draft: EventDraft | null,
) {
  const event = await requireEditableEvent(business, id)
  const edited = await adAsEdited(event)
  const page = await eventFormPageData(business, { eventID: event.eventID, saved: edited.input, draft })
  if (!page) return null
  const live = event.eventStatus === 'approved'
  return {
    ...page,
    eventID: event.eventID,
    savedMedia: edited.media,
    paid: Boolean(paidDatesOf(event)),
    live,
    editGoesLiveAtOnce: live && (await trustOf(business.businessID)).trusted,
    reviewReason: edited.reviewReason,
  }
}

function blankFormValues(business: BusinessSessionCopy): EventInput {
  return {
    eventTitle: '',
    eventDescription: '',
    eventCategory: [],
    showAdDates: [],
    eventDate: UNSET_DATE,
    contactPerson: business.businessContact,
    contactPhone: business.businessPhone,
    contactEmail: business.businessEmail,
    ...EMPTY_PRACTICAL_FACTS,
    ...NO_TIMES,
  }
}
