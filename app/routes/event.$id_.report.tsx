import '#app/zod-config.ts'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data, redirect } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { ReportAdForm } from '#app/components/report-ad-form.tsx'
import {
  PRODUCT_NAME,
  REPORT_MIN_FILL_MS,
  SIGNUP_HONEYPOT_FIELD,
  SIGNUP_STARTED_FIELD,
} from '#app/constants.ts'
import { reportFormSchema } from '#app/models/moderation/report-schema.ts'
import { parseFormSubmission } from '#app/services/http/form-submission.server.ts'
import { clientIp } from '#app/services/http/client-address.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { linkOrigin } from '#app/services/http/site-url.server.ts'
import { receiptMessage, reportableAd, reportAd } from '#app/services/moderation/reports.server.ts'
import { formStamp, isHumanPost, NEUTRAL_REFUSAL } from '#app/services/moderation/robot-guard.server.ts'

/** The query parameter of the page after a report: what the visitor is told (`ReportReceipt`). */
const SENT_PARAM = 'sent'

export const meta: MetaFunction = () => [
  { title: `Report this ad · ${PRODUCT_NAME}` },
  { name: 'robots', content: 'noindex' },
]

/**
 * The form to report an ad, or after a report (`?sent=`) the thanks; 404 for an ad that takes no reports (never
 * shown, taken down, unknown).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const ad = await reportableAd(params.id)
    const thanks = receiptMessage(new URL(request.url).searchParams.get(SENT_PARAM))
    return data(
      { ...ad, thanks, formStartedAt: thanks ? null : formStamp() },
      { headers: { 'Cache-Control': 'no-store' } },
    )
  } catch (error) {
    throw errorResponse(error, { request })
  }
}

/**
 * Files the report, then to the thanks at this page's own address (a reload does not post again); a refusal with its
 * status (400, 404, 429).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const submission = parseFormSubmission(form, reportFormSchema)
  const stamp = form.get(SIGNUP_STARTED_FIELD)
  const signs = { honeypot: form.get(SIGNUP_HONEYPOT_FIELD), stamp }
  if (!isHumanPost(signs, { form: 'report', minFillMs: REPORT_MIN_FILL_MS }))
    return data({ result: submission.reply({ formErrors: [NEUTRAL_REFUSAL] }) }, { status: 400 })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    const { eventID } = await reportableAd(params.id)
    const receipt = await reportAd(eventID, submission.value, {
      userAgent: request.headers.get('User-Agent'),
      ip: clientIp(request),
      origin: linkOrigin(request),
      stamp: String(stamp),
    })
    return redirect(`/event/${eventID}/report?${SENT_PARAM}=${receipt}`)
  } catch (error) {
    return errorResponse(error, {
      request,
      // The form is drawn again with the page's fresh stamp: the one sent may have been used.
      reply: (refusal) => ({
        result: submission.reply({ formErrors: [refusal.message], hideFields: [SIGNUP_STARTED_FIELD] }),
      }),
    })
  }
}

export default function ReportAd() {
  const { eventID, eventTitle, formStartedAt, thanks } = useLoaderData<typeof loader>()
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
      {thanks ? (
        <p role="status" className="mt-6 rounded-md border border-green-200 bg-green-50 p-3 text-green-800">
          {thanks}
        </p>
      ) : (
        <ReportAdForm eventID={eventID} formStartedAt={formStartedAt ?? ''} reply={answer?.result} />
      )}
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
