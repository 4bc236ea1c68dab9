import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, Outlet, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { LogoutButton } from '#app/components/site-chrome.tsx'
import { EventsGallery, type GalleryEvent } from '#app/components/events-gallery.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { latestRevisions, ownerReviewNotice } from '#app/models/ads/event-revision.server.ts'
import { eventStatusLabel } from '#app/models/ads/event-status.ts'
import { clickStatsForBusiness, listEventsForBusiness } from '#app/models/ads/event.server.ts'
import { canRunAgain, runAgainPath } from '#app/models/ads/copied-ad.server.ts'
import { requireBusiness } from '#app/services/http/auth.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { monthBounds } from '#app/utils/time.ts'

export const meta: MetaFunction = () => [{ title: `Dashboard — ${PRODUCT_NAME}` }]

/** The same model calls as GET /api/business/{id}/events and /api/business/{id}/click-stats. */
export async function loader({ request }: LoaderFunctionArgs) {
  const business = await requireBusiness(request)
  const today = platformToday()
  const { first, last } = monthBounds(today)
  const [events, stats] = await Promise.all([
    listEventsForBusiness(business.businessID),
    clickStatsForBusiness(business.businessID, { from: first, to: last }),
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
    // A draft of the older POST /api/events: it cannot be paid for until its advertiser chooses one.
    categoryNeeded: event.category.length === 0 && event.paymentStatus === 'pending',
    receiptUrl: event.receiptUrl,
    receiptHref: event.paymentID ? `/dashboard/receipts/${event.paymentID}` : null,
    runAgainHref: canRunAgain(event) ? runAgainPath(event.eventID) : null,
    ...ownerReviewNotice(event, revisions.get(event.eventID), today),
  }))
  return { businessID: business.businessID, businessName: business.businessName, events: gallery }
}

export default function Dashboard() {
  const { businessName, events } = useLoaderData<typeof loader>()
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

      <EventsGallery events={events} />

      <Outlet />
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
