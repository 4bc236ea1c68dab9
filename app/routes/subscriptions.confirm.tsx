import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { primaryButtonClass } from '#app/components/account-ui.tsx'
import {
  SubscriptionLinkBoundary,
  SubscriptionPage,
  TOKEN_PAGE_HEADERS,
} from '#app/components/subscription-pages.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { SUBSCRIPTION_PATHS, SUBSCRIPTION_TEXT } from '#app/models/subscriptions/subscription-rules.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { confirmationByToken, confirmByToken } from '#app/services/subscriptions/manage.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data: page }) => [
  { title: `${page?.confirmed ? 'Subscription confirmed' : 'Confirm your subscription'} · ${PRODUCT_NAME}` },
  { name: 'robots', content: 'noindex' },
]
export const headers: HeadersFunction = ({ loaderHeaders, errorHeaders }) => errorHeaders ?? loaderHeaders

const tokenOf = (request: Request) => new URL(request.url).searchParams.get('token')
const withToken = (path: string, token: string) => `${path}?token=${encodeURIComponent(token)}`

/**
 * The confirmation email's link: the subscription in words and a button. Following the link confirms nothing (mail
 * providers' link scanners fetch every link of an email); the button posts, and that confirms.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  try {
    const token = tokenOf(request)
    const page = await confirmationByToken(token)
    return data(
      {
        what: page.what,
        frequencyLabel: page.frequencyLabel,
        confirmed: page.confirmed,
        manageHref: page.manageToken ? withToken(SUBSCRIPTION_PATHS.manage, page.manageToken) : null,
        confirmHref: withToken(SUBSCRIPTION_PATHS.confirm, token ?? ''),
      },
      { headers: TOKEN_PAGE_HEADERS },
    )
  } catch (error) {
    throw errorResponse(error, { request, headers: TOKEN_PAGE_HEADERS })
  }
}

/** The page's "Confirm" button: the subscription is confirmed (again: nothing changes). */
export async function action({ request }: ActionFunctionArgs) {
  try {
    const manageToken = await confirmByToken(tokenOf(request))
    return data(
      { manageHref: withToken(SUBSCRIPTION_PATHS.manage, manageToken) },
      { headers: TOKEN_PAGE_HEADERS },
    )
  } catch (error) {
    throw errorResponse(error, { request, headers: TOKEN_PAGE_HEADERS })
  }
}

export default function ConfirmSubscription() {
  const page = useLoaderData<typeof loader>()
  const done = useActionData<typeof action>()
  const manageHref = done?.manageHref ?? page.manageHref
  if (manageHref) {
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
  return (
    <SubscriptionPage title="Confirm your subscription">
      <dl className="mt-4 grid gap-2 text-slate-800 sm:grid-cols-[10rem_1fr]">
        <dt className="font-medium">What</dt>
        <dd>{page.what}</dd>
        <dt className="font-medium">How often</dt>
        <dd>{page.frequencyLabel}</dd>
      </dl>
      <form method="post" action={page.confirmHref} className="mt-6">
        <p className="text-sm text-slate-600">Nothing is sent to you until you confirm.</p>
        <button type="submit" className={`mt-2 ${primaryButtonClass}`}>
          Confirm
        </button>
      </form>
    </SubscriptionPage>
  )
}

export function ErrorBoundary() {
  return <SubscriptionLinkBoundary />
}
