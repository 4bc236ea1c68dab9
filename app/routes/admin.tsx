import '#app/zod-config.ts'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useCheckedForm, type FormReply } from '#app/components/checked-form.tsx'
import { zodCheck } from '#app/components/zod-check.ts'
import { CustomerEventCard } from '#app/components/customer-event-card.tsx'
import { FormField } from '#app/components/form-field.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { photoImgProps, WIDE_PHOTO_HEIGHT, WIDE_PHOTO_WIDTH } from '#app/components/photo-loading.ts'
import { PRODUCT_NAME } from '#app/constants.ts'
import { mediaSrc, videoTypeFromUrl } from '#app/utils/format.ts'
import { ALL_DAYS, REJECTION_REASON_MAX, reviewFormSchema } from '#app/models/moderation-schema.ts'
import type { RevisionChange } from '#app/models/event-revision.server.ts'
import { requireRole } from '#app/services/accounts/auth.server.ts'
import { getEnv } from '#app/services/platform/env.server.ts'
import { parseFormSubmission } from '#app/services/http/form-submission.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { linkOrigin } from '#app/services/http/site-url.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { reviewQueueDateParam } from '#app/services/moderation/moderation-http.server.ts'
import { reviewEvent } from '#app/services/moderation/moderation.server.ts'
import { reviewQueue } from '#app/services/moderation/review-queue.server.ts'
import { isAppError } from '#app/utils/app-error.ts'
import { isValidIsoDate } from '#app/utils/time.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'

export const MODERATION_TITLE = 'Content Moderation Review'
export const INVALID_DATE_MESSAGE = 'That is not a valid date, so today is shown.'

export function noPendingEventsText(date: string) {
  return date === ALL_DAYS ? 'No pending events' : `No pending events for ${date}`
}

/** "2 paid ads wait from other days" */
export function otherDaysText(count: number) {
  return `${count} paid ${count === 1 ? 'ad waits' : 'ads wait'} from other days`
}

export const meta: MetaFunction = () => [{ title: `${MODERATION_TITLE} · ${PRODUCT_NAME}` }]

/**
 * The queue of one upload day (today unless `?date=`), or of every day with `?date=all`, each ad as its customer card
 * shows it, and how many wait on the other days, with a link to each day.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  const timeZone = getEnv().APP_TIME_ZONE
  const asked = reviewQueueDateParam(request)
  const valid = asked !== null
  const date = asked ?? platformToday()
  const queue = await reviewQueue(date, { timeZone })
  return data(
    {
      date,
      notice: valid ? null : INVALID_DATE_MESSAGE,
      ...queue,
    },
    { status: valid ? 200 : 400, headers: { 'Cache-Control': 'no-store' } },
  )
}

const REVISION_TOASTS = {
  approved: (title: string) => ({
    title: 'Changes approved',
    description: `"${title}" now shows the new version.`,
  }),
  changes_requested: (title: string) => ({
    title: 'Changes requested',
    description: `The edit of "${title}" was sent back to its advertiser; the live version stays.`,
  }),
  rejected: (title: string) => ({
    title: 'Edit rejected',
    description: `The edit of "${title}" was rejected; the live version stays.`,
  }),
} as const

const REVIEW_TOASTS = {
  approved: (title: string) => ({ title: 'Event approved', description: `"${title}" is now live.` }),
  changes_requested: (title: string) => ({
    title: 'Changes requested',
    description: `"${title}" was sent back to its advertiser with your reason.`,
  }),
  rejected: (title: string, refundMessage?: string) => ({
    title: 'Event rejected',
    description: `"${title}" was rejected${refundMessage ? `. ${refundMessage}` : ' and its payment refunded.'}`,
  }),
} as const

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  // A body the reader refuses (413/415/400) is shown by the page's error boundary.
  const form = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const submission = parseFormSubmission(form, reviewFormSchema)
  if (submission.status !== 'success') {
    return data({ result: submission.reply(), eventID: String(form.get('eventID') ?? '') }, { status: 400 })
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
  return redirectWithToast(
    back,
    outcome.revision
      ? REVISION_TOASTS[outcome.eventStatus](outcome.eventTitle)
      : REVIEW_TOASTS[outcome.eventStatus](outcome.eventTitle, outcome.refund?.message ?? undefined),
  )
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-x-2 text-sm sm:grid-cols-[9rem_1fr]">
      <dt className="font-medium text-slate-500">{label}</dt>
      <dd className="break-words text-slate-900">{children}</dd>
    </div>
  )
}

/** The old and new columns share what the 4xl page leaves beside the field names. */
const CHANGED_PHOTO_SIZES = '(min-width: 56rem) 22rem, 40vw'

function ChangedMedia({ change, which }: { change: RevisionChange; which: 'old' | 'new' }) {
  const src = mediaSrc(change[which])
  if (!src) return <span className="text-slate-500">None</span>
  const label = `${which === 'old' ? 'Live' : 'New'} ${change.kind}`
  return change.kind === 'photo' ? (
    <img
      {...photoImgProps({
        src,
        sizes: CHANGED_PHOTO_SIZES,
        width: WIDE_PHOTO_WIDTH,
        height: WIDE_PHOTO_HEIGHT,
        priority: 'lazy',
      })}
      alt={label}
      className="h-auto max-h-48 w-full rounded-md object-contain"
    />
  ) : (
    <video controls preload="metadata" aria-label={label} className="max-h-48 w-full rounded-md bg-black">
      <source src={src} type={videoTypeFromUrl(src)} />
    </video>
  )
}

/** The revision field by field: the live value beside the new one. */
function RevisionChanges({ changes }: { changes: RevisionChange[] }) {
  return (
    <table data-testid="revision-changes" className="mt-4 w-full table-fixed border-collapse text-sm">
      <caption className="mb-2 text-left text-sm font-semibold text-slate-600">What changes</caption>
      <thead>
        <tr className="text-left text-slate-500">
          <th scope="col" className="w-32 py-1 font-medium">
            Field
          </th>
          <th scope="col" className="py-1 font-medium">
            Live now
          </th>
          <th scope="col" className="py-1 font-medium">
            New
          </th>
        </tr>
      </thead>
      <tbody>
        {changes.length === 0 ? (
          <tr>
            <td colSpan={3} className="py-2 text-slate-600">
              Nothing: the edit is the same as the live ad.
            </td>
          </tr>
        ) : null}
        {changes.map((change) => (
          <tr key={change.field} data-field={change.field} className="border-t border-slate-200 align-top">
            <th scope="row" className="py-2 pr-2 text-left font-medium text-slate-700">
              {change.label}
            </th>
            {(['old', 'new'] as const).map((which) => (
              <td
                key={which}
                data-testid={`change-${which}`}
                className={`py-2 pr-2 break-words whitespace-pre-line ${which === 'old' ? 'text-slate-500' : 'text-slate-900'}`}
              >
                {change.kind === 'text' ? (
                  change[which] || '—'
                ) : (
                  <ChangedMedia change={change} which={which} />
                )}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}

type QueueItem = ReturnType<typeof useLoaderData<typeof loader>>['events'][number]

const buttonClass = {
  approve:
    'rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60',
  changes:
    'rounded-md border border-amber-400 bg-white px-4 py-2 font-medium text-amber-800 hover:bg-amber-50 disabled:opacity-60',
  reject:
    'rounded-md border border-red-300 bg-white px-4 py-2 font-medium text-red-700 hover:bg-red-50 disabled:opacity-60',
}

/** Every message of a refused review but those shown at a field, as one line (a form changed by hand). */
function otherMessages(reply: FormReply | null | undefined, shown: string[] = []) {
  return Object.entries(reply?.error ?? {})
    .filter(([name]) => !shown.includes(name))
    .flatMap(([, messages]) => messages ?? [])
    .join(' ')
}

const checkReview = zodCheck(reviewFormSchema)

function PendingEventItem({ event, date, reply }: { event: QueueItem; date: string; reply?: FormReply }) {
  const navigation = useNavigation()
  const busy =
    navigation.state !== 'idle' && navigation.formData?.get('eventID') === String(event.eventID)
      ? navigation.formData.get('intent')
      : null
  const { formProps, field } = useCheckedForm({
    id: `review-${event.eventID}`,
    reply,
    check: checkReview,
    // Without JavaScript the browser asks for the reason before the post.
    browserChecksWithoutJs: true,
  })
  const reason = field('reason')
  const otherProblems = otherMessages(reply, ['reason'])
  const hidden = (
    <>
      <input type="hidden" name="eventID" value={event.eventID} />
      <input type="hidden" name="date" value={date} />
    </>
  )
  return (
    <li>
      <article
        aria-labelledby={`pending-${event.eventID}`}
        data-testid="pending-event"
        className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
      >
        {event.changes ? (
          <p className="mb-1 text-sm font-semibold tracking-wide text-amber-800 uppercase">
            Changes to a live ad
          </p>
        ) : null}
        <h2 id={`pending-${event.eventID}`} className="text-xl font-bold break-words text-ink">
          {event.eventTitle}
        </h2>
        <dl className="mt-4 grid gap-2">
          <Field label="Event ID">{event.eventID}</Field>
          <Field label="Business">{event.businessName}</Field>
          <Field label="Uploaded">
            <time dateTime={event.createdDate}>{event.uploadedAt}</time>
          </Field>
          <Field label="Category">{event.category.join(', ') || '—'}</Field>
          <Field label="Contact person">{event.contactPerson || '—'}</Field>
          <Field label="Contact phone">{event.contactPhone || '—'}</Field>
          <Field label="Contact email">{event.contactEmail || '—'}</Field>
          {event.earlierRequest ? (
            <Field label="Resubmitted after">
              <span className="whitespace-pre-line">{event.earlierRequest}</span>
            </Field>
          ) : null}
        </dl>
        {event.changes ? <RevisionChanges changes={event.changes} /> : null}
        <h3 className="mt-5 text-sm font-semibold text-slate-600">
          {event.changes ? 'As customers will see it once approved' : 'As customers will see it'}
        </h3>
        <CustomerEventCard
          className="mt-2"
          event={event.card}
          mode="public"
          titleAs="h3"
          photoPriority="lazy"
        />
        <div className="mt-5 grid gap-3">
          <Form method="post" {...formProps} className="grid gap-2">
            {hidden}
            <FormField
              field={reason}
              label="Reason (required to request changes or reject; the advertiser reads it)"
              labelClassName="mb-2 block text-sm font-medium text-slate-800"
            >
              {(control) => (
                <textarea
                  {...reason.inputProps}
                  {...control}
                  rows={2}
                  required
                  maxLength={REJECTION_REASON_MAX}
                  className="block w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
                />
              )}
            </FormField>
            {otherProblems ? (
              <p role="alert" className="text-sm text-red-700">
                {otherProblems}
              </p>
            ) : null}
            <div className="flex flex-wrap justify-end gap-3">
              <button
                type="submit"
                name="intent"
                value="request_changes"
                disabled={Boolean(busy)}
                className={buttonClass.changes}
              >
                {busy === 'request_changes' ? 'Sending back...' : 'Request changes'}
              </button>
              <button
                type="submit"
                name="intent"
                value="reject"
                disabled={Boolean(busy)}
                className={buttonClass.reject}
              >
                {busy === 'reject' ? 'Rejecting...' : 'Reject'}
              </button>
            </div>
          </Form>
          <Form method="post" className="flex justify-end">
            {hidden}
            <button
              type="submit"
              name="intent"
              value="approve"
              disabled={Boolean(busy)}
              className={buttonClass.approve}
            >
              {busy === 'approve' ? 'Approving...' : 'Approve'}
            </button>
          </Form>
        </div>
      </article>
    </li>
  )
}

export default function AdminModeration() {
  const { date, notice, events, otherDays, otherDaysTotal } = useLoaderData<typeof loader>()
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
        (the ads' categories).
      </p>

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
      {otherDaysTotal > 0 ? (
        <nav
          aria-label="Other upload days"
          data-testid="other-days"
          className="mt-4 rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-slate-800"
        >
          <p className="font-medium">{otherDaysText(otherDaysTotal)}:</p>
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

      {events.length === 0 ? (
        <p className="mt-8 rounded-md border border-slate-200 bg-slate-50 px-4 py-6 text-center text-slate-700">
          {noPendingEventsText(date)}
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
