import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { primaryButtonClass, secondaryButtonClass } from '#app/components/account-ui.tsx'
import {
  SubscriptionLinkBoundary,
  SubscriptionPage,
  TOKEN_PAGE_HEADERS,
} from '#app/components/subscription-pages.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { manageFormSchema } from '#app/models/subscriptions/subscription-schema.ts'
import {
  FREQUENCY_LABELS,
  SEARCH_FREQUENCIES,
  SUBSCRIPTION_PATHS,
  SUBSCRIPTION_TEXT,
} from '#app/models/subscriptions/subscription-rules.ts'
import { formRefusal, parseFormSubmission } from '#app/services/http/form-submission.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { changeFrequencyByToken, manageByToken } from '#app/services/subscriptions/manage.server.ts'

export const meta: MetaFunction = () => [
  { title: `Your subscription · ${PRODUCT_NAME}` },
  { name: 'robots', content: 'noindex' },
]
export const headers: HeadersFunction = ({ loaderHeaders, errorHeaders }) => errorHeaders ?? loaderHeaders

const tokenOf = (request: Request) => new URL(request.url).searchParams.get('token')

/** The only page that shows the address: reached by the manage token of the subscriber's emails. */
export async function loader({ request }: LoaderFunctionArgs) {
  try {
    return data({ subscription: await manageByToken(tokenOf(request)) }, { headers: TOKEN_PAGE_HEADERS })
  } catch (error) {
    throw errorResponse(error, { request, headers: TOKEN_PAGE_HEADERS })
  }
}

/** Changes a saved search's frequency (unsubscribing posts to the unsubscribe page). */
export async function action({ request }: ActionFunctionArgs) {
  try {
    const submission = parseFormSubmission(await readFormData(request), manageFormSchema)
    if (submission.status !== 'success') {
      const message =
        Object.values(submission.error ?? {})
          .flat()
          .join(' ') || 'The form could not be read.'
      return formRefusal(submission.reply(), { headers: TOKEN_PAGE_HEADERS, extra: { message, ok: false } })
    }
    if (submission.value.intent === 'frequency') {
      await changeFrequencyByToken(tokenOf(request), submission.value.frequency)
    }
    return data({ message: SUBSCRIPTION_TEXT.frequencyChanged, ok: true }, { headers: TOKEN_PAGE_HEADERS })
  } catch (error) {
    throw errorResponse(error, { request, headers: TOKEN_PAGE_HEADERS })
  }
}

export default function ManageSubscription() {
  const { subscription } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const tokenQuery = `?token=${encodeURIComponent(subscription.token)}`
  return (
    <SubscriptionPage title="Your subscription">
      {answer ? (
        <p
          role={answer.ok ? 'status' : 'alert'}
          className={`mt-3 rounded-md px-4 py-3 text-sm ${answer.ok ? 'bg-green-50 text-green-900' : 'bg-red-50 text-red-800'}`}
        >
          {answer.message}
        </p>
      ) : null}
      <dl className="mt-4 grid gap-2 text-slate-800 sm:grid-cols-[10rem_1fr]">
        <dt className="font-medium">Email address</dt>
        <dd className="break-all">{subscription.email}</dd>
        <dt className="font-medium">What</dt>
        <dd>{subscription.what}</dd>
        <dt className="font-medium">How often</dt>
        <dd>{subscription.frequencyLabel}</dd>
        <dt className="font-medium">Status</dt>
        <dd>{subscription.confirmed ? 'Confirmed' : 'Waiting for the confirmation link to be followed'}</dd>
      </dl>
      {subscription.kind === 'search' ? (
        <form method="post" action={`${SUBSCRIPTION_PATHS.manage}${tokenQuery}`} className="mt-6">
          <fieldset>
            <legend className="text-sm font-medium text-slate-800">Change how often</legend>
            {SEARCH_FREQUENCIES.map((value) => (
              <label key={value} className="mt-1 flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="radio"
                  name="frequency"
                  value={value}
                  defaultChecked={value === subscription.frequency}
                />
                {FREQUENCY_LABELS[value]}
              </label>
            ))}
          </fieldset>
          <button type="submit" name="intent" value="frequency" className={`mt-3 ${primaryButtonClass}`}>
            Save
          </button>
        </form>
      ) : null}
      <form method="post" action={`${SUBSCRIPTION_PATHS.unsubscribe}${tokenQuery}`} className="mt-6">
        <p className="text-sm text-slate-600">
          Unsubscribing deletes your address and your search from {PRODUCT_NAME}.
        </p>
        <button type="submit" className={`mt-2 ${secondaryButtonClass}`}>
          Unsubscribe
        </button>
      </form>
    </SubscriptionPage>
  )
}

export function ErrorBoundary() {
  return <SubscriptionLinkBoundary />
}
