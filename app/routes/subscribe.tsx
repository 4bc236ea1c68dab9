import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { FollowBusinessForm } from '#app/components/follow-business-form.tsx'
import { RemindMeForm } from '#app/components/remind-me-form.tsx'
import { SubscribeForm } from '#app/components/subscribe-form.tsx'
import { SubscriptionLinkBoundary, SubscriptionPage } from '#app/components/subscription-pages.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { normalizeCalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import { calendarHref } from '#app/models/calendar/calendar-links.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import { subscribeFormSchema } from '#app/models/subscriptions/subscription-schema.ts'
import { savedSearchFilters } from '#app/models/subscriptions/subscription-rules.ts'
import { formRefusal, parseFormSubmission } from '#app/services/http/form-submission.server.ts'
import { followableBusiness } from '#app/services/calendar/business-page.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { clientIp } from '#app/services/http/client-address.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { linkOrigin } from '#app/services/http/site-url.server.ts'
import { postedFilters, requestSubscription } from '#app/services/subscriptions/subscribe.server.ts'

export const meta: MetaFunction = () => [
  { title: `Email me these events · ${PRODUCT_NAME}` },
  { name: 'robots', content: 'noindex' },
]

/** The page and the answer to its form (an address typed in, what was asked) are never kept by a cache. */
export const headers: HeadersFunction = () => ({ 'Cache-Control': 'no-store' })

/** The form for the filters in the query string (the calendar shows the same form under its results). */
export function loader({ request }: LoaderFunctionArgs) {
  const { filters } = normalizeCalendarFilters(new URL(request.url).searchParams)
  return data({ filters: savedSearchFilters(filters) }, { headers: { 'Cache-Control': 'no-store' } })
}

/** "Email me these events", "Remind me" and "Email me new events from …" post here; the answer never tells whether the address is known. */
export async function action({ request }: ActionFunctionArgs) {
  const headers = { 'Cache-Control': 'no-store' }
  let form: FormData
  try {
    form = await readFormData(request)
  } catch (error) {
    throw errorResponse(error, { request })
  }
  const filters = postedFilters(form)
  const eventID = parseId(form.get('eventID'))
  const businessID = parseId(form.get('businessID'))
  // A refused follow draws its form again, with the business's name.
  const followed = async () =>
    form.get('kind') === 'business' && businessID ? await followableBusiness(businessID) : null
  const submission = parseFormSubmission(form, subscribeFormSchema)
  if (submission.status !== 'success') {
    return formRefusal(submission.reply(), {
      headers,
      extra: {
        filters,
        message: null,
        kind: String(form.get('kind') ?? ''),
        eventID,
        business: await followed(),
      },
    })
  }
  try {
    const { message } = await requestSubscription(
      { clientIp: clientIp(request), origin: linkOrigin(request) },
      submission.value,
      filters,
    )
    return data(
      { filters, result: null, message, kind: submission.value.kind, eventID, business: null },
      { headers },
    )
  } catch (error) {
    const business = await followed()
    return errorResponse(error, {
      request,
      headers,
      reply: (refusal) => ({
        filters,
        result: submission.reply({ formErrors: [refusal.message] }),
        message: null,
        kind: submission.value.kind,
        eventID,
        business,
      }),
    })
  }
}

export default function Subscribe() {
  const loaderData = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const filters = answer?.filters ?? loaderData.filters
  const refusal = answer?.result?.error?.['']?.[0]
  if (answer?.message) {
    return (
      <SubscriptionPage title="Check your inbox">
        <p role="status" className="mt-3 text-slate-700">
          {answer.message}
        </p>
        <p className="mt-4">
          <a
            href={answer.kind === 'search' ? calendarHref(filters) : '/calendar'}
            className="font-medium text-brand-700 underline"
          >
            Back to the calendar
          </a>
        </p>
      </SubscriptionPage>
    )
  }
  return (
    <SubscriptionPage
      title={
        answer?.kind === 'reminder'
          ? 'Remind me'
          : answer?.kind === 'business'
            ? 'Email me new events'
            : 'Email me these events'
      }
    >
      {refusal ? (
        <p
          role="alert"
          className="mt-3 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
        >
          {refusal}
        </p>
      ) : null}
      {answer?.kind === 'reminder' && answer.eventID ? (
        <RemindMeForm eventID={answer.eventID} reply={answer.result} />
      ) : answer?.kind === 'business' && answer.business ? (
        <FollowBusinessForm
          businessID={answer.business.businessID}
          businessName={answer.business.businessName}
          reply={answer.result}
        />
      ) : (
        <SubscribeForm filters={filters} reply={answer?.result} />
      )}
    </SubscriptionPage>
  )
}

export function ErrorBoundary() {
  return <SubscriptionLinkBoundary />
}
