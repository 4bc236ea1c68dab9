/** One item of the moderation queue: the ad (or the edit of a live ad) with its card, and the reviewer's buttons. */
import { POSSIBLE_DUPLICATE_LABEL } from '#app/models/ads/duplicate-warning.ts'
import { Form, Link, useNavigation } from '@remix-run/react'
import type { ReactNode } from 'react'
import {
  REJECTION_REASON_MAX,
  reviewFormSchema,
  type ReviewQueueItem,
} from '#app/models/moderation/moderation-schema.ts'
import { BulkApproveCheckbox } from './bulk-approve-form.tsx'
import { useCheckedForm, type FormReply } from './checked-form.tsx'
import { otherMessages } from './form-messages.ts'
import { CustomerEventCard } from './customer-event-card.tsx'
import { ReasonField } from './reason-field.tsx'
import { RevisionChanges } from './revision-changes.tsx'
import { zodCheck } from './zod-check.ts'

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-x-2 text-sm sm:grid-cols-[9rem_1fr]">
      <dt className="font-medium text-slate-500">{label}</dt>
      <dd className="break-words text-slate-900">{children}</dd>
    </div>
  )
}

const buttonClass = {
  approve:
    'rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60',
  changes:
    'rounded-md border border-amber-400 bg-white px-4 py-2 font-medium text-amber-800 hover:bg-amber-50 disabled:opacity-60',
  reject:
    'rounded-md border border-red-300 bg-white px-4 py-2 font-medium text-red-700 hover:bg-red-50 disabled:opacity-60',
}

const checkReview = zodCheck(reviewFormSchema)

/** The ad's facts, what an edit changes, the card as customers will see it, and the review's two forms. */
export function PendingEventItem({
  event,
  date,
  reply,
}: {
  event: ReviewQueueItem
  date: string
  reply?: FormReply
}) {
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
        {event.possibleDuplicate ? (
          <p data-testid="possible-duplicate" className="mt-1 text-sm text-amber-900">
            <span className="rounded bg-amber-100 px-2 py-0.5 font-semibold uppercase">
              {POSSIBLE_DUPLICATE_LABEL}
            </span>{' '}
            of{' '}
            <Link to={event.possibleDuplicate.href} className="text-brand-700 underline">
              “{event.possibleDuplicate.eventTitle}” ({event.possibleDuplicate.businessName})
            </Link>
          </p>
        ) : null}
        <BulkApproveCheckbox eventID={event.eventID} />
        <dl className="mt-4 grid gap-2">
          <Field label="Event ID">
            {event.eventID} (
            <Link to={`/admin/events/${event.eventID}`} className="text-brand-700 underline">
              decisions so far
            </Link>
            )
          </Field>
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
          joinLink
        />
        <div className="mt-5 grid gap-3">
          <Form method="post" {...formProps} className="grid gap-2">
            {hidden}
            <ReasonField
              field={field('reason')}
              label="Reason (required to request changes or reject; the advertiser reads it)"
              maxLength={REJECTION_REASON_MAX}
            />
            {otherProblems ? (
              <p role="alert" className="text-sm text-red-700">
                {otherProblems}
              </p>
            ) : null}
            <div className="flex flex-wrap justify-end gap-3">
              <DecisionButton
                intent="request_changes"
                busy={busy}
                busyLabel="Sending back..."
                className={buttonClass.changes}
              >
                Request changes
              </DecisionButton>
              <DecisionButton
                intent="reject"
                busy={busy}
                busyLabel="Rejecting..."
                className={buttonClass.reject}
              >
                Reject
              </DecisionButton>
            </div>
          </Form>
          <Form method="post" className="flex justify-end">
            {hidden}
            <DecisionButton
              intent="approve"
              busy={busy}
              busyLabel="Approving..."
              className={buttonClass.approve}
            >
              Approve
            </DecisionButton>
          </Form>
        </div>
      </article>
    </li>
  )
}

/** A decision's submit button: disabled while any decision is being sent, saying so on the one being sent. */
function DecisionButton({
  intent,
  busy,
  busyLabel,
  className,
  children,
}: {
  intent: string
  busy: FormDataEntryValue | null | undefined
  busyLabel: string
  className: string
  children: string
}) {
  return (
    <button type="submit" name="intent" value={intent} disabled={Boolean(busy)} className={className}>
      {busy === intent ? busyLabel : children}
    </button>
  )
}
