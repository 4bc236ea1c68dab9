import '#app/zod-config.ts'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { AutoApprovalChecks } from '#app/components/auto-approval-checks.tsx'
import { BulkApproveForm } from '#app/components/bulk-approve-form.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { QueueHealth } from '#app/components/queue-health.tsx'
import { otherMessages } from '#app/components/form-messages.ts'
import { PendingEventItem } from '#app/components/pending-event-review.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { ALL_DAYS, reviewFormSchema } from '#app/models/moderation/moderation-schema.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
import { getEnv } from '#app/services/platform/env.server.ts'
import { formRefusal, parseFormSubmission } from '#app/services/http/form-submission.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { linkOrigin } from '#app/services/http/site-url.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { autoApprovalChecksView } from '#app/services/moderation/auto-approval-checks.server.ts'
import { reviewEvent, reviewToast } from '#app/services/moderation/moderation.server.ts'
import { reviewQueue, reviewQueueDate } from '#app/services/moderation/review-queue.server.ts'
import { queueHealthView } from '#app/services/moderation/queue-health.server.ts'
import { isAppError } from '#app/utils/app-error.ts'
import { isValidIsoDate } from '#app/utils/time.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'

export const MODERATION_TITLE = 'Content Moderation Review'
export const INVALID_DATE_MESSAGE = 'That is not a valid date, so today is shown.'

export const meta: MetaFunction = () => [{ title: `${MODERATION_TITLE} · ${PRODUCT_NAME}` }]

/**
 * The auto-approved ads waiting for a check, then the queue of one upload day (today unless `?date=`), or of every day with `?date=all`, each ad as its customer card
 * shows it, and how many wait on the other days, with a link to each day.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  const timeZone = getEnv().APP_TIME_ZONE
  const asked = reviewQueueDate(new URL(request.url).searchParams.get('date'))
  const valid = asked !== null
  const date = asked ?? platformToday()
  const [queue, health, checks] = await Promise.all([
    reviewQueue(date, { timeZone }),
    queueHealthView(),
    autoApprovalChecksView(),
  ])
  return data(
    { date, notice: valid ? null : INVALID_DATE_MESSAGE, ...queue, health, checks },
    { status: valid ? 200 : 400, headers: { 'Cache-Control': 'no-store' } },
  )
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  // A body the reader refuses (413/415/400) is shown by the page's error boundary.
  const form = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const submission = parseFormSubmission(form, reviewFormSchema)
  if (submission.status !== 'success') {
    return formRefusal(submission.reply(), { extra: { eventID: String(form.get('eventID') ?? '') } })
  }
  const { intent, eventID, reason = '', date } = submission.value
  const back = `/admin${date && (isValidIsoDate(date) || date === ALL_DAYS) ? `?date=${date}` : ''}`
  let outcome
  try {
    outcome = await reviewEvent(
      { eventID, action: intent, reason },
      { reviewerId: admin.id, today: platformToday(), origin: linkOrigin(request) },
    )
  } catch (error) {
    // A review that cannot apply (404, 409, a failed refund) is told in a toast on the queue.
    if (!isAppError(error)) throw errorResponse(error, { request })
    return redirectWithToast(back, {
      title: 'Review failed',
      description: error.message,
      variant: 'destructive',
    })
  }
  return redirectWithToast(back, reviewToast(outcome))
}

export default function AdminModeration() {
  const { date, notice, events, otherDays, otherDaysSummary, emptyText, health, checks } =
    useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const failed = actionData && 'result' in actionData ? actionData : null
  return (
    <main className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-3xl font-bold text-ink">{MODERATION_TITLE}</h1>
      <p className="mt-2 text-slate-600">
        Paid events awaiting review, by the day they were uploaded.{' '}
        <Link to="/admin/outbox" className="font-medium text-brand-700 underline">
          Outbox
        </Link>{' '}
        (the platform's email),{' '}
        <Link to="/admin/categories" className="font-medium text-brand-700 underline">
          Categories
        </Link>{' '}
        (the ads' categories),{' '}
        <Link to="/admin/pricing" className="font-medium text-brand-700 underline">
          Prices
        </Link>{' '}
        (what ads cost, with its history),{' '}
        <Link to="/admin/promo-codes" className="font-medium text-brand-700 underline">
          Promo codes
        </Link>{' '}
        (discounts at checkout),{' '}
        <Link to="/admin/audit" className="font-medium text-brand-700 underline">
          Audit
        </Link>{' '}
        (every decision, as CSV).
      </p>

      <QueueHealth health={health} />
      <AutoApprovalChecks ads={checks.ads} total={checks.total} />
      <Form method="get" className="mt-6 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="upload-date" className="block text-sm font-medium text-slate-800">
            Upload date
          </label>
          <input
            id="upload-date"
            name="date"
            type="date"
            defaultValue={date === ALL_DAYS ? '' : date}
            key={date}
            required
            className="mt-1 rounded-md border border-slate-300 px-3 py-2 focus:outline-2 focus:outline-offset-1 focus:outline-brand-600"
          />
        </div>
        <button
          type="submit"
          className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium hover:bg-slate-50"
        >
          Refresh
        </button>
        <Link to={`/admin?date=${ALL_DAYS}`} className="px-2 py-2 font-medium text-brand-700 underline">
          All pending
        </Link>
      </Form>
      {notice ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {notice}
        </p>
      ) : null}
      {otherDaysSummary ? (
        <nav
          aria-label="Other upload days"
          data-testid="other-days"
          className="mt-4 rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-slate-800"
        >
          <p className="font-medium">{otherDaysSummary}:</p>
          <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
            {otherDays.map((day) => (
              <li key={day.date}>
                <Link to={`/admin?date=${day.date}`} className="text-brand-700 underline">
                  {day.date} ({day.count})
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {failed && !events.some((e) => String(e.eventID) === failed.eventID) ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {otherMessages(failed.result)}
        </p>
      ) : null}

      {events.length ? <BulkApproveForm date={date} count={events.length} /> : null}
      {events.length === 0 ? (
        <p className="mt-8 rounded-md border border-slate-200 bg-slate-50 px-4 py-6 text-center text-slate-700">
          {emptyText}
        </p>
      ) : (
        <ul aria-label="Pending events" className="mt-8 grid grid-cols-1 gap-6">
          {events.map((event) => (
            <PendingEventItem
              key={`${event.changes ? 'revision' : 'ad'}-${event.eventID}`}
              event={event}
              date={date}
              reply={failed?.eventID === String(event.eventID) ? failed.result : undefined}
            />
          ))}
        </ul>
      )}
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
