import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { requireBusiness } from '#app/services/http/auth.server.ts'
import { runAdAgain } from '#app/services/ads/run-again.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'
import { methodNotAllowed } from '#app/utils/app-error.ts'

export const meta: MetaFunction = () => [{ title: `Run again · ${PRODUCT_NAME}` }]

export const RUN_AGAIN_TOAST = {
  title: 'Your ad is ready to run again',
  description: 'Choose its dates, preview it and pay, as for a new ad.',
}

/** Only the "Run again" button's POST does anything here. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireBusiness(request)
  throw errorResponse(methodNotAllowed('POST'), { request })
}

/** POST /dashboard/events/{id}/run-again: a new unpaid copy of the business's paid ad, then its form. */
export async function action({ request, params }: ActionFunctionArgs) {
  const business = await requireBusiness(request)
  try {
    const { eventID } = await runAdAgain(business, params.id)
    return redirectWithToast(`/dashboard/events/${eventID}/edit`, RUN_AGAIN_TOAST)
  } catch (error) {
    // The refusal is the page's answer (its error boundary), so a post without JavaScript reads it too.
    throw errorResponse(error, { request })
  }
}

export default function RunAgain() {
  return null
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
