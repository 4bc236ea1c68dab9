import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { GoLiveNotice } from '#app/components/go-live-notice.tsx'
import { ReviewReason } from '#app/components/review-reason.tsx'
import { RouteDialog } from '#app/components/route-dialog.tsx'
import { EventForm } from '#app/components/event-form.tsx'
import { requireBusiness } from '#app/services/http/auth.server.ts'
import { getEventDraft } from '#app/services/ads/draft.server.ts'
import { eventFormPost } from '#app/services/ads/draft-form.server.ts'
import { requireEditableEvent } from '#app/services/ads/editable.server.ts'
import { editEventFormPage } from '#app/services/ads/form-page.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { getSession } from '#app/services/http/session.server.ts'
import { stageFormPost } from '#app/services/http/staged-form-post.server.ts'

export const meta: MetaFunction = () => [{ title: 'Edit Event Listing · EventShout' }]

export async function loader({ request, params }: LoaderFunctionArgs) {
  const business = await requireBusiness(request)
  const draft = getEventDraft(await getSession(request))
  // Not theirs (404) or no longer editable (409): the page's error boundary says so.
  const page = await editEventFormPage(business, params.id, draft).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  if (!page) throw redirect('/login')
  return page
}

/** Without JavaScript: as for a new ad, with the draft marked as this ad's edit. */
export async function action({ request, params }: ActionFunctionArgs) {
  const business = await requireBusiness(request)
  const edited = await requireEditableEvent(business, params.id).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  return stageFormPost(request, eventFormPost(edited), '/dashboard/events/preview')
}

export default function EditEventPage() {
  const { eventID, savedMedia, paid, live, editGoesLiveAtOnce, reviewReason, ...form } =
    useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <RouteDialog labelledBy="create-event-heading" closeTo={`/event/${eventID}`}>
      <h2 id="create-event-heading" className="pr-16 text-3xl font-bold">
        Edit Event Listing
      </h2>
      <p className="mt-1 text-slate-600">
        {live && editGoesLiveAtOnce
          ? 'Your ad is live: change its text, photo or video. Its dates and cost stay as paid for.'
          : live
            ? 'Your ad is live: change its text, photo or video and send the changes for review. Customers keep seeing the live version until they are approved. Its dates and cost stay as paid for.'
            : paid
              ? 'Your ad is paid for: change its text, photo or video and send it for review again. Its dates and cost stay as paid for.'
              : 'Change your ad before you pay for it.'}{' '}
        Your photo and video stay unless you choose new files.
      </p>
      {live ? (
        <div className="mt-4">
          <GoLiveNotice atOnce={editGoesLiveAtOnce} edit />
        </div>
      ) : null}
      {reviewReason ? <ReviewReason reason={reviewReason} className="mt-4" /> : null}
      <div className="mt-6">
        <EventForm
          key={eventID}
          {...form}
          initial={actionData?.result.initialValue ?? form.initial}
          errors={actionData?.result.error}
          editing={{ eventID, ...savedMedia, paid }}
        />
      </div>
    </RouteDialog>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 409: ({ message }) => <NotEditable message={message} /> }} />
}

function NotEditable({ message }: { message: string }) {
  return (
    <div
      role="alert"
      className="mx-auto mt-8 max-w-xl rounded-2xl border border-amber-300 bg-amber-50 p-6 text-center"
    >
      <h2 className="text-xl font-bold text-ink">This ad can no longer be edited</h2>
      <p className="mt-2 text-slate-700">{message}</p>
    </div>
  )
}
