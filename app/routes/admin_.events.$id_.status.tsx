import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { ScheduleStatusForm } from '#app/components/schedule-status-form.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { NOT_LIVE_SCHEDULE_MESSAGE } from '#app/models/ads/schedule-status.ts'
import { scheduleStatusFormSchema } from '#app/models/ads/schedule-status-schema.ts'
import { changeScheduleStatus, refusedAtForm, scheduleFormOf } from '#app/services/ads/schedule.server.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
import { parseFormSubmission } from '#app/services/http/form-submission.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'

export const meta: MetaFunction = () => [{ title: `Is the event still on? · ${PRODUCT_NAME}` }]

const adPage = (id: string | undefined) => `/admin/events/${encodeURIComponent(id ?? '')}`

/** The status form on a page of its own (it is also on the ad's page): 404 for no such ad. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const actor = { kind: 'admin' as const, user: await requireRole(request, 'admin') }
  try {
    return await scheduleFormOf(actor, params.id)
  } catch (error) {
    throw errorResponse(error, { request })
  }
}

/**
 * POST /admin/events/{id}/status: an administrator marks the live ad Cancelled, Postponed, Sold out or back on, then back
 * to its page with a toast. A refusal of the choice or note is drawn on this page with the form (`{ result }`, 400/409);
 * no such ad is 404.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, 'admin')
  const form = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const submission = parseFormSubmission(form, scheduleStatusFormSchema)
  const actor = { kind: 'admin' as const, user }
  try {
    const { toast } = await changeScheduleStatus({
      actor,
      eventID: params.id,
      choice: form.get('status'),
      note: form.get('note'),
    })
    return redirectWithToast(adPage(params.id), toast)
  } catch (error) {
    if (!refusedAtForm(error)) throw errorResponse(error, { request })
    return errorResponse(error, {
      request,
      reply: (refusal) => ({
        result: submission.reply(
          Object.keys(refusal.fieldErrors).length
            ? { fieldErrors: refusal.fieldErrors }
            : { formErrors: [refusal.message] },
        ),
      }),
    })
  }
}

export default function ScheduleStatusPage() {
  const ad = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  return (
    <main className="mx-auto max-w-3xl px-4 py-8">
      <p className="text-sm">
        <Link to={`/admin/events/${ad.eventID}`} className="font-medium text-brand-700 underline">
          ← Back to {ad.eventTitle}
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold break-words text-ink">{ad.eventTitle}</h1>
      {ad.live ? (
        <ScheduleStatusForm
          action={`/admin/events/${ad.eventID}/status`}
          status={ad.status}
          note={ad.note}
          reply={answer?.result}
        />
      ) : (
        <p className="mt-4 text-slate-700">{NOT_LIVE_SCHEDULE_MESSAGE}</p>
      )}
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
