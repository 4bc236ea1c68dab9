import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { Form, useLoaderData, useNavigation } from '@remix-run/react'
import { CustomerEventCard } from '#app/components/customer-event-card.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { RouteDialog } from '#app/components/route-dialog.tsx'
import { getCardBusiness } from '#app/models/business.server.ts'
import { customerCardData } from '#app/models/customer-card.ts'
import { requireBusiness } from '#app/services/auth.server.ts'
import { rememberPayment } from '#app/services/event-approval.server.ts'
import { getEventDraft, setEventDraft, type EventDraft } from '#app/services/event-draft.server.ts'
import { requireEditableEvent, saveAd } from '#app/services/event-edit.server.ts'
import { discardStaged } from '#app/services/media.server.ts'
import { AppError, appErrorResponse } from '#app/utils/app-error.ts'
import { formatDollars } from '#app/utils/pricing.ts'
import { getSession, sessionStorage } from '#app/services/session.server.ts'
import { redirectWithToast } from '#app/services/toast.server.ts'
import { combineHeaders } from '#app/services/http.server.ts'
import { readFormData } from '#app/services/request-body.server.ts'

export const meta: MetaFunction = () => [{ title: 'Preview Your Ad · EventShout' }]

/** Where "Cancel Your Ad" returns to: the form the draft came from. */
function formPath(draft: EventDraft) {
  return draft.eventID === undefined ? '/dashboard/events/new' : `/dashboard/events/${draft.eventID}/edit`
}

export async function loader({ request }: LoaderFunctionArgs) {
  const business = await requireBusiness(request)
  const draft = getEventDraft(await getSession(request))
  if (!draft) throw redirect('/dashboard/events/new')
  let edited = null
  try {
    edited = draft.eventID === undefined ? null : await requireEditableEvent(business, draft.eventID)
  } catch (error) {
    if (error instanceof AppError) throw appErrorResponse(error)
    throw error
  }
  const cardBusiness = await getCardBusiness(business.businessID)
  if (!cardBusiness) throw redirect('/login')
  return {
    // The same card data as the public page builds from the saved ad (media kept from it unless replaced).
    card: customerCardData(cardBusiness, {
      ...draft.input,
      stillPhotoPath: edited?.stillPhotoURL,
      videoPath: edited?.videoURL,
    }),
    cost: formatDollars(draft.totalCents),
    photoFileName: draft.files.photo?.originalName,
    videoFileName: draft.files.video?.originalName,
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const business = await requireBusiness(request)
  const session = await getSession(request)
  const form = await readFormData(request)
  const intent = form.get('intent')
  const draft = getEventDraft(session)
  if (!draft) return redirect('/dashboard/events/new')

  if (intent === 'cancel') {
    return redirectWithToast(formPath(draft), { title: 'Returning to Edit' })
  }
  if (intent !== 'approve') return new Response('Unknown intent', { status: 400 })

  try {
    const { eventID, totalCents } = await saveAd({
      business,
      input: draft.input,
      files: draft.files,
      eventID: draft.eventID,
    })
    await discardStaged(Object.values(draft.files))
    setEventDraft(session, null)
    rememberPayment(session, { business, input: draft.input, eventID, totalCents })
    const cookie = await sessionStorage.commitSession(session)
    return redirectWithToast(
      '/checkout',
      { title: 'Success!', description: 'Your ad has been saved. Now complete the payment.' },
      { headers: combineHeaders({ 'Set-Cookie': cookie }) },
    )
  } catch (error) {
    const description = error instanceof AppError ? error.message : 'Failed to approve your ad. Please try again.'
    if (!(error instanceof AppError)) console.error('Approving an event failed', error)
    const toast = { title: 'Error', description, variant: 'destructive' } as const
    if (error instanceof AppError && (error.status === 404 || error.status === 409)) {
      // The edited ad is gone or paid meanwhile: this draft can never be saved.
      await discardStaged(Object.values(draft.files))
      setEventDraft(session, null)
      const headers = { 'Set-Cookie': await sessionStorage.commitSession(session) }
      return redirectWithToast('/dashboard', toast, { headers })
    }
    return redirectWithToast('/dashboard/events/preview', toast)
  }
}

export default function PreviewPage() {
  const { card, cost, photoFileName, videoFileName } = useLoaderData<typeof loader>()
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  return (
    <RouteDialog labelledBy="preview-page-heading" closeTo="/dashboard">
      <h2 id="preview-page-heading" className="pr-16 text-3xl font-bold">
        Preview Your Ad - Customer View
      </h2>
      <p className="mt-2 text-lg font-semibold">Total Cost: ${cost}</p>
      <Form method="post" id="preview-form" />
      <CustomerEventCard
        className="mt-4"
        mode="preview"
        cost={cost}
        event={card}
        media={{ photoFileName, videoFileName }}
        approve={{ submit: { form: 'preview-form', name: 'intent', value: 'approve' }, disabled: busy }}
        reject={{ submit: { form: 'preview-form', name: 'intent', value: 'cancel' }, disabled: busy }}
      />
    </RouteDialog>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
