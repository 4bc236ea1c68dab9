import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { ChosenDates } from '#app/components/chosen-dates.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import { requireBusiness } from '#app/services/http/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { freeListingSentPage, NO_FREE_LISTING_MESSAGE } from '#app/services/payments/free-listing.server.ts'
import { AppError } from '#app/utils/app-error.ts'

export const meta: MetaFunction = () => [{ title: `Free listing sent · ${PRODUCT_NAME}` }]

/**
 * GET /dashboard/events/{id}/submitted: the confirmation of the business's free listing once sent (no card): that it
 * is free, and that it waits for review or is live already. 404 for an ad not sent as a free listing, 403 for
 * another business's.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const business = await requireBusiness(request)
  try {
    const eventID = parseId(params.id)
    if (!eventID) throw new AppError(NO_FREE_LISTING_MESSAGE, 'not_found')
    return data(await freeListingSentPage(business.businessID, eventID), {
      headers: { 'Cache-Control': 'no-store' },
    })
  } catch (error) {
    throw errorResponse(error, { request })
  }
}

export default function FreeListingSent() {
  const sent = useLoaderData<typeof loader>()
  return (
    <main className="mx-auto max-w-2xl px-4 py-10">
      <h1 className="text-3xl font-bold text-ink">
        {sent.live ? 'Your free listing is live' : 'Your free listing was sent for review'}
      </h1>
      <p className="mt-3 text-slate-800" data-testid="free-listing-sent">
        “{sent.eventTitle}” is a free listing: there is nothing to pay and no card was needed.
      </p>
      {sent.live ? (
        <p className="mt-3 text-slate-700">
          Your business is trusted, so it is on the public calendar now (now and then an administrator checks
          one afterwards).
        </p>
      ) : (
        <p className="mt-3 text-slate-700">
          An administrator reviews every listing before it appears on the public calendar. If it is approved,
          it is shown on its display dates; if something needs changing, you get an email saying what, and you
          can edit the listing and send it again. You can follow its status on your dashboard.
        </p>
      )}
      <ChosenDates dates={sent.dates} />
      <div className="mt-6 flex flex-wrap gap-4">
        <Link to="/dashboard" className="font-medium text-brand-700 underline">
          Go to your dashboard
        </Link>
        <Link to={`/event/${sent.eventID}`} className="font-medium text-brand-700 underline">
          See your listing
        </Link>
      </div>
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
