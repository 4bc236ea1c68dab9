/** The draft's preview page: the card as customers will see it, and its buttons (save and pay, or back to the form). */
import { redirect } from '@remix-run/node'
import { getCardBusiness } from '#app/models/accounts/business.server.ts'
import { customerCardData } from '#app/models/ads/customer-card.ts'
import { paidDatesOf } from '#app/models/ads/event-schema.ts'
import { AppError } from '#app/utils/app-error.ts'
import { formatDollars } from '#app/utils/pricing.ts'
import type { BusinessSessionCopy } from '../accounts/auth.server.ts'
import { getSession, sessionStorage } from '../accounts/session.server.ts'
import { combineHeaders } from '../http/http.server.ts'
import { readFormData } from '../http/request-body.server.ts'
import { redirectWithToast } from '../http/toast.server.ts'
import { discardStaged } from '../media/media.server.ts'
import { LIVE_EDIT_TOAST, rememberPayment, RESUBMITTED_TOAST, saveAd } from './approval.server.ts'
import { getEventDraft, setEventDraft, type EventDraft } from './draft.server.ts'
import { adAsEdited, editableEventForPage } from './editable.server.ts'

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
    /** The dates the ad is paid for, repeat rules expanded: shown before checkout. */
    dates: draft.input.showAdDates,
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
    const { eventID, totalCents, resubmitted, appliedAtOnce } = await saveAd({
      business,
      input: draft.input,
      files: draft.files,
      eventID: draft.eventID,
    })
    await discardStaged(Object.values(draft.files))
    setEventDraft(session, null)
    if (resubmitted) {
      const headers = { 'Set-Cookie': await sessionStorage.commitSession(session) }
      return redirectWithToast(`/event/${eventID}`, appliedAtOnce ? LIVE_EDIT_TOAST : RESUBMITTED_TOAST, {
        headers,
      })
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
    if (known && (error.kind === 'not_found' || error.kind === 'conflict')) {
      // The edited ad is gone or paid meanwhile: this draft can never be saved.
      await discardStaged(Object.values(draft.files))
      setEventDraft(session, null)
      const headers = { 'Set-Cookie': await sessionStorage.commitSession(session) }
      return redirectWithToast('/dashboard', toast, { headers })
    }
    return redirectWithToast('/dashboard/events/preview', toast)
  }
}
