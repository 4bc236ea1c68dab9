import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useActionData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { ScheduleStatusForm } from '#app/components/schedule-status-form.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { scheduleStatusFormSchema } from '#app/models/ads/schedule-status-schema.ts'
import { changeScheduleStatus, refusedAtForm, scheduleFormOf } from '#app/services/ads/schedule.server.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
import { parseFormSubmission } from '#app/services/http/form-submission.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { postOnlyPageLoad } from '#app/services/http/post-only-page.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'

export const meta: MetaFunction = () => [{ title: `Is the event still on? · ${PRODUCT_NAME}` }]

const adPage = (id: string | undefined) => `/admin/events/${encodeURIComponent(id ?? '')}`

/** The status form lives on the ad's admin page: a visit here goes there. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  return postOnlyPageLoad(request, adPage(params.id))
}

/**
 * POST /admin/events/{id}/status: an administrator marks the live ad Cancelled, Postponed, Sold out or back on, then back
 * to its page with a toast. A refusal of the choice or note is drawn here with the form (`{ result }`, 400/409);
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
    const ad = await scheduleFormOf(actor, params.id)
    return errorResponse(error, {
      request,
      reply: (refusal) => ({
        ad,
        result: submission.reply(
          Object.keys(refusal.fieldErrors).length
            ? { fieldErrors: refusal.fieldErrors }
            : { formErrors: [refusal.message] },
        ),
      }),
    })
  }
}

export default function ScheduleStatusRefused() {
  const answer = useActionData<typeof action>()
  if (!answer) return null
  const { ad, result } = answer
  return (
    <main className="mx-auto max-w-3xl px-4 py-8">
      <p className="text-sm">
        <Link to={`/admin/events/${ad.eventID}`} className="font-medium text-brand-700 underline">
          ← Back to {ad.eventTitle}
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold break-words text-ink">{ad.eventTitle}</h1>
      <ScheduleStatusForm
        action={`/admin/events/${ad.eventID}/status`}
        status={ad.status}
        note={ad.note}
        reply={result}
      />
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
