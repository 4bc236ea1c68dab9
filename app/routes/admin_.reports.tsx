import '#app/zod-config.ts'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { otherMessages } from '#app/components/form-messages.ts'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { ModerationQueueLink } from '#app/components/moderation-links.tsx'
import { ReportedAd } from '#app/components/reported-ad.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { reportDecisionSchema } from '#app/models/moderation/report-schema.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
import { formRefusal, parseFormSubmission } from '#app/services/http/form-submission.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { linkOrigin } from '#app/services/http/site-url.server.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'
import { dismissAdReports, reportsPage, takeDown } from '#app/services/moderation/reports.server.ts'
import { getEnv } from '#app/services/platform/env.server.ts'

const REPORTS_TITLE = 'Reported ads'

export const meta: MetaFunction = () => [{ title: `${REPORTS_TITLE} · ${PRODUCT_NAME}` }]

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  const page = await reportsPage()
  return data({ ...page, hideAt: getEnv().REPORTS_TO_HIDE }, { headers: { 'Cache-Control': 'no-store' } })
}

/**
 * Dismisses an ad's reports or takes it down (with a reason); a refusal (`{ result, eventID }`) is shown at the ad,
 * its reason's messages at the takedown form, with its status.
 */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const form = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const eventID = String(form.get('eventID') ?? '')
  const submission = parseFormSubmission(form, reportDecisionSchema)
  if (submission.status !== 'success') return formRefusal(submission.reply(), { extra: { eventID } })
  const decision = submission.value
  const origin = linkOrigin(request)
  try {
    const toast =
      decision.intent === 'dismiss'
        ? await dismissAdReports(decision.eventID, admin.id, origin)
        : await takeDown(decision.eventID, admin.id, decision.reason ?? '', origin)
    return redirectWithToast('/admin/reports', toast)
  } catch (error) {
    return errorResponse(error, {
      request,
      reply: (refusal) => ({ result: submission.reply({ formErrors: [refusal.message] }), eventID }),
    })
  }
}

export default function AdminReports() {
  const { ads, total, hideAt } = useLoaderData<typeof loader>()
  const refused = useActionData<typeof action>()
  return (
    <main className="mx-auto max-w-4xl px-4 py-10">
      <ModerationQueueLink />
      <h1 className="mt-2 text-3xl font-bold text-ink">{REPORTS_TITLE}</h1>
      <p className="mt-2 text-slate-600">
        Ads visitors reported, most reported first. An ad reported by {hideAt} different visitors is hidden
        from the public pages until you decide: dismiss the reports (it is shown again) or take it down with a
        reason (its advertiser is told; a takedown is not refunded).
      </p>
      {refused && !ads.some((ad) => String(ad.eventID) === refused.eventID) ? (
        <p role="alert" className="mt-4 text-sm text-red-700">
          {otherMessages(refused.result)}
        </p>
      ) : null}
      {ads.length === 0 ? (
        <p className="mt-8 rounded-md border border-slate-200 bg-slate-50 px-4 py-6 text-center text-slate-700">
          No open reports.
        </p>
      ) : (
        <>
          {total > ads.length ? (
            <p className="mt-4 text-sm text-slate-600">
              The {ads.length} most reported of {total} ads.
            </p>
          ) : null}
          <ul aria-label="Reported ads" className="mt-6 grid gap-6">
            {ads.map((ad) => (
              <ReportedAd
                key={ad.eventID}
                ad={ad}
                reply={refused?.eventID === String(ad.eventID) ? refused.result : undefined}
              />
            ))}
          </ul>
        </>
      )}
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
