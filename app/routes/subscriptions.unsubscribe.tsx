import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { secondaryButtonClass } from '#app/components/account-ui.tsx'
import {
  SubscriptionLinkBoundary,
  SubscriptionPage,
  TOKEN_PAGE_HEADERS,
} from '#app/components/subscription-pages.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { SUBSCRIPTION_TEXT } from '#app/models/subscriptions/subscription-rules.ts'
import { AppError } from '#app/utils/app-error.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { manageByToken, unsubscribeByToken } from '#app/services/subscriptions/manage.server.ts'

export const meta: MetaFunction = () => [
  { title: `Unsubscribe · ${PRODUCT_NAME}` },
  { name: 'robots', content: 'noindex' },
]
export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders, errorHeaders }) =>
  errorHeaders ?? (actionHeaders.has('Cache-Control') ? actionHeaders : loaderHeaders)

/** A mail client's "Unsubscribe" link opened in a browser: a page with the one button (GET never deletes). */
export async function loader({ request }: LoaderFunctionArgs) {
  try {
    const subscription = await manageByToken(new URL(request.url).searchParams.get('token'))
    return data({ what: subscription.what as string | null }, { headers: TOKEN_PAGE_HEADERS })
  } catch (error) {
    // Gone already (or just now, when this runs after the post): nothing to unsubscribe from.
    if (error instanceof AppError && error.kind === 'not_found')
      return data({ what: null }, { headers: TOKEN_PAGE_HEADERS })
    throw errorResponse(error, { request, headers: TOKEN_PAGE_HEADERS })
  }
}

/**
 * RFC 8058 one-click unsubscribe: the mail provider posts `List-Unsubscribe=One-Click` here (no cookie, no
 * origin); the page's button posts too. The subscription and its address are deleted; again is answered the same.
 */
export async function action({ request }: ActionFunctionArgs) {
  try {
    await unsubscribeByToken(new URL(request.url).searchParams.get('token'))
    return data({ message: SUBSCRIPTION_TEXT.unsubscribed }, { headers: TOKEN_PAGE_HEADERS })
  } catch (error) {
    throw errorResponse(error, { request, headers: TOKEN_PAGE_HEADERS })
  }
}

export default function Unsubscribe() {
  const { what } = useLoaderData<typeof loader>()
  const done = useActionData<typeof action>()
  if (done || what === null) {
    return (
      <SubscriptionPage title="Unsubscribed">
        <p role="status" className="mt-3 text-slate-700">
          {done?.message ?? SUBSCRIPTION_TEXT.unsubscribed}
        </p>
      </SubscriptionPage>
    )
  }
  return (
    <SubscriptionPage title="Unsubscribe">
      <p className="mt-3 text-slate-700">{what}.</p>
      <form method="post" className="mt-4">
        <button type="submit" name="List-Unsubscribe" value="One-Click" className={secondaryButtonClass}>
          Unsubscribe
        </button>
      </form>
    </SubscriptionPage>
  )
}

export function ErrorBoundary() {
  return <SubscriptionLinkBoundary />
}
