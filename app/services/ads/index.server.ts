/**
 * The event-ad workflow, the one entry for routes: the form's page, a draft without JavaScript and its preview,
 * saving a new ad or an edit of an unpaid one (which approves it for payment), approving a saved ad, the older
 * draft call and the demo card. Payment itself is checkout's (checkout.server.ts, payment-data.server.ts).
 */
import { data, redirect, type Session } from '@remix-run/node'
import { UNSET_DATE } from '#app/constants.ts'
import { getCardBusiness } from '#app/models/business.server.ts'
import { calendarMonths } from '#app/models/calendar.ts'
import { listCategories } from '#app/models/category.server.ts'
import { customerCardData } from '#app/models/customer-card.ts'
import {
  eventInputFromEvent,
  lastBookableDate,
  paidDatesOf,
  type EventInput,
  type PaidDates,
} from '#app/models/event-schema.ts'
import { getOpenRevision, revisedAd, revisionNotice } from '#app/models/event-revision.server.ts'
import { ownerEditKind, standingReviewReason } from '#app/models/event-status.ts'
import { confirmEventByBusiness, getOwnedEvent } from '#app/models/event.server.ts'
import type { EventFormValues } from '#app/models/event-schema.ts'
import type { Event } from '#db/schema.ts'
import { AppError } from '#app/utils/app-error.ts'
import { PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import { formatDollars, PRICE_TIERS } from '#app/utils/pricing.ts'
import type { BusinessSessionCopy } from '../accounts/auth.server.ts'
import { paymentDataFor, setEventPaymentData } from '../payments/payment-data.server.ts'
import { combineHeaders, errorResponse } from '../http/http.server.ts'
import { parseMultipartUpload } from '../media/media-upload.server.ts'
import { discardStaged, type StagedFile } from '../media/media.server.ts'
import { settleOpenPayments } from '../payments/payment-setup.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import { readFormData } from '../http/request-body.server.ts'
import { getSession, sessionStorage } from '../accounts/session.server.ts'
import { redirectWithToast } from '../http/toast.server.ts'
import { getEventDraft, getEventDraftFor, setEventDraft, type EventDraft } from './draft.server.ts'
import { parseEventInput } from './parse.server.ts'
import {
  AD_NOT_EDITABLE_MESSAGE,
  assertCategoriesOffered,
  EVENT_NOT_FOUND_MESSAGE,
  priceFor,
  saveEventWithMedia,
  saveUnapprovedEvent,
} from './save.server.ts'
import { parseId } from '#app/models/input-rules.ts'

export { AD_NOT_EDITABLE_MESSAGE, EVENT_NOT_FOUND_MESSAGE }
export { getEventDraft, type EventDraft } from './draft.server.ts'

export const PAID_MEANWHILE_MESSAGE =
  'This ad has just been paid for, so this edit was not saved. Open it again to change its text, photo or video.'

export const PAYMENT_UNDER_WAY_MESSAGE =
  'A payment for this ad is being processed, so it cannot be edited now. Please check back shortly.'

export { parseEventInput, parseOlderCallInput } from './parse.server.ts'

/**
 * The business's own ad when it may still be edited (see `ownerEditKind`: unpaid, or paid and awaiting review or
 * sent back). Someone else's ad reads as not found (404), so nobody learns it exists; any other (live, ended,
 * rejected, refunded) is a 409.
 */
export async function requireEditableEvent(business: BusinessSessionCopy, id: unknown): Promise<Event> {
  const eventID = typeof id === 'number' ? id : parseId(typeof id === 'string' ? id : null)
  const event = eventID ? await getOwnedEvent(eventID, business.businessID) : null
  if (!event) throw new AppError(EVENT_NOT_FOUND_MESSAGE, 404)
  if (!ownerEditKind(event, platformToday())) throw new AppError(AD_NOT_EDITABLE_MESSAGE, 409)
  return event
}

/**
 * The ad as its edit form starts from: a live ad with an open revision (pending, or sent back) from the revision,
 * which is what the advertiser last sent; otherwise the saved ad.
 */
export async function adAsEdited(event: Event) {
  const revision = event.eventStatus === 'approved' ? await getOpenRevision(event.eventID) : null
  const current = revision ? revisedAd(event, revision) : event
  return {
    input: eventInputFromEvent(current),
    media: { stillPhotoPath: current.stillPhotoURL, videoPath: current.videoURL },
    reviewReason: revision ? revisionNotice(revision)?.reason || null : standingReviewReason(event),
  }
}

/** As `requireEditableEvent`, for a page: the 404/409 is thrown as the page's answer. */
export async function editableEventForPage(business: BusinessSessionCopy, id: unknown): Promise<Event> {
  try {
    return await requireEditableEvent(business, id)
  } catch (error) {
    throw errorResponse(error)
  }
}

/* The form ------------------------------------------------------------------------------------------------------- */

/** Everything the event form needs besides the advertiser: categories, the date picker's months, the price table. */
/** `keep`: the categories the edited ad has, offered even when hidden. */
export async function eventFormOptions(keep: readonly string[] = []) {
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
  }
}

/* The draft (without JavaScript) and its preview ----------------------------------------------------------------- */

/**
 * Without JavaScript the form posts here: the fields and checked files wait in the session as the draft of a new
 * ad (or of the edit of `eventID`), and the preview is its own page. A new file replaces the one chosen before;
 * otherwise the earlier upload is kept.
 */
export async function stageDraftFromForm(
  request: Request,
  {
    eventID,
    paidDates,
    keptCategories,
  }: { eventID?: number; paidDates?: PaidDates; keptCategories?: readonly string[] } = {},
) {
  const session = await getSession(request)
  let upload
  try {
    // Up to MAX_DISPLAY_DATES dates and every category arrive as repeated checkbox fields.
    upload = await parseMultipartUpload(request, {
      files: { image: 'photo', video: 'video' },
      maxFields: 128,
    })
  } catch (error) {
    if (error instanceof AppError) {
      const fieldErrors =
        Object.keys(error.fieldErrors).length > 0 ? error.fieldErrors : { image: [error.message] }
      // The body could not be read, so there are no values to give back.
      return data(
        { errors: fieldErrors as Record<string, string[]>, submitted: null },
        { status: error.status },
      )
    }
    throw error
  }
  const { fields, fieldLists, files } = upload
  const posted = {
    ...fields,
    eventCategory: fieldLists.eventCategory ?? [],
    showAdDates: fieldLists.showAdDates ?? [],
  }
  try {
    const input = parseEventInput(posted, paidDates)
    await assertCategoriesOffered(input.eventCategory, keptCategories)
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
    // The form comes back with what was typed, so a refused post loses nothing but the chosen files.
    if (error instanceof AppError)
      return data(
        { errors: error.fieldErrors, submitted: submittedValues(fields, posted) },
        { status: error.status },
      )
    throw error
  }
}

/** What a refused form post held, as the form's values (a field that was not sent is blank). */
function submittedValues(
  fields: Record<string, string>,
  lists: Pick<EventFormValues, 'eventCategory' | 'showAdDates'>,
) {
  return {
    eventTitle: fields.eventTitle ?? '',
    eventDescription: fields.eventDescription ?? '',
    eventCategory: lists.eventCategory,
    showAdDates: lists.showAdDates,
    eventDate: fields.eventDate || UNSET_DATE,
    contactPerson: fields.contactPerson ?? '',
    contactPhone: fields.contactPhone ?? '',
    contactEmail: fields.contactEmail ?? '',
  } satisfies EventFormValues
}

/** The preview page: the draft's card as customers will see it (media kept from the edited ad unless replaced). */
export async function draftPreview(request: Request, business: BusinessSessionCopy) {
  const draft = getEventDraft(await getSession(request))
  if (!draft) throw redirect('/dashboard/events/new')
  const edited = draft.eventID === undefined ? null : await editableEventForPage(business, draft.eventID)
  const media = edited ? (await adAsEdited(edited)).media : null
  const cardBusiness = await getCardBusiness(business.businessID)
  if (!cardBusiness) throw redirect('/login')
  return {
    // The same card data as the public page builds from the saved ad.
    card: customerCardData(cardBusiness, { ...draft.input, ...media }),
    cost: formatDollars(draft.totalCents),
    /** Paid already: saving sends the edit for review, with nothing to pay. */
    afterPayment: Boolean(edited && paidDatesOf(edited)),
    photoFileName: draft.files.photo?.originalName,
    videoFileName: draft.files.video?.originalName,
  }
}

/** Where "Cancel Your Ad" returns to: the form the draft came from. */
function formPath(draft: EventDraft) {
  return draft.eventID === undefined ? '/dashboard/events/new' : `/dashboard/events/${draft.eventID}/edit`
}

/** The preview's buttons: "approve" saves the draft and goes to checkout, "cancel" returns to its form. */
export async function decideOnPreview(request: Request, business: BusinessSessionCopy) {
  const session = await getSession(request)
  const intent = (await readFormData(request)).get('intent')
  const draft = getEventDraft(session)
  if (!draft) return redirect('/dashboard/events/new')

  if (intent === 'cancel') return redirectWithToast(formPath(draft), { title: 'Returning to Edit' })
  if (intent !== 'approve') return new Response('Unknown intent', { status: 400 })

  try {
    const { eventID, totalCents, resubmitted } = await saveAd({
      business,
      input: draft.input,
      files: draft.files,
      eventID: draft.eventID,
    })
    await discardStaged(Object.values(draft.files))
    setEventDraft(session, null)
    if (resubmitted) {
      const headers = { 'Set-Cookie': await sessionStorage.commitSession(session) }
      return redirectWithToast(`/event/${eventID}`, RESUBMITTED_TOAST, { headers })
    }
    rememberPayment(session, { business, input: draft.input, eventID, totalCents })
    const cookie = await sessionStorage.commitSession(session)
    return redirectWithToast(
      '/checkout',
      { title: 'Success!', description: 'Your ad has been saved. Now complete the payment.' },
      { headers: combineHeaders({ 'Set-Cookie': cookie }) },
    )
  } catch (error) {
    const known = error instanceof AppError
    if (!known) console.error('Approving an event failed', error)
    const description = known ? error.message : 'Failed to approve your ad. Please try again.'
    const toast = { title: 'Error', description, variant: 'destructive' } as const
    if (known && (error.status === 404 || error.status === 409)) {
      // The edited ad is gone or paid meanwhile: this draft can never be saved.
      await discardStaged(Object.values(draft.files))
      setEventDraft(session, null)
      const headers = { 'Set-Cookie': await sessionStorage.commitSession(session) }
      return redirectWithToast('/dashboard', toast, { headers })
    }
    return redirectWithToast('/dashboard/events/preview', toast)
  }
}

export const RESUBMITTED_TOAST = {
  title: 'Sent for review',
  description:
    'Your changes were sent to our reviewers. Your ad is already paid for: there is nothing more to pay.',
}

/* Saving and approving ------------------------------------------------------------------------------------------- */

/**
 * Saves the approved ad: a new one, or (with `eventID`) the business's own in place. Before the edit of an unpaid
 * ad, any checkout still open for the ad as it was is settled with the provider, so an old price cannot pay for new
 * dates. The edit of a paid ad goes back to review (`resubmitted`), never to payment.
 */
export async function saveAd(args: {
  business: BusinessSessionCopy
  input: EventInput
  files: { photo?: StagedFile; video?: StagedFile }
  claimedTotal?: number | null
  eventID?: number
}) {
  if (args.eventID !== undefined) {
    const edited = await requireEditableEvent(args.business, args.eventID)
    if (ownerEditKind(edited, platformToday()) !== 'draft') return saveEventWithMedia(args)
    const payments = await settleOpenPayments(args.eventID)
    if (payments === 'paid') throw new AppError(PAID_MEANWHILE_MESSAGE, 409)
    if (payments === 'unknown') throw new AppError(PAYMENT_UNDER_WAY_MESSAGE, 409)
  }
  return saveEventWithMedia(args)
}

/** The saved ad becomes the session's payment data: checkout pays for it next. */
export function rememberPayment(
  session: Session,
  {
    business,
    input,
    eventID,
    totalCents,
  }: { business: BusinessSessionCopy; input: EventInput; eventID: number; totalCents: number },
) {
  setEventPaymentData(
    session,
    paymentDataFor({ businessID: business.businessID, eventID, input, totalCents }),
  )
}

/**
 * The advertiser approves their saved ad for payment ("Confirm Ad", and the older JSON use of approve-event).
 * Someone else's ad is not found (404); a paid or refunded one is refused (409), so it is never paid twice.
 */
export async function approveAdForPayment(business: BusinessSessionCopy, eventID: number) {
  if (await confirmEventByBusiness(eventID, business.businessID, platformToday())) return
  if (!(await getOwnedEvent(eventID, business.businessID))) throw new AppError(EVENT_NOT_FOUND_MESSAGE, 404)
  throw new AppError(PAYMENT_TEXT.alreadyPaid.description, 409)
}

/**
 * The older POST /api/events: the ad saved from its fields alone (no media) as an unpaid draft the advertiser has
 * not approved yet; approving it is `approveAdForPayment`.
 */
export function saveEventDraft(business: BusinessSessionCopy, input: EventInput) {
  return saveUnapprovedEvent(business, input)
}

/* The demo card -------------------------------------------------------------------------------------------------- */

/**
 * The Business Event Creation Card demo: a simple form without a date picker, so the ad shows today.
 * The business id in the form must be the signed-in business's own (403); what the checks refuse is an AppError.
 */
export async function saveDemoEvent(
  request: Request,
  business: BusinessSessionCopy,
): Promise<{ eventID: number; message: string }> {
  const upload = await parseMultipartUpload(request, {
    files: { image: 'photo', video: 'video' },
    maxFields: 64,
  })
  const { fields, files } = upload
  try {
    if (fields.businessID !== undefined && Number(fields.businessID) !== business.businessID) {
      throw new AppError('That business is not yours.', 403)
    }
    const input = parseEventInput({
      ...fields,
      eventCategory: fields.eventCategory || 'Other',
      showAdDates: fields.showAdDates ? fields.showAdDates.split(',').filter(Boolean) : [platformToday()],
    })
    const { eventID } = await saveEventWithMedia({
      business,
      input,
      files: { photo: files.image, video: files.video },
    })
    return { eventID, message: 'Event created successfully' }
  } finally {
    await discardStaged(files)
  }
}
