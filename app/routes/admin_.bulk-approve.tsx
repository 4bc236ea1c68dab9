import '#app/zod-config.ts'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data, redirect } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { RefusedDecisionPage } from '#app/components/moderation-links.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { bulkApprovalSchema } from '#app/models/moderation/bulk-approval-schema.ts'
import { ALL_DAYS } from '#app/models/moderation/moderation-schema.ts'
import { requireRole } from '#app/services/accounts/auth.server.ts'
import { parseFormSubmission, refusalMessage } from '#app/services/http/form-submission.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { linkOrigin } from '#app/services/http/site-url.server.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'
import { approveSelected, bulkApprovalToast } from '#app/services/moderation/bulk-approval.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { isValidIsoDate } from '#app/utils/time.ts'

export const meta: MetaFunction = () => [{ title: `Approve selected · ${PRODUCT_NAME}` }]

/** The approval is a post from the moderation page; opened directly, this address is that page. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  return redirect('/admin')
}

/** Approves every ticked ad as if approved alone, then back to the queue's day with what happened. */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const form = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const submission = parseFormSubmission(form, bulkApprovalSchema)
  if (submission.status !== 'success') {
    return data({ message: refusalMessage(submission) }, { status: 400 })
  }
  const { eventID, date } = submission.value
  const back = `/admin${date && (isValidIsoDate(date) || date === ALL_DAYS) ? `?date=${date}` : ''}`
  try {
    const outcome = await approveSelected(eventID, {
      reviewerId: admin.id,
      today: platformToday(),
      origin: linkOrigin(request),
    })
    return redirectWithToast(back, bulkApprovalToast(outcome))
  } catch (error) {
    return errorResponse(error, { request, reply: (refusal) => ({ message: refusal.message }) })
  }
}

/** Shown only when a bulk approval is refused (nothing ticked, a tampered form): why, and the way back. */
export default function BulkApproveRefused() {
  const refused = useActionData<typeof action>()
  return (
    <RefusedDecisionPage
      title="Approve selected"
      message={refused?.message}
      otherwise="Nothing was approved."
    />
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
