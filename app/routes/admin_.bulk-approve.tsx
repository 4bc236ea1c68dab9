import '#app/zod-config.ts'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { RefusedDecisionPage } from '#app/components/moderation-links.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { bulkApprovalSchema } from '#app/models/moderation/bulk-approval-schema.ts'
import { ALL_DAYS } from '#app/models/moderation/moderation-schema.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
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

/**
 * Approves every ticked ad as if approved alone, then back to the queue's day with what happened. The form lives on
 * the moderation page, its ticks among the queue's ads, so a refusal (nothing ticked, too many, a changed form) is
 * told there too: back to the queue's day with a toast saying why, with or without JavaScript.
 */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const form = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const date = form.get('date')
  const back = `/admin${typeof date === 'string' && (isValidIsoDate(date) || date === ALL_DAYS) ? `?date=${date}` : ''}`
  const submission = parseFormSubmission(form, bulkApprovalSchema)
  if (submission.status !== 'success') {
    return redirectWithToast(back, {
      title: 'Nothing approved',
      description: refusalMessage(submission),
      variant: 'destructive',
    })
  }
  try {
    const outcome = await approveSelected(submission.value.eventID, {
      reviewerId: admin.id,
      today: platformToday(),
      origin: linkOrigin(request),
    })
    return redirectWithToast(back, bulkApprovalToast(outcome))
  } catch (error) {
    throw errorResponse(error, { request })
  }
}

/** Never drawn for a post or a visit (both end at the queue); what a failure shows is the error boundary. */
export default function BulkApprove() {
  return (
    <RefusedDecisionPage
      title="Approve selected"
      message={undefined}
      otherwise="Ads are approved from the moderation queue."
    />
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
