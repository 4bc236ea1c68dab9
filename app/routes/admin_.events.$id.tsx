import '#app/zod-config.ts'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { BusinessTrustForm } from '#app/components/business-trust-form.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { ModerationQueueLink } from '#app/components/moderation-links.tsx'
import { ModerationAuditTable } from '#app/components/moderation-audit-table.tsx'
import { ScheduleStatusForm } from '#app/components/schedule-status-form.tsx'
import { isLive } from '#app/models/ads/event-status.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { PRODUCT_NAME } from '#app/constants.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { trustFormSchema } from '#app/models/moderation/trust-schema.ts'
import { formRefusal, parseFormSubmission } from '#app/services/http/form-submission.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'
import { adModerationRecord } from '#app/services/moderation/audit-trail.server.ts'
import { changeTrustFromAd, trustOf } from '#app/services/moderation/trust.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data: page }) => [
  { title: `${page ? page.event.eventTitle : 'Ad'} · Moderation · ${PRODUCT_NAME}` },
]

/** An ad as the administrators see it: its statuses and every moderation decision on it. 404 for no such ad. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  try {
    const { event, trail } = await adModerationRecord(params.id)
    return data(
      {
        event: {
          eventID: event.eventID,
          eventTitle: event.eventTitle,
          businessName: event.businessName,
          businessID: event.businessID,
          eventStatus: event.eventStatus,
          paymentStatus: event.paymentStatus,
          scheduleStatus: event.scheduleStatus,
          scheduleNote: event.scheduleNote,
          live: isLive(event, platformToday()),
        },
        trail,
        trust: await trustOf(event.businessID),
      },
      { headers: { 'Cache-Control': 'no-store' } },
    )
  } catch (error) {
    throw errorResponse(error, { request })
  }
}

/** Grants or revokes the ad's business's trust, with a reason; a refusal (`{ result }`) is shown at the form. */
export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const form = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const submission = parseFormSubmission(form, trustFormSchema)
  if (submission.status !== 'success') return formRefusal(submission.reply())
  try {
    const { intent, businessID, reason } = submission.value
    const { eventID, toast } = await changeTrustFromAd(params.id, {
      businessID,
      granted: intent === 'grant',
      reason,
      adminId: admin.id,
    })
    return redirectWithToast(`/admin/events/${eventID}`, toast)
  } catch (error) {
    return errorResponse(error, {
      request,
      reply: (refusal) => ({ result: submission.reply({ formErrors: [refusal.message] }) }),
    })
  }
}

export default function AdminEvent() {
  const { event, trail, trust } = useLoaderData<typeof loader>()
  const refused = useActionData<typeof action>()
  return (
    <main className="mx-auto max-w-4xl px-4 py-10">
      <ModerationQueueLink />
      <h1 className="mt-2 text-3xl font-bold text-ink wrap-anywhere">{event.eventTitle}</h1>
      <dl className="mt-4 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_1fr]">
        <dt className="font-medium text-slate-500">Business</dt>
        <dd>{event.businessName}</dd>
        <dt className="font-medium text-slate-500">Ad status</dt>
        <dd>{event.eventStatus}</dd>
        <dt className="font-medium text-slate-500">Payment</dt>
        <dd>{event.paymentStatus}</dd>
      </dl>
      <p className="mt-3 text-sm">
        <Link to={`/event/${event.eventID}`} className="font-medium text-brand-700 underline">
          The ad as customers see it
        </Link>
      </p>
      {event.live ? (
        <ScheduleStatusForm
          action={`/admin/events/${event.eventID}/status`}
          status={event.scheduleStatus}
          note={event.scheduleNote}
        />
      ) : null}
      <BusinessTrustForm
        businessID={event.businessID}
        trusted={trust.trusted}
        because={trust.because}
        reply={refused?.result}
      />
      <h2 className="mt-8 text-xl font-semibold text-ink">Moderation decisions</h2>
      <ModerationAuditTable rows={trail} caption={`Moderation decisions on ${event.eventTitle}`} />
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
