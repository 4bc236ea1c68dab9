import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { GoLiveNotice } from '#app/components/go-live-notice.tsx'
import { ReviewReason } from '#app/components/review-reason.tsx'
import { RouteDialog } from '#app/components/route-dialog.tsx'
import { EventForm } from '#app/components/event-form.tsx'
import { paidDatesOf } from '#app/models/ads/event-schema.ts'
import { requireBusiness } from '#app/services/accounts/auth.server.ts'
import { stageDraftFromForm } from '#app/services/ads/draft-form.server.ts'
import { adAsEdited, editableEventForPage } from '#app/services/ads/editable.server.ts'
import { eventFormPageData } from '#app/services/ads/form-page.server.ts'
import { trustOf } from '#app/services/moderation/trust.server.ts'

export const meta: MetaFunction = () => [{ title: 'Edit Event Listing · EventShout' }]

export async function loader({ request, params }: LoaderFunctionArgs) {
  const business = await requireBusiness(request)
  const event = await editableEventForPage(business, params.id)
  const edited = await adAsEdited(event)
  const page = await eventFormPageData(request, business, { eventID: event.eventID, saved: edited.input })
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

/** Without JavaScript: as for a new ad, with the draft marked as this ad's edit. */
export async function action({ request, params }: ActionFunctionArgs) {
  const business = await requireBusiness(request)
  const event = await editableEventForPage(business, params.id)
  return stageDraftFromForm(request, {
    eventID: event.eventID,
    paidDates: paidDatesOf(event),
    keptCategories: event.category,
  })
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
          initial={actionData?.submitted ?? form.initial}
          errors={actionData?.errors}
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
