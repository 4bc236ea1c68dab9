import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { Pagination } from '#app/components/calendar-results.tsx'
import { CustomerEventCard } from '#app/components/customer-event-card.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { EventWhenLine } from '#app/components/event-facts.tsx'
import { EventLink } from '#app/components/event-link.tsx'
import { ViewDetailsLink } from '#app/components/event-tile.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { EMPTY_CALENDAR_FILTERS, MAX_PAGE } from '#app/models/calendar/calendar-filters.ts'
import { customerCardData } from '#app/models/ads/customer-card.ts'
import { nextEventDate } from '#app/models/ads/event-dates.ts'
import { getLiveEventsCount, getLiveEventsPage } from '#app/models/calendar/cached-listing.server.ts'
import { listedEventsHeaders, sharedPageHeaders } from '#app/services/http/page-cache.server.ts'
import { logError } from '#app/services/platform/logger.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { adLinksOn } from '#app/services/ads/outbound-links.server.ts'
import { siteOrigin } from '#app/services/http/site-url.server.ts'

/** Plain HTML: nothing on this page needs a script. */
export const handle = { hydrate: false }
export const headers = sharedPageHeaders

const PUBLIC_EVENTS_TITLE = 'Public Events'
const PUBLIC_EVENTS_SUBTITLE = 'Discover upcoming events from local businesses'
const LOAD_FAILED_TITLE = 'Failed to load events'
const LOAD_FAILED_MESSAGE = 'The events could not be loaded right now. Please try again in a moment.'
const NO_PUBLIC_EVENTS_TEXT = 'No events available at this time'
const PUBLIC_PAGE_SIZE = 12

export const meta: MetaFunction = () => [
  { title: `${PUBLIC_EVENTS_TITLE} · ${PRODUCT_NAME}` },
  { name: 'description', content: `${PUBLIC_EVENTS_SUBTITLE}.` },
]

export async function loader({ request }: LoaderFunctionArgs) {
  const pageText = new URL(request.url).searchParams.get('page') ?? ''
  const page = /^\d{1,4}$/.test(pageText) ? Math.min(Math.max(Number(pageText), 1), MAX_PAGE) : 1
  const today = platformToday()
  try {
    const [events, total] = await Promise.all([
      getLiveEventsPage(EMPTY_CALENDAR_FILTERS, {
        today,
        limit: PUBLIC_PAGE_SIZE,
        offset: (page - 1) * PUBLIC_PAGE_SIZE,
      }),
      getLiveEventsCount(EMPTY_CALENDAR_FILTERS, { today }),
    ])
    const origin = siteOrigin(request)
    const withDates = events.map((event) => ({
      ...event,
      date: nextEventDate(event, today),
      outbound: adLinksOn(event, origin),
    }))
    return data(
      {
        events: withDates,
        page,
        pageCount: Math.max(1, Math.ceil(total / PUBLIC_PAGE_SIZE)),
        error: null,
      },
      { headers: listedEventsHeaders(events.map((event) => event.eventID)) },
    )
  } catch (error) {
    // The failure state: the page still renders, with its message instead of the list.
    logError(error, { msg: 'Loading the public events failed' })
    return data(
      { events: [], page, pageCount: 1, error: LOAD_FAILED_MESSAGE },
      { status: 503, headers: { 'Cache-Control': 'no-store' } },
    )
  }
}

export default function PublicEvents() {
  const { events, page, pageCount, error } = useLoaderData<typeof loader>()
  return (
    <main className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-3xl font-bold text-ink">{PUBLIC_EVENTS_TITLE}</h1>
      <p className="mt-2 text-slate-600">{PUBLIC_EVENTS_SUBTITLE}</p>

      {error ? (
        <div role="alert" className="mt-8 rounded-md border border-red-300 bg-red-50 px-4 py-4 text-red-900">
          <p className="font-semibold">{LOAD_FAILED_TITLE}</p>
          <p className="mt-1 text-sm">{error}</p>
        </div>
      ) : events.length === 0 ? (
        <p className="mt-8 rounded-md border border-slate-200 bg-slate-50 px-4 py-6 text-center text-slate-700">
          {NO_PUBLIC_EVENTS_TEXT}
        </p>
      ) : (
        <ul aria-label="Events" className="mt-8 grid gap-8">
          {events.map((event, i) => (
            <li key={event.eventID} className="grid gap-3">
              <CustomerEventCard
                event={customerCardData(event, event)}
                mode="public"
                eventFirst
                photoPriority={i === 0 ? 'high' : 'lazy'}
                linked={(content, { decorative }) => (
                  <EventLink
                    event={event}
                    decorative={decorative}
                    className={decorative ? 'block' : 'hover:underline'}
                  >
                    {content}
                  </EventLink>
                )}
                outbound={event.outbound}
                details={
                  <EventWhenLine
                    date={event.date}
                    category={event.category}
                    startTime={event.startTime}
                    endTime={event.endTime}
                  />
                }
              />
              <ViewDetailsLink event={event} className="justify-self-end px-1" />
            </li>
          ))}
        </ul>
      )}

      <Pagination page={page} pageCount={pageCount} pageHref={(n) => `/public?page=${n}`} />
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
