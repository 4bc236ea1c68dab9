import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import {
  SubscriptionLinkBoundary,
  SubscriptionPage,
  TOKEN_PAGE_HEADERS,
} from '#app/components/subscription-pages.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { SUBSCRIPTION_PATHS, SUBSCRIPTION_TEXT } from '#app/models/subscriptions/subscription-rules.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { confirmByToken } from '#app/services/subscriptions/manage.server.ts'

export const meta: MetaFunction = () => [
  { title: `Subscription confirmed · ${PRODUCT_NAME}` },
  { name: 'robots', content: 'noindex' },
]
export const headers: HeadersFunction = ({ loaderHeaders, errorHeaders }) => errorHeaders ?? loaderHeaders

/** The confirmation email's link: following it confirms the subscription (again: nothing changes). */
export async function loader({ request }: LoaderFunctionArgs) {
  try {
    const token = await confirmByToken(new URL(request.url).searchParams.get('token'))
    return data(
      { manageHref: `${SUBSCRIPTION_PATHS.manage}?token=${encodeURIComponent(token)}` },
      { headers: TOKEN_PAGE_HEADERS },
    )
  } catch (error) {
    throw errorResponse(error, { request, headers: TOKEN_PAGE_HEADERS })
  }
}

export default function ConfirmSubscription() {
  const { manageHref } = useLoaderData<typeof loader>()
  return (
    <SubscriptionPage title="Subscription confirmed">
      <p role="status" className="mt-3 text-slate-700">
        {SUBSCRIPTION_TEXT.confirmed} Every email has a link to change or end it.
      </p>
      <p className="mt-4 flex flex-wrap gap-4">
        <a href={manageHref} className="font-medium text-brand-700 underline">
          Manage your subscription
        </a>
        <a href="/calendar" className="font-medium text-brand-700 underline">
          Go to the calendar
        </a>
      </p>
    </SubscriptionPage>
  )
}

export function ErrorBoundary() {
  return <SubscriptionLinkBoundary />
}
