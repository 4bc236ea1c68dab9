import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data, redirect } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { ReportAdLink } from '#app/components/report-ad-link.tsx'
import { BounceBeacon } from '#app/components/bounce-beacon.tsx'
import { CustomerEventCard } from '#app/components/customer-event-card.tsx'
import { DialogActions } from '#app/components/dialog-actions.tsx'
import { ReviewReason } from '#app/components/review-reason.tsx'
import { RemindMeForm } from '#app/components/remind-me-form.tsx'
import { GeneralErrorBoundary, NotFoundScreen } from '#app/components/error-boundary.tsx'
import { EventPageFacts } from '#app/components/event-facts.tsx'
import { ScheduleBanner } from '#app/components/schedule-status.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { toPublicEvent } from '#app/models/ads/event-projection.server.ts'
import { eventPagePath, parseEventAddress } from '#app/models/ads/event-address.ts'
import { eventDates } from '#app/models/ads/event-dates.ts'
import {
  eventIcsPath,
  googleCalendarUrl,
  mapSearchUrl,
  shareByEmailUrl,
  streetAddress,
} from '#app/models/ads/event-links.ts'
import { eventSeo, eventSeoMeta } from '#app/models/ads/event-seo.ts'
import { eventTimesOf } from '#app/models/ads/event-times.ts'
import { isOff } from '#app/models/ads/schedule-status.ts'
import { customerCardData } from '#app/models/ads/customer-card.ts'
import { latestRevisions, ownerReviewNotice } from '#app/models/ads/event-revision.server.ts'
import { eventStatusLabel, isLive, ownerEditKind } from '#app/models/ads/event-status.ts'
import { getEventForViewer } from '#app/models/ads/event.server.ts'
import { businessPagePath } from '#app/models/calendar/business-links.ts'
import { getBusiness, requireBusiness } from '#app/services/http/auth.server.ts'
import { approveAdForPayment } from '#app/services/ads/approval.server.ts'
import { formRefusal, parseFormSubmission } from '#app/services/http/form-submission.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { listedEventsHeaders, sharedPageHeaders } from '#app/services/http/page-cache.server.ts'
import { siteOrigin } from '#app/services/http/site-url.server.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { PAYMENT_TEXT } from '#app/utils/payment-messages.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import { getEnv } from '#app/services/platform/env.server.ts'
import { adLinksOn } from '#app/services/ads/outbound-links.server.ts'
import { eventQrLabel, eventQrUrl } from '#app/models/ads/event-qr.ts'
import { qrCodeSvg } from '#app/models/ads/event-qr.server.ts'
import { QrCode } from '#app/components/qr-code.tsx'

/**
 * Plain HTML for visitors: the public view needs only the bounce beacon's inline script, and the owner's preview is
 * a link and a POST form.
 */
export const handle = { hydrate: false }

/**
 * A live event's public page may come from the shared page cache. It is the only 200 a visitor without cookies can
 * get here (anything else is a 404, never stored), and requests with cookies (an owner's preview) never share it.
 */
export const headers = sharedPageHeaders

const EVENT_NOT_FOUND_TITLE = 'Event Not Found'
export const EVENT_NOT_FOUND_MESSAGE = "The event you're looking for doesn't exist or has been removed."

function eventNotFound() {
  return data({ message: EVENT_NOT_FOUND_MESSAGE }, { status: 404 })
}

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  {
    title: loaderData
      ? `${loaderData.event.eventTitle} · ${PRODUCT_NAME}`
      : `${EVENT_NOT_FOUND_TITLE} · ${PRODUCT_NAME}`,
  },
  ...(loaderData ? [{ name: 'description', content: loaderData.event.eventDescription.slice(0, 160) }] : []),
  // Only a live event is public; an owner's preview of anything else stays out of search engines.
  ...(loaderData?.seo
    ? eventSeoMeta(loaderData.seo)
    : loaderData
      ? [{ name: 'robots', content: 'noindex' }]
      : []),
]

/**
 * At its public address (`/event/12-its-title`) or with ?viewMode=true: a live event, or any of the signed-in
 * business's own. At `/event/12` alone: the owner's preview only. Everyone else gets the same "not found" as for a
 * missing id, so hidden events are not revealed.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const address = parseEventAddress(params.id)
  const eventID = address?.eventID ?? null
  const url = new URL(request.url)
  const viewMode = url.searchParams.get('viewMode') === 'true' || Boolean(address?.slug)
  const business = await getBusiness(request)
  const today = platformToday()
  const timeZone = getEnv().APP_TIME_ZONE
  const found = eventID
    ? await getEventForViewer(eventID, { businessID: business?.businessID, today, ownerOnly: !viewMode })
    : null
  if (!found) throw eventNotFound()
  // A link made before the title changed goes on to the address the page has now.
  const currentPath = eventPagePath(found.event)
  if (address?.slug && `/event/${params.id}` !== currentPath)
    throw redirect(`${currentPath}${url.search}`, 301)
  const live = isLive(found.event, today)
  const origin = siteOrigin(request)
  // A live ad's business has a page unless its advertiser turned it off.
  const businessHref =
    live && found.event.businessPageOn
      ? businessPagePath(found.event.businessID, found.event.businessName)
      : null
  const place = streetAddress(found.event)
  const payload = {
    event: found.isOwner ? found.event : toPublicEvent(found.event),
    // Built as the advertiser's preview builds it, so the preview shows exactly this.
    card: customerCardData(found.event, found.event),
    outbound: adLinksOn(found.event, origin),
    // The same for every visitor, so the shared page cache keeps it with the page.
    qr: live
      ? {
          svg: await qrCodeSvg(eventQrUrl(found.event.eventID, origin)),
          label: eventQrLabel(found.event.eventTitle),
        }
      : null,
    editable: found.isOwner && ownerEditKind(found.event, today) !== null,
    // Where its reviews stand, and why it (or its latest edit) was sent back or rejected: for its owner only.
    ...(found.isOwner
      ? ownerReviewNotice(
          found.event,
          (await latestRevisions([found.event.eventID])).get(found.event.eventID),
          today,
        )
      : { reviewReason: null, editNote: null, resubmitHref: null }),
    isOwner: found.isOwner,
    viewMode,
    businessHref,
    statusLabel: found.isOwner ? eventStatusLabel(found.event, today) : null,
    live,
    seo: live ? eventSeo(found.event, { origin, today, timeZone }) : null,
    off: isOff(found.event.scheduleStatus),
    facts: {
      dates: eventDates(found.event.eventDate, found.event.showAdOnDates),
      times: eventTimesOf(found.event),
      off: isOff(found.event.scheduleStatus),
      category: found.event.category,
      address: place,
      mapUrl: place ? mapSearchUrl(place) : null,
      icsPath: eventIcsPath(found.event.eventID),
      googleCalendarUrl: googleCalendarUrl(found.event, { origin, today, timeZone }),
      shareUrl: shareByEmailUrl(found.event, origin),
    },
  }
  // A view of the live ad's public page is counted wherever the page is served (the shared page cache included).
  return data(payload, { headers: listedEventsHeaders(live && viewMode ? [found.event.eventID] : []) })
}

const actionSchema = z.discriminatedUnion('intent', [z.object({ intent: z.literal('confirm') })])

export async function action({ request, params }: ActionFunctionArgs) {
  const business = await requireBusiness(request)
  const eventID = parseId(params.id)
  if (!eventID) throw eventNotFound()

  const form = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const submission = parseFormSubmission(form, actionSchema)
  if (submission.status !== 'success') return formRefusal(submission.reply())

  try {
    await approveAdForPayment(business, eventID)
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    if (error.kind === 'not_found') throw eventNotFound()
    return redirectWithToast(`/event/${eventID}?viewMode=true`, PAYMENT_TEXT.alreadyPaid)
  }
  return redirectWithToast(`/checkout?eventID=${eventID}`, {
    title: 'Success!',
    description: 'Your ad has been approved and saved to the database.',
  })
}

export const QR_CAPTION = 'Scan to open this event on a phone'

const closeClasses =
  'rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50'

export default function EventDetail() {
  const {
    event,
    card,
    editable,
    viewMode,
    statusLabel,
    live,
    off,
    reviewReason,
    editNote,
    resubmitHref,
    facts,
    businessHref,
    outbound,
    qr,
  } = useLoaderData<typeof loader>()
  const paid = 'paymentStatus' in event && event.paymentStatus !== 'pending'
  const sentBack =
    reviewReason || editNote ? (
      <OwnerReview reason={reviewReason} note={editNote} editHref={resubmitHref} />
    ) : null

  if (viewMode) {
    return (
      <main className="mx-auto max-w-3xl px-4 py-8">
        <div className="mb-4 flex items-center justify-between gap-3">
          <a href="/calendar" className="text-sm font-medium text-brand-700 underline">
            ← All events
          </a>
          <Link to="/dashboard" className={closeClasses}>
            Close
          </Link>
        </div>
        {sentBack}
        <ScheduleBanner status={card.scheduleStatus} note={card.scheduleNote} />
        <CustomerEventCard
          event={card}
          mode="public"
          titleAs="h1"
          eventFirst
          photoPriority="high"
          joinLink
          businessHref={businessHref}
          outbound={outbound}
          details={<EventPageFacts {...facts} />}
        />
        {/* Nothing to be reminded of for an event that is off. */}
        {live && !off ? <RemindMeForm eventID={event.eventID} /> : null}
        {/* Only a live event's bounces are counted (the endpoint answers 404 for anything else). */}
        {live ? <BounceBeacon eventID={event.eventID} /> : null}
        {qr ? (
          <div className="mt-6 flex justify-center">
            <QrCode svg={qr.svg} label={qr.label} caption={QR_CAPTION} />
          </div>
        ) : null}
        {live ? <ReportAdLink eventID={event.eventID} /> : null}
      </main>
    )
  }

  return (
    <main className="mx-auto max-w-3xl px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold text-ink">Event Preview</h1>
        <Link to="/dashboard" className={closeClasses}>
          Close
        </Link>
      </div>

      {paid ? (
        <>
          <p className="mt-6 rounded-md border border-slate-200 bg-slate-50 px-4 py-3 text-slate-700">
            Status: <strong data-testid="event-status">{statusLabel}</strong>
          </p>
          <div className="mt-3">{sentBack}</div>
          {editable && !resubmitHref ? <EditLink eventID={event.eventID} /> : null}
        </>
      ) : (
        <ConfirmDialog eventID={event.eventID} editable={editable} />
      )}

      <div className="mt-6">
        <CustomerEventCard event={card} mode="public" outbound={outbound} />
      </div>
    </main>
  )
}

const editLinkClasses =
  'inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-4 py-2 font-medium text-slate-800 hover:bg-slate-50'

function EditLink({ eventID, className = '' }: { eventID: number; className?: string }) {
  return (
    <Link to={`/dashboard/events/${eventID}/edit`} className={`${editLinkClasses} ${className}`}>
      Edit Event
    </Link>
  )
}

/** Where the ad's review stands: the reviewer's note, and for an ad sent back the way to fix it (it is paid for). */
function OwnerReview({
  reason,
  note,
  editHref,
}: {
  reason: string | null
  note: string | null
  editHref: string | null
}) {
  return (
    <div className="mb-4 grid gap-3">
      {note ? (
        <p data-testid="edit-note" className="text-slate-700">
          {note}
        </p>
      ) : null}
      {reason ? <ReviewReason reason={reason} /> : null}
      {editHref ? (
        <Link to={editHref} className={`${editLinkClasses} justify-self-start`}>
          Edit and resubmit
        </Link>
      ) : null}
    </div>
  )
}

/** An open <dialog> in the page flow: it works without JavaScript and is not modal, so the preview stays readable. */
function ConfirmDialog({ eventID, editable }: { eventID: number; editable: boolean }) {
  const navigation = useNavigation()
  const confirming = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'confirm'
  return (
    <dialog
      open
      aria-labelledby="confirm-ad-title"
      className="static mt-6 w-full rounded-2xl border border-slate-200 bg-white p-6 text-slate-900 shadow-sm"
    >
      <h2 id="confirm-ad-title" className="text-xl font-bold text-ink">
        Confirm Your Event Ad
      </h2>
      <p className="mt-2 text-slate-600">
        Check your ad below as customers will see it. Confirm it to continue to payment, or edit it first.
      </p>
      <Form method="post" className="mt-5">
        <DialogActions
          className="flex flex-col gap-3 sm:flex-row sm:justify-end"
          leave={editable ? { to: `/dashboard/events/${eventID}/edit`, label: 'Edit Event' } : undefined}
          submit={{
            label: 'Confirm Ad',
            busyLabel: 'Confirming...',
            busy: confirming,
            name: 'intent',
            value: 'confirm',
          }}
        />
      </Form>
    </dialog>
  )
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: () => <NotFoundScreen title={EVENT_NOT_FOUND_TITLE} message={EVENT_NOT_FOUND_MESSAGE} />,
      }}
    />
  )
}
