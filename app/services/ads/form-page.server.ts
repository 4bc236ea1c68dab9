/** The event form's page (a new ad, or the edit of one): its options, and the values it starts from. */
import { redirect } from '@remix-run/node'
import { UNSET_DATE } from '#app/constants.ts'
import { getCardBusiness } from '#app/models/accounts/business.server.ts'
import { calendarMonths } from '#app/models/calendar/calendar.ts'
import { listCategories } from '#app/models/ads/category.server.ts'
import { EMPTY_PRACTICAL_FACTS, lastBookableDate, type EventInput } from '#app/models/ads/event-schema.ts'
import { formatDollars, PRICE_TIERS } from '#app/utils/pricing.ts'
import type { BusinessSessionCopy } from '../accounts/auth.server.ts'
import { getSession } from '../accounts/session.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import { getEventDraftFor } from './draft.server.ts'

/**
 * Everything the event form needs besides the advertiser: categories, the date picker's months, the price table.
 * `keep`: the categories the edited ad has, offered even when hidden.
 */
async function eventFormOptions(keep: readonly string[] = []) {
  const day = platformToday()
  const categories = (await listCategories({ keep })).map((c) => c.categoryName)
  let from = 1
  const priceTable = PRICE_TIERS.map((tier) => {
    const label = `${from}–${tier.upToDays} days`
    from = tier.upToDays + 1
    return { label, price: formatDollars(tier.cents) }
  })
  const lastDate = lastBookableDate(day)
  return { today: day, lastDate, categories, months: calendarMonths(day, 3, lastDate), priceTable }
}

/**
 * The event form page's data: the advertiser as the card shows them, the form's options, and the values to start
 * from. Coming back from the preview ("Cancel Your Ad") shows the draft of this ad (`eventID`, or a new ad), what was
 * last entered; otherwise `saved`. A business without its record is sent to sign in again.
 */
export async function eventFormPageData(
  request: Request,
  business: BusinessSessionCopy,
  { eventID, saved }: { eventID?: number; saved: EventInput },
) {
  const [cardBusiness, options] = await Promise.all([
    getCardBusiness(business.businessID),
    eventFormOptions(saved.eventCategory),
  ])
  if (!cardBusiness) throw redirect('/login')
  const draft = getEventDraftFor(await getSession(request), eventID)
  return { business: cardBusiness, initial: draft ? draft.input : saved, ...options }
}

/** A new ad's form: empty, with the business's own contact details. */
export function blankFormValues(business: BusinessSessionCopy): EventInput {
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
  }
}
