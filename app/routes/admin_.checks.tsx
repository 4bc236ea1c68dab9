import '#app/zod-config.ts'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { otherMessages } from '#app/components/form-messages.ts'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { RefusedDecisionPage } from '#app/components/moderation-links.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { autoApprovalCheckSchema } from '#app/models/moderation/check-schema.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
import { formRefusal, parseFormSubmission } from '#app/services/http/form-submission.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { linkOrigin } from '#app/services/http/site-url.server.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'
import { decideAutoApprovalCheck } from '#app/services/moderation/auto-approval-checks.server.ts'

export const meta: MetaFunction = () => [{ title: `Check an auto-approved ad · ${PRODUCT_NAME}` }]

/** The check is a post from the moderation page; this page only says why a check was refused. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  return data(null, { headers: { 'Cache-Control': 'no-store' } })
}

/** Confirms an auto-approved ad or takes it down with a reason, then back to the moderation page with what happened. */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const form = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const submission = parseFormSubmission(form, autoApprovalCheckSchema)
  if (submission.status !== 'success') return formRefusal(submission.reply())
  try {
    const toast = await decideAutoApprovalCheck(submission.value, {
      adminId: admin.id,
      origin: linkOrigin(request),
    })
    return redirectWithToast('/admin', toast)
  } catch (error) {
    return errorResponse(error, {
      request,
      reply: (refusal) => ({ result: submission.reply({ formErrors: [refusal.message] }) }),
    })
  }
}

/** Why a check was refused (no reason for a takedown, a tampered form, already decided), and the way back. */
export default function AutoApprovalCheckRefused() {
  const refused = useActionData<typeof action>()
  return (
    <RefusedDecisionPage
      title="Check an auto-approved ad"
      message={otherMessages(refused?.result) || undefined}
      otherwise="Auto-approved ads are checked from the moderation page."
    />
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
