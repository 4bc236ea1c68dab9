import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { ScheduleStatusPage } from '#app/components/schedule-status-form.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { requireBusiness } from '#app/services/http/auth.server.ts'
import { scheduleStatusFormSchema } from '#app/models/ads/schedule-status-schema.ts'
import { changeScheduleStatus, refusedAtForm, scheduleFormOf } from '#app/services/ads/schedule.server.ts'
import { answerFormPost } from '#app/services/http/form-post.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'

export const handle = { hydrate: false }

export const meta: MetaFunction = () => [{ title: `Is the event still on? · ${PRODUCT_NAME}` }]

const adPage = (id: string | undefined) => `/dashboard/events/${encodeURIComponent(id ?? '')}`

/** The status form on a page of its own (it is also on the ad's page): 404 for no such ad, 403 for another business's. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const actor = { kind: 'business' as const, business: await requireBusiness(request) }
  try {
    return await scheduleFormOf(actor, params.id)
  } catch (error) {
    throw errorResponse(error, { request })
  }
}

/**
 * POST /dashboard/events/{id}/status: the owner marks the live ad Cancelled, Postponed, Sold out or back on, then back to its
 * page with a toast; a refusal of the choice or note is drawn on this page with the form (400/409).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const actor = { kind: 'business' as const, business: await requireBusiness(request) }
  return answerFormPost(request, {
    schema: scheduleStatusFormSchema,
    change: (form) =>
      changeScheduleStatus({
        actor,
        eventID: params.id,
        choice: form.get('status'),
        note: form.get('note'),
        newDates: form.getAll('newDates'),
      }),
    refusedAtForm,
    redirectTo: adPage(params.id),
  })
}

export default function ScheduleStatusRoute() {
  const ad = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  return <ScheduleStatusPage ad={ad} adPath={`/dashboard/events/${ad.eventID}`} reply={answer?.result} />
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
