import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { ChosenDates } from '#app/components/chosen-dates.tsx'
import { CustomerEventCard } from '#app/components/customer-event-card.tsx'
import { RESUBMIT_LABEL } from '#app/components/event-form.tsx'
import { APPROVE_FAILED_MESSAGE } from '#app/components/event-form/approval-upload.ts'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { RouteDialog } from '#app/components/route-dialog.tsx'
import { requireBusiness } from '#app/services/http/auth.server.ts'
import { FieldErrors } from '#app/components/form-field.tsx'
import { previewDecisionSchema } from '#app/models/ads/preview-schema.ts'
import {
  FREE_PREVIEW_TEXT,
  freeListingSentPath,
  SUBMIT_FREE_LABEL,
} from '#app/models/payments/free-listing.ts'
import { CONTINUE_ANYWAY_TEXT, ownDuplicateParts } from '#app/models/ads/duplicate-warning.ts'
import { LIVE_EDIT_TOAST, rememberPayment, RESUBMITTED_TOAST } from '#app/services/ads/approval.server.ts'
import { getEventDraft, setEventDraft } from '#app/services/ads/draft.server.ts'
import { approveDraft, draftFormPath, draftPreview } from '#app/services/ads/preview.server.ts'
import { parseFormSubmission, refusalMessage } from '#app/services/http/form-submission.server.ts'
import { clientIp } from '#app/services/http/client-address.server.ts'
import { errorResponse, logServerFault } from '#app/services/http/http.server.ts'
import { mailContext } from '#app/services/http/site-url.server.ts'
import { REQUEST_ID_HEADER } from '#app/services/http/request-log.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { getSession, sessionStorage } from '#app/services/http/session.server.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'
import { logError } from '#app/services/platform/logger.server.ts'
import { AppError } from '#app/utils/app-error.ts'

export const meta: MetaFunction = () => [{ title: 'Preview Your Ad · EventShout' }]

const NEW_AD_PATH = '/dashboard/events/new'

export async function loader({ request }: LoaderFunctionArgs) {
  const business = await requireBusiness(request)
  const draft = getEventDraft(await getSession(request))
  if (!draft) throw redirect(NEW_AD_PATH)
  // The edited ad no longer editable (404/409): the page's error boundary says so.
  const preview = await draftPreview(business, draft).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  if (!preview) throw redirect('/login')
  return preview
}

/**
 * The preview's buttons: "approve" saves the draft and goes to checkout (or, for the edit of a paid ad, to the ad's
 * page), "cancel" returns to the form the draft came from.
 */
export async function action({ request }: ActionFunctionArgs) {
  const business = await requireBusiness(request)
  const session = await getSession(request)
  // A body the reader refuses (413/415/400): the page's error boundary shows it.
  const form = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const draft = getEventDraft(session)
  if (!draft) return redirect(NEW_AD_PATH)
  const submission = parseFormSubmission(form, previewDecisionSchema)
  if (submission.status !== 'success') {
    return errorResponse(new AppError(refusalMessage(submission), 'invalid'), {
      request,
      reply: () => ({ result: submission.reply() }),
    })
  }
  if (submission.value.intent === 'cancel') {
    return redirectWithToast(draftFormPath(draft), { title: 'Returning to Edit' })
  }

  let approval
  try {
    approval = await approveDraft(business, draft, { ip: clientIp(request), mail: mailContext(request) })
  } catch (error) {
    const known = error instanceof AppError
    if (known) logServerFault(error, request)
    else {
      const requestId = request.headers.get(REQUEST_ID_HEADER) ?? undefined
      logError(error, { requestId, msg: 'Approving an event failed' })
    }
    const description = known ? error.message : APPROVE_FAILED_MESSAGE
    return redirectWithToast('/dashboard/events/preview', {
      title: 'Error',
      description,
      variant: 'destructive',
    })
  }
  setEventDraft(session, null)
  if (approval.kind === 'saved') {
    const { eventID, totalCents } = approval
    rememberPayment(session, { business, input: draft.input, eventID, totalCents })
  }
  const headers = { 'Set-Cookie': await sessionStorage.commitSession(session) }
  switch (approval.kind) {
    case 'dropped':
      return redirectWithToast(
        '/dashboard',
        { title: 'Error', description: approval.message, variant: 'destructive' },
        { headers },
      )
    case 'resubmitted':
      return redirectWithToast(
        `/event/${approval.eventID}`,
        approval.appliedAtOnce ? LIVE_EDIT_TOAST : RESUBMITTED_TOAST,
        { headers },
      )
    case 'free':
      return redirect(freeListingSentPath(approval.eventID), { headers })
    case 'saved':
      return redirectWithToast(
        '/checkout',
        { title: 'Success!', description: 'Your ad has been saved. Now complete the payment.' },
        { headers },
      )
  }
}

export default function PreviewPage() {
  const { card, cost, dates, afterPayment, free, priceNote, photoFileName, videoFileName, duplicate } =
    useLoaderData<typeof loader>()
  const warning = duplicate ? ownDuplicateParts(duplicate.eventTitle, duplicate.date) : null
  const answer = useActionData<typeof action>()
  const refused = Object.values(answer?.result.error ?? {}).flatMap((messages) => messages ?? [])
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  return (
    <RouteDialog labelledBy="preview-page-heading" closeTo="/dashboard">
      <h2 id="preview-page-heading" className="pr-16 text-3xl font-bold">
        Preview Your Ad - Customer View
      </h2>
      <p className="mt-2 text-lg font-semibold">
        Total Cost: ${cost}
        {afterPayment ? ' (paid)' : ''}
      </p>
      {free ? <p className="mt-1 text-slate-700">{FREE_PREVIEW_TEXT}</p> : null}
      {priceNote ? (
        <p className="mt-1 text-sm text-slate-700" data-testid="highest-price-note">
          {priceNote}
        </p>
      ) : null}
      <ChosenDates dates={dates} />
      {duplicate && warning ? (
        <div
          role="status"
          data-testid="duplicate-warning"
          className="mt-4 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950"
        >
          <p className="font-semibold">
            {warning.before}
            <Link to={duplicate.href} className="underline">
              {warning.title}
            </Link>
            {warning.after}
          </p>
          <p className="mt-1 text-sm">{CONTINUE_ANYWAY_TEXT}</p>
        </div>
      ) : null}
      <Form method="post" id="preview-form" />
      <FieldErrors id="preview-form-error" errors={refused} />
      <CustomerEventCard
        className="mt-4"
        mode="preview"
        cost={cost}
        event={card}
        media={{ photoFileName, videoFileName }}
        approve={{
          submit: { form: 'preview-form', name: 'intent', value: 'approve' },
          disabled: busy,
          label: afterPayment ? RESUBMIT_LABEL : free ? SUBMIT_FREE_LABEL : undefined,
        }}
        reject={{ submit: { form: 'preview-form', name: 'intent', value: 'cancel' }, disabled: busy }}
      />
    </RouteDialog>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
