/**
 * What the advertiser's approval of an ad does: the ad approved from its preview or by /api/approve-event is saved
 * (new, or the edit of their own) and becomes the session's payment data for checkout; a saved ad is confirmed for
 * payment; and the older POST /api/events saves the unapproved draft that such a confirmation approves later.
 * Payment itself is checkout's (payments/checkout.server.ts, payments/payment-data.server.ts).
 */
import { ownerEditKind } from '#app/models/ads/event-status.ts'
import { confirmEventByBusiness, getOwnedEvent } from '#app/models/ads/event.server.ts'
import { paidDatesOf, type EventInput } from '#app/models/ads/event-schema.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import { AppError } from '#app/utils/app-error.ts'
import { PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import type { BusinessSessionCopy } from '../http/auth.server.ts'
import { jsonText, NOT_JSON_MESSAGE } from '../http/request-body.server.ts'
import type { ParsedUpload, ParseUploadOptions } from '../media/media-upload.server.ts'
import { discardStaged, type StagedFile } from '../media/media.server.ts'
import type { MailContext } from '#app/models/mail/notifications.server.ts'
import { submitFreeListing, withFreeListingSlots } from '../payments/free-listing.server.ts'
import { paymentDataFor, setEventPaymentData } from '../payments/payment-data.server.ts'
import { settleOpenPayments } from '../payments/payment-setup.server.ts'
import { currentFreeAllowance } from '../payments/pricing.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import type { ServerSession } from './draft.server.ts'
import { requireEditableEvent } from './editable.server.ts'
import { parseEventInput } from './parse.server.ts'
import { EVENT_NOT_FOUND_MESSAGE, saveEventWithMedia, saveUnapprovedEvent } from './save.server.ts'

export const PAID_MEANWHILE_MESSAGE =
  'This ad has just been paid for, so this edit was not saved. Open it again to change its text, photo or video.'

export const PAYMENT_UNDER_WAY_MESSAGE =
  'A payment for this ad is being processed, so it cannot be edited now. Please check back shortly.'

export const RESUBMITTED_TOAST = {
  title: 'Sent for review',
  description:
    'Your changes were sent to our reviewers. Your ad is already paid for: there is nothing more to pay.',
}

/** A trusted business's edit of its live ad: applied at once. */
export const LIVE_EDIT_TOAST = {
  title: 'Changes are live',
  description: 'Your business is trusted: your changes are on the public pages now. There is nothing to pay.',
}

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
    if (payments === 'paid') throw new AppError(PAID_MEANWHILE_MESSAGE, 'conflict')
    if (payments === 'unknown') throw new AppError(PAYMENT_UNDER_WAY_MESSAGE, 'conflict')
  }
  return saveEventWithMedia(args)
}

/** Who sends an ad: the client's address (the free listings' cap per address) and the site, for its emails. */
export interface AdSender {
  ip: string
  mail?: MailContext
}

/**
 * Saves the approved ad (`saveAd`); a new or unpaid ad that is a free listing is then sent on without a card
 * (`submitFreeListing`: to review, or live for a trusted business), within the day's caps of free listings, and
 * comes back `free`. A refusal of either step gives the caps' slots back.
 */
export async function saveAndSubmitAd(args: Parameters<typeof saveAd>[0], sender: AdSender) {
  const edited =
    args.eventID === undefined ? null : await getOwnedEvent(args.eventID, args.business.businessID)
  const mayBeFree = !edited || edited.paymentStatus === 'pending'
  if (!mayBeFree || !(await currentFreeAllowance(args.input.eventCategory))) {
    return { ...(await saveAd(args)), free: false }
  }
  const businessID = args.business.businessID
  return withFreeListingSlots({ businessID, ip: sender.ip }, async () => {
    const saved = await saveAd(args)
    if (saved.resubmitted || saved.totalCents !== 0) return { ...saved, free: false }
    await submitFreeListing({ businessID, eventID: saved.eventID, mail: sender.mail })
    return { ...saved, free: true }
  })
}

/** What /api/approve-event reads beside the ad's fields: its photo and video. */
export const APPROVAL_UPLOAD = {
  files: { image: 'photo', video: 'video' },
} as const satisfies ParseUploadOptions

/** A JSON text field of the approval's post, parsed (absent or empty: undefined). */
function parseJsonField(value: string | undefined, field: string) {
  if (value === undefined || value === '') return undefined
  const parsed = jsonText(field).safeParse(value)
  if (parsed.success) return parsed.data
  const message = parsed.error.issues[0]?.message ?? NOT_JSON_MESSAGE
  throw new AppError(message === NOT_JSON_MESSAGE ? `${field} ${NOT_JSON_MESSAGE}` : message, 'invalid')
}

/**
 * "Approve Your Ad" with JavaScript (/api/approve-event): the ad's fields (`eventData`, `selectedDates` as JSON, the
 * claimed `totalAmount`) checked and saved with its files by `saveAd`, new or (with `eventID`) the edit of the
 * business's own; the staged files are removed whatever happens. Returns the saved ad with the input it was saved
 * from; a refusal is an AppError.
 */
export async function saveApprovedUpload(
  business: BusinessSessionCopy,
  { fields, files }: ParsedUpload,
  sender: AdSender,
) {
  try {
    // Present when the advertiser edits their ad: it is saved in place instead of as a new one.
    const eventID = fields.eventID ? parseId(fields.eventID) : undefined
    if (eventID === null) throw new AppError('eventID must be an event id', 'invalid')
    const edited = eventID === undefined ? null : await requireEditableEvent(business, eventID)
    const eventData = parseJsonField(fields.eventData, 'eventData')
    const selectedDates = parseJsonField(fields.selectedDates, 'selectedDates')
    const input = parseEventInput(
      {
        ...(typeof eventData === 'object' && eventData ? eventData : {}),
        ...(selectedDates !== undefined ? { showAdDates: selectedDates } : {}),
      },
      edited ? paidDatesOf(edited) : undefined,
    )
    const claimed =
      fields.totalAmount === undefined || fields.totalAmount === '' ? null : Number(fields.totalAmount)
    if (claimed !== null && !Number.isFinite(claimed))
      throw new AppError('totalAmount must be a number', 'invalid')
    const saved = await saveAndSubmitAd(
      { business, input, files: { photo: files.image, video: files.video }, claimedTotal: claimed, eventID },
      sender,
    )
    return { ...saved, input }
  } finally {
    await discardStaged(Object.values(files))
  }
}

/** The saved ad becomes the session's payment data: checkout pays for it next. */
export function rememberPayment(
  session: ServerSession,
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
 * Someone else's ad is not found; a paid or refunded one is a conflict, so it is never paid twice.
 */
export async function approveAdForPayment(business: BusinessSessionCopy, eventID: number) {
  if (await confirmEventByBusiness(eventID, business.businessID, platformToday())) return
  if (!(await getOwnedEvent(eventID, business.businessID)))
    throw new AppError(EVENT_NOT_FOUND_MESSAGE, 'not_found')
  throw new AppError(PAYMENT_TEXT.alreadyPaid.description, 'conflict')
}

/**
 * The older POST /api/events: the ad saved from its fields alone (no media) as an unpaid draft the advertiser has
 * not approved yet; approving it is `approveAdForPayment`.
 */
export function saveEventDraft(business: BusinessSessionCopy, input: EventInput) {
  return saveUnapprovedEvent(business, input)
}
