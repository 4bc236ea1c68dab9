import { data, redirect } from '@remix-run/node'
import { UNSET_DATE } from '#app/constants.ts'
import { getCardBusiness } from '#app/models/business.server.ts'
import { listCategories } from '#app/models/category.server.ts'
import { calendarMonths } from '#app/models/calendar.ts'
import { lastBookableDate, type EventFormValues } from '#app/models/event-schema.ts'
import type { BusinessSessionCopy } from './auth.server.ts'
import { parseEventInput, today } from './event-approval.server.ts'
import { getEventDraft, getEventDraftFor, setEventDraft } from './event-draft.server.ts'
import { assertCategoriesExist, priceFor } from './event-submission.server.ts'
import { parseMultipartUpload } from './media-upload.server.ts'
import { discardStaged, type StagedFile } from './media.server.ts'
import { PRICE_TIERS, formatDollars } from '#app/utils/pricing.ts'
import { AppError } from '#app/utils/app-error.ts'
import { getSession, sessionStorage } from './session.server.ts'

/** Everything the event form needs besides the advertiser: categories, the date picker's months, the price table. */
export async function eventFormOptions() {
  const day = today()
  const categories = (await listCategories()).map((c) => c.categoryName)
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
  { eventID, saved }: { eventID?: number; saved: EventFormValues },
) {
  const [cardBusiness, options] = await Promise.all([
    getCardBusiness(business.businessID),
    eventFormOptions(),
  ])
  if (!cardBusiness) throw redirect('/login')
  const draft = getEventDraftFor(await getSession(request), eventID)
  return { business: cardBusiness, initial: draft ? draft.input : saved, ...options }
}

/** A new ad's form: empty, with the business's own contact details. */
export function blankFormValues(business: BusinessSessionCopy): EventFormValues {
  return {
    eventTitle: '',
    eventDescription: '',
    eventCategory: [],
    showAdDates: [],
    eventDate: UNSET_DATE,
    contactPerson: business.businessContact,
    contactPhone: business.businessPhone,
    contactEmail: business.businessEmail,
  }
}

/**
 * Without JavaScript the form posts here: the fields and checked files wait in the session as the draft of a new
 * ad (or of the edit of `eventID`), and the preview is its own page. A new file replaces the one chosen before;
 * otherwise the earlier upload is kept.
 */
export async function stageDraftFromForm(request: Request, { eventID }: { eventID?: number } = {}) {
  const session = await getSession(request)
  let upload
  try {
    // Up to 21 dates and every category arrive as repeated checkbox fields.
    upload = await parseMultipartUpload(request, {
      files: { image: 'photo', video: 'video' },
      maxFields: 128,
    })
  } catch (error) {
    if (error instanceof AppError) {
      const fieldErrors =
        Object.keys(error.fieldErrors).length > 0 ? error.fieldErrors : { image: [error.message] }
      return data({ errors: fieldErrors as Record<string, string[]> }, { status: error.status })
    }
    throw error
  }
  const { fields, fieldLists, files } = upload
  try {
    const input = parseEventInput({
      ...fields,
      eventCategory: fieldLists.eventCategory ?? [],
      showAdDates: fieldLists.showAdDates ?? [],
    })
    await assertCategoriesExist(input.eventCategory)
    const totalCents = priceFor(input)
    const previous = getEventDraft(session)
    const earlier = previous && previous.eventID === eventID ? previous.files : {}
    const kept = { photo: files.image ?? earlier.photo, video: files.video ?? earlier.video }
    // Files of a draft that is being replaced (a newer file, or a draft for another ad) are not needed any more.
    const unused = previous
      ? [previous.files.photo, previous.files.video].filter(
          (f): f is StagedFile => f !== undefined && f !== kept.photo && f !== kept.video,
        )
      : []
    await discardStaged(unused)
    setEventDraft(session, { ...(eventID === undefined ? {} : { eventID }), input, totalCents, files: kept })
    return redirect('/dashboard/events/preview', {
      headers: { 'Set-Cookie': await sessionStorage.commitSession(session) },
    })
  } catch (error) {
    await discardStaged(Object.values(files))
    if (error instanceof AppError) return data({ errors: error.fieldErrors }, { status: error.status })
    throw error
  }
}
