import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { RouteDialog } from '#app/components/route-dialog.tsx'
import { EventForm } from '#app/components/event-form.tsx'
import { requireBusiness } from '#app/services/http/auth.server.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import { getEventDraft } from '#app/services/ads/draft.server.ts'
import { eventFormPost } from '#app/services/ads/draft-form.server.ts'
import { newEventFormPage } from '#app/services/ads/form-page.server.ts'
import { getSession } from '#app/services/http/session.server.ts'
import { stageFormPost } from '#app/services/http/staged-form-post.server.ts'

export const meta: MetaFunction = () => [{ title: 'Create Event Listing · EventShout' }]

export async function loader({ request }: LoaderFunctionArgs) {
  const business = await requireBusiness(request)
  // The address "Edit Event" used to lead to.
  const from = parseId(new URL(request.url).searchParams.get('from'))
  if (from) throw redirect(`/dashboard/events/${from}/edit`)
  const page = await newEventFormPage(business, getEventDraft(await getSession(request)))
  if (!page) throw redirect('/login')
  return page
}

/**
 * Without JavaScript: the form posts here, the fields and files wait in the session as the draft, and the preview is
 * its own page. A refusal comes back to the form with what was typed (nothing when the body could not be read).
 */
export async function action({ request }: ActionFunctionArgs) {
  await requireBusiness(request)
  return stageFormPost(request, eventFormPost(), '/dashboard/events/preview')
}

export default function NewEventPage() {
  const form = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <RouteDialog labelledBy="create-event-heading" closeTo="/dashboard">
      <h2 id="create-event-heading" className="pr-16 text-3xl font-bold">
        Create Event Listing
      </h2>
      <p className="mt-1 text-slate-600">
        Tell customers about your event or special. You can preview it before paying.
      </p>
      <div className="mt-6">
        <EventForm
          {...form}
          initial={actionData?.result.initialValue ?? form.initial}
          errors={actionData?.result.error}
        />
      </div>
    </RouteDialog>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
