import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, Outlet, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { LogoutButton } from '#app/components/site-chrome.tsx'
import { EventsGallery, type GalleryEvent } from '#app/components/events-gallery.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { latestRevisions, ownerReviewNotice } from '#app/models/ads/event-revision.server.ts'
import { eventStatusLabel, statusBadgeClass } from '#app/models/ads/event-status.ts'
import { clickStatsForBusiness, listEventsForBusiness } from '#app/models/ads/event.server.ts'
import { canRunAgain, runAgainPath } from '#app/models/ads/copied-ad.server.ts'
import { businessPagePath, SHOW_BUSINESS_PAGE_LABEL } from '#app/models/calendar/business-links.ts'
import { businessPageSettingSchema } from '#app/models/calendar/business-page-schema.ts'
import { businessPageShown, showBusinessPage } from '#app/services/calendar/business-page.server.ts'
import { requireBusiness } from '#app/services/http/auth.server.ts'
import { formRefusal, parseFormSubmission } from '#app/services/http/form-submission.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { monthBounds } from '#app/utils/time.ts'

export const meta: MetaFunction = () => [{ title: `Dashboard — ${PRODUCT_NAME}` }]

/** The same model calls as GET /api/business/{id}/events and /api/business/{id}/click-stats. */
export async function loader({ request }: LoaderFunctionArgs) {
  const business = await requireBusiness(request)
  const today = platformToday()
  const { first, last } = monthBounds(today)
  const [events, stats, pageShown] = await Promise.all([
    listEventsForBusiness(business.businessID),
    clickStatsForBusiness(business.businessID, { from: first, to: last }),
    businessPageShown(business.businessID),
  ])
  const revisions = await latestRevisions(events.map((event) => event.eventID))
  const statsByEvent = new Map(stats.map((s) => [s.eventID, s]))
  const gallery: GalleryEvent[] = events.map((event) => ({
    eventID: event.eventID,
    eventTitle: event.eventTitle,
    stillPhotoPath: event.stillPhotoPath,
    showAdOnDates: event.showAdOnDates,
    eventDate: event.eventDate,
    clicks: statsByEvent.get(event.eventID)?.totalClicks ?? 0,
    bounces: statsByEvent.get(event.eventID)?.totalBounces ?? 0,
    statusLabel: eventStatusLabel(event, today),
    statusClass: statusBadgeClass(eventStatusLabel(event, today)),
    // A draft of the older POST /api/events: it cannot be paid for until its advertiser chooses one.
    categoryNeeded: event.category.length === 0 && event.paymentStatus === 'pending',
    receiptUrl: event.receiptUrl,
    receiptHref: event.paymentID ? `/dashboard/receipts/${event.paymentID}` : null,
    runAgainHref: canRunAgain(event) ? runAgainPath(event.eventID) : null,
    ...ownerReviewNotice(event, revisions.get(event.eventID), today),
  }))
  return {
    businessID: business.businessID,
    businessName: business.businessName,
    events: gallery,
    pageShown,
    pagePath: businessPagePath(business.businessID, business.businessName),
  }
}

/** "Show my business page": the signed-in advertiser's own page on or off. */
export async function action({ request }: ActionFunctionArgs) {
  const business = await requireBusiness(request)
  const form = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const submission = parseFormSubmission(form, businessPageSettingSchema)
  if (submission.status !== 'success') return formRefusal(submission.reply())
  const show = submission.value.show === 'on'
  await showBusinessPage(business.businessID, show)
  return redirectWithToast('/dashboard', {
    title: show ? 'Your business page is shown' : 'Your business page is hidden',
    description: show
      ? 'Visitors find it while you have an event on the calendar.'
      : 'Visitors get “not found” there, and its followers get no more emails.',
  })
}

export default function Dashboard() {
  const { businessName, events, pageShown, pagePath } = useLoaderData<typeof loader>()
  const initial = businessName.trim().charAt(0).toUpperCase() || '?'
  return (
    <main className="mx-auto max-w-6xl px-4 py-8">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <div className="flex min-w-0 items-center gap-3">
          <span
            aria-hidden
            data-testid="business-avatar"
            className="grid size-12 shrink-0 place-items-center rounded-full bg-brand-600 text-xl font-bold text-white"
          >
            {initial}
          </span>
          <h1 className="min-w-0 text-2xl font-bold break-words text-ink">{businessName}</h1>
        </div>
        <LogoutButton className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50" />
      </header>

      <section className="mt-8 rounded-2xl bg-gradient-to-br from-brand-50 to-white p-6 shadow-sm ring-1 ring-slate-200">
        <p className="text-lg text-slate-800">
          Welcome to your advertiser dashboard. Create an event ad, preview it as customers will see it, and
          follow its clicks and bounces for this month below.
        </p>
        <Link
          id="create-event-link"
          to="/dashboard/events/new"
          className="mt-5 inline-block rounded-md bg-brand-600 px-5 py-3 font-semibold text-white hover:bg-brand-700"
        >
          Create a New Event
        </Link>
      </section>

      <BusinessPageSetting shown={pageShown} path={pagePath} />

      <EventsGallery events={events} />

      <Outlet />
    </main>
  )
}

/** "Show my business page": a plain form whose one button turns the setting the other way. */
function BusinessPageSetting({ shown, path }: { shown: boolean; path: string }) {
  return (
    <section
      aria-labelledby="business-page-heading"
      className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="business-page-heading" className="text-lg font-semibold text-ink">
        Your business page
      </h2>
      <p className="mt-1 text-slate-700">
        While you have an event on the calendar, visitors see your details and your upcoming events at{' '}
        <a href={path} className="font-medium break-all text-brand-700 underline">
          {path}
        </a>{' '}
        and can ask to be emailed your new events.
      </p>
      <form method="post" className="mt-4 flex flex-wrap items-center gap-3">
        <input type="hidden" name="intent" value="business-page" />
        <p data-testid="business-page-state" className="text-slate-800">
          {SHOW_BUSINESS_PAGE_LABEL}: <strong>{shown ? 'On' : 'Off'}</strong>
        </p>
        <button
          type="submit"
          name="show"
          value={shown ? 'off' : 'on'}
          className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
        >
          {shown ? 'Turn my page off' : 'Turn my page on'}
        </button>
      </form>
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
