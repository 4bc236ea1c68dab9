import '#app/zod-config.ts'
import { TZDate } from '@date-fns/tz'
import { parseWithZod } from '@conform-to/zod/v4'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Form, useLoaderData, useNavigation } from '@remix-run/react'
import { format } from 'date-fns'
import type { ReactNode } from 'react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { formatPhone, mediaSrc, videoTypeFromUrl } from '#app/models/format.ts'
import { REJECTION_REASON_MAX, reviewFormSchema, type PendingEvent } from '#app/models/moderation-schema.ts'
import { listPendingEvents } from '#app/models/moderation.server.ts'
import { requireRole } from '#app/services/auth.server.ts'
import { getEnv } from '#app/services/env.server.ts'
import { platformToday } from '#app/services/platform-today.server.ts'
import { uploadDateParam } from '#app/services/moderation-http.server.ts'
import { reviewEvent } from '#app/services/moderation.server.ts'
import { isValidIsoDate } from '#app/utils/time.ts'
import { redirectWithToast } from '#app/services/toast.server.ts'
import { readFormData } from '#app/services/request-body.server.ts'

export const MODERATION_TITLE = 'Content Moderation Review'
export const INVALID_DATE_MESSAGE = 'That is not a valid date, so today is shown.'

export function noPendingEventsText(date: string) {
  return `No pending events for ${date}`
}

export const meta: MetaFunction = () => [{ title: `${MODERATION_TITLE} · ${PRODUCT_NAME}` }]

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  const timeZone = getEnv().APP_TIME_ZONE
  const asked = uploadDateParam(request)
  const valid = asked !== null
  const date = asked ?? platformToday()
  const pending = await listPendingEvents(date, { timeZone })
  return data(
    {
      date,
      notice: valid ? null : INVALID_DATE_MESSAGE,
      events: pending.map((event) => ({
        ...event,
        uploadedAt: format(new TZDate(event.createdDate, timeZone), 'MMM d, yyyy h:mm a'),
      })),
    },
    { status: valid ? 200 : 400, headers: { 'Cache-Control': 'no-store' } },
  )
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const submission = parseWithZod(await readFormData(request), { schema: reviewFormSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply() }, { status: 400 })
  }
  const { intent, eventID, reason = '', date } = submission.value
  const back = `/admin${date && isValidIsoDate(date) ? `?date=${date}` : ''}`
  const outcome = await reviewEvent(
    { eventID, action: intent, reason },
    { reviewerId: admin.id, today: platformToday() },
  )
  if (!outcome.ok) {
    return redirectWithToast(back, {
      title: 'Review failed',
      description: outcome.message,
      variant: 'destructive',
    })
  }
  return redirectWithToast(
    back,
    outcome.eventStatus === 'approved'
      ? { title: 'Event approved', description: `"${outcome.eventTitle}" is now live.` }
      : {
          title: 'Event rejected',
          description: `"${outcome.eventTitle}" was rejected${outcome.refund?.message ? `. ${outcome.refund.message}` : ' and its payment refunded.'}`,
        },
  )
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[9rem_1fr] gap-2 text-sm">
      <dt className="font-medium text-slate-500">{label}</dt>
      <dd className="break-words text-slate-900">{children}</dd>
    </div>
  )
}

function PendingEventItem({ event, date }: { event: PendingEvent & { uploadedAt: string }; date: string }) {
  const navigation = useNavigation()
  const busy =
    navigation.state !== 'idle' && navigation.formData?.get('eventID') === String(event.eventID)
      ? navigation.formData.get('intent')
      : null
  const photo = mediaSrc(event.photoPath)
  const video = mediaSrc(event.videoPath)
  const reasonId = `reason-${event.eventID}`
  return (
    <li>
      <article
        aria-labelledby={`pending-${event.eventID}`}
        data-testid="pending-event"
        className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
      >
        <h2 id={`pending-${event.eventID}`} className="text-xl font-bold break-words text-ink">
          {event.eventTitle}
        </h2>
        <dl className="mt-4 grid gap-2">
          <Field label="Event ID">{event.eventID}</Field>
          <Field label="Business">{event.businessName}</Field>
          <Field label="Uploaded">
            <time dateTime={event.createdDate}>{event.uploadedAt}</time>
          </Field>
          <Field label="Description">
            <span className="whitespace-pre-line">{event.eventDescription}</span>
          </Field>
          <Field label="Category">{event.category.join(', ') || '—'}</Field>
          <Field label="Contact person">{event.contactPerson || '—'}</Field>
          <Field label="Contact phone">{formatPhone(event.contactPhone) || '—'}</Field>
          <Field label="Contact email">{event.contactEmail || '—'}</Field>
          <Field label="Photo">{event.photoPath || 'No photo'}</Field>
          <Field label="Video">{event.videoPath || 'No video'}</Field>
        </dl>
        {photo || video ? (
          <div className="mt-4 grid gap-3 md:grid-cols-2">
            {photo ? (
              <img
                src={photo}
                alt={`Photo for ${event.eventTitle}`}
                className="max-h-72 w-full rounded-lg object-contain"
              />
            ) : null}
            {video ? (
              <video controls preload="metadata" className="max-h-72 w-full rounded-lg bg-black">
                <source src={video} type={videoTypeFromUrl(video)} />
              </video>
            ) : null}
          </div>
        ) : null}
        <Form method="post" className="mt-5 grid gap-3">
          <input type="hidden" name="eventID" value={event.eventID} />
          <input type="hidden" name="date" value={date} />
          <div>
            <label htmlFor={reasonId} className="block text-sm font-medium text-slate-800">
              Reason (optional)
            </label>
            <textarea
              id={reasonId}
              name="reason"
              rows={2}
              maxLength={REJECTION_REASON_MAX}
              className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
            />
          </div>
          <div className="flex flex-wrap justify-end gap-3">
            <button
              type="submit"
              name="intent"
              value="reject"
              disabled={Boolean(busy)}
              className="rounded-md border border-red-300 bg-white px-4 py-2 font-medium text-red-700 hover:bg-red-50 disabled:opacity-60"
            >
              {busy === 'reject' ? 'Rejecting...' : 'Reject'}
            </button>
            <button
              type="submit"
              name="intent"
              value="approve"
              disabled={Boolean(busy)}
              className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
            >
              {busy === 'approve' ? 'Approving...' : 'Approve'}
            </button>
          </div>
        </Form>
      </article>
    </li>
  )
}

export default function AdminModeration() {
  const { date, notice, events } = useLoaderData<typeof loader>()
  return (
    <main className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-3xl font-bold text-ink">{MODERATION_TITLE}</h1>
      <p className="mt-2 text-slate-600">Paid events awaiting review, by the day they were uploaded.</p>

      <Form method="get" className="mt-6 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="upload-date" className="block text-sm font-medium text-slate-800">
            Upload date
          </label>
          <input
            id="upload-date"
            name="date"
            type="date"
            defaultValue={date}
            key={date}
            required
            className="mt-1 rounded-md border border-slate-300 px-3 py-2"
          />
        </div>
        <button
          type="submit"
          className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium hover:bg-slate-50"
        >
          Refresh
        </button>
      </Form>
      {notice ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {notice}
        </p>
      ) : null}

      {events.length === 0 ? (
        <p className="mt-8 rounded-md border border-slate-200 bg-slate-50 px-4 py-6 text-center text-slate-700">
          {noPendingEventsText(date)}
        </p>
      ) : (
        <ul aria-label="Pending events" className="mt-8 grid gap-6">
          {events.map((event) => (
            <PendingEventItem key={event.eventID} event={event} date={date} />
          ))}
        </ul>
      )}
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
