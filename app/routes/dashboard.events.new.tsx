import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { RouteDialog } from '#app/components/route-dialog.tsx'
import { EventForm } from '#app/components/event-form.tsx'
import { requireBusiness } from '#app/services/accounts/auth.server.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import { stageDraftFromForm } from '#app/services/ads/draft-form.server.ts'
import { blankFormValues, eventFormPageData } from '#app/services/ads/form-page.server.ts'

export const meta: MetaFunction = () => [{ title: 'Create Event Listing · EventShout' }]

export async function loader({ request }: LoaderFunctionArgs) {
  const business = await requireBusiness(request)
  // The address "Edit Event" used to lead to.
  const from = parseId(new URL(request.url).searchParams.get('from'))
  if (from) throw redirect(`/dashboard/events/${from}/edit`)
  return eventFormPageData(request, business, { saved: blankFormValues(business) })
}

/** Without JavaScript: the form posts here, the files wait on the server, and the preview is its own page. */
export async function action({ request }: ActionFunctionArgs) {
  await requireBusiness(request)
  return stageDraftFromForm(request)
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
        <EventForm {...form} initial={actionData?.submitted ?? form.initial} errors={actionData?.errors} />
      </div>
    </RouteDialog>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
