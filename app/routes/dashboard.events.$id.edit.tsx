import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { RouteDialog } from '#app/components/route-dialog.tsx'
import { EventForm } from '#app/components/event-form.tsx'
import { eventInputFromEvent } from '#app/models/event-schema.ts'
import { requireBusiness } from '#app/services/auth.server.ts'
import {
  editableEventForPage,
  eventFormPageData,
  stageDraftFromForm,
} from '#app/services/event-ad/index.server.ts'

export const meta: MetaFunction = () => [{ title: 'Edit Event Listing · EventShout' }]

export async function loader({ request, params }: LoaderFunctionArgs) {
  const business = await requireBusiness(request)
  const event = await editableEventForPage(business, params.id)
  const page = await eventFormPageData(request, business, {
    eventID: event.eventID,
    saved: eventInputFromEvent(event),
  })
  return {
    ...page,
    eventID: event.eventID,
    savedMedia: { stillPhotoPath: event.stillPhotoURL, videoPath: event.videoURL },
  }
}

/** Without JavaScript: as for a new ad, with the draft marked as this ad's edit. */
export async function action({ request, params }: ActionFunctionArgs) {
  const business = await requireBusiness(request)
  const event = await editableEventForPage(business, params.id)
  return stageDraftFromForm(request, { eventID: event.eventID })
}

export default function EditEventPage() {
  const { eventID, savedMedia, ...form } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <RouteDialog labelledBy="create-event-heading" closeTo={`/event/${eventID}`}>
      <h2 id="create-event-heading" className="pr-16 text-3xl font-bold">
        Edit Event Listing
      </h2>
      <p className="mt-1 text-slate-600">
        Change your ad before you pay for it. Your photo and video stay unless you choose new files.
      </p>
      <div className="mt-6">
        <EventForm key={eventID} {...form} errors={actionData?.errors} editing={{ eventID, ...savedMedia }} />
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
