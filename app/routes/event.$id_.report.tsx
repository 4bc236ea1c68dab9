import '#app/zod-config.ts'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { ReportAdForm } from '#app/components/report-ad-form.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { reportFormSchema } from '#app/models/moderation/report-schema.ts'
import { parseFormSubmission } from '#app/services/http/form-submission.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { reportableAd, reportAd } from '#app/services/moderation/reports.server.ts'
import { formStamp, isHumanPost, NEUTRAL_REFUSAL } from '#app/services/moderation/robot-guard.server.ts'

/** A person picks a reason in a second or two; a post sooner than this is a robot's. */
const REPORT_MIN_FILL_MS = 1500

export const meta: MetaFunction = () => [
  { title: `Report this ad · ${PRODUCT_NAME}` },
  { name: 'robots', content: 'noindex' },
]

/** The form to report a live ad; 404 for an ad that is not shown to the public. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const ad = await reportableAd(params.id)
    return data({ ...ad, formStartedAt: formStamp() }, { headers: { 'Cache-Control': 'no-store' } })
  } catch (error) {
    throw errorResponse(error, { request })
  }
}

/** Files the report: the thanks (200), or the refusal with its status (400, 404, 429). */
export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const submission = parseFormSubmission(form, reportFormSchema)
  const refuse = (message: string, status: number, headers?: HeadersInit) =>
    data({ result: submission.reply({ formErrors: [message] }), thanks: null }, { status, headers })
  if (!isHumanPost(form, { form: 'report', minFillMs: REPORT_MIN_FILL_MS }))
    return refuse(NEUTRAL_REFUSAL, 400)
  if (submission.status !== 'success')
    return data({ result: submission.reply(), thanks: null }, { status: 400 })
  try {
    const { eventID } = await reportableAd(params.id)
    const { message } = await reportAd(request, eventID, submission.value)
    return data({ result: null, thanks: message })
  } catch (error) {
    return errorResponse(error, {
      request,
      reply: (refusal) => ({ result: submission.reply({ formErrors: [refusal.message] }), thanks: null }),
    })
  }
}

export default function ReportAd() {
  const { eventID, eventTitle, formStartedAt } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  return (
    <main className="mx-auto max-w-2xl px-4 py-10">
      <p className="text-sm">
        <Link to={`/event/${eventID}?viewMode=true`} className="font-medium text-brand-700 underline">
          ← Back to the ad
        </Link>
      </p>
      <h1 className="mt-2 text-3xl font-bold text-ink">Report this ad</h1>
      <p className="mt-2 text-slate-600 wrap-anywhere">
        &ldquo;{eventTitle}&rdquo;. Tell us what is wrong with it: an administrator looks at every report, and
        an ad that several visitors report is hidden until then.
      </p>
      {answer?.thanks ? (
        <p role="status" className="mt-6 rounded-md border border-green-200 bg-green-50 p-3 text-green-800">
          {answer.thanks}
        </p>
      ) : (
        <ReportAdForm eventID={eventID} formStartedAt={formStartedAt} reply={answer?.result} />
      )}
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
