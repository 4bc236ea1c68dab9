import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data, redirect } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary, NotFoundScreen } from '#app/components/error-boundary.tsx'
import { EventTile } from '#app/components/event-tile.tsx'
import { FollowBusinessForm } from '#app/components/follow-business-form.tsx'
import { QuickDates } from '#app/components/quick-dates.tsx'
import { BusinessContactLinks } from '#app/components/customer-event-card.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { eventSeoMeta } from '#app/models/ads/event-seo.ts'
import { pastEventsText, slugify } from '#app/models/calendar/business-links.ts'
import { parseBusinessSegment } from '#app/models/calendar/business-page.server.ts'
import { calendarSearchParams, EMPTY_CALENDAR_FILTERS } from '#app/models/calendar/calendar-filters.ts'
import { businessPageFor } from '#app/services/calendar/business-page.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { listedEventsHeaders, sharedPageHeaders } from '#app/services/http/page-cache.server.ts'
import { siteOrigin } from '#app/services/http/site-url.server.ts'
import { formatPhone } from '#app/utils/format.ts'

/** Plain HTML: links and a form, nothing to run. */
export const handle = { hydrate: false }

/** A business page is public and may come from the shared page cache; its 404s and redirects are never stored. */
export const headers = sharedPageHeaders

const BUSINESS_NOT_FOUND_TITLE = 'Business Not Found'

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) =>
  loaderData
    ? [
        { title: loaderData.seo.title },
        { name: 'description', content: loaderData.seo.description },
        ...eventSeoMeta(loaderData.seo),
      ]
    : [{ title: `${BUSINESS_NOT_FOUND_TITLE} · ${PRODUCT_NAME}` }]

/**
 * GET /business/{id}-{slug}: a business that has a page (a live ad, and its page on). Any other spelling of its
 * address (no slug, an old name's slug) is a 301 to its own; an id that is not one, or a business without a page,
 * is a 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const segment = parseBusinessSegment(params.slug)
  if (!segment) throw notFound()
  const url = new URL(request.url)
  try {
    const page = await businessPageFor(segment.businessID, url.searchParams, siteOrigin(request))
    if (segment.slug !== slugify(page.business.businessName)) throw redirect(`${page.path}${url.search}`, 301)
    return data(page, { headers: listedEventsHeaders(page.events.map((event) => event.eventID)) })
  } catch (error) {
    throw errorResponse(error, { request })
  }
}

function notFound() {
  return data({ message: 'Business not found' }, { status: 404 })
}

export default function BusinessPage() {
  const page = useLoaderData<typeof loader>()
  const { business, filters, events } = page
  const filtered = Boolean(filters.from || filters.to)
  const pageHref = (f: typeof filters) => {
    const query = calendarSearchParams({ ...EMPTY_CALENDAR_FILTERS, from: f.from, to: f.to }).toString()
    return `${page.path}${query ? `?${query}` : ''}`
  }
  return (
    <main className="mx-auto max-w-5xl px-4 py-8">
      <a href="/calendar" className="text-sm font-medium text-brand-700 underline">
        ← All events
      </a>
      <header className="mt-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <h1 className="text-3xl font-bold break-words text-ink">{business.businessName}</h1>
        <address className="mt-2 grid gap-1 text-slate-700 not-italic">
          {page.address ? (
            <span>
              {page.address}
              {page.mapUrl ? (
                <>
                  {' · '}
                  <a href={page.mapUrl} className="font-medium text-brand-700 underline">
                    Map
                  </a>
                </>
              ) : null}
            </span>
          ) : null}
          {business.businessPhone ? (
            <span>
              Phone:{' '}
              <a
                href={`tel:${business.businessPhone.replace(/[^\d+]/g, '')}`}
                className="text-brand-700 underline"
              >
                {formatPhone(business.businessPhone)}
              </a>
            </span>
          ) : null}
        </address>
        <BusinessContactLinks business={business} outbound={page.outbound} />
        <p data-testid="past-events" className="mt-3 text-sm text-slate-600">
          {pastEventsText(page.pastEvents)}
        </p>
      </header>

      <section aria-labelledby="upcoming-heading" className="mt-8">
        <div className="flex flex-wrap items-baseline justify-between gap-3">
          <h2 id="upcoming-heading" className="text-xl font-semibold text-ink">
            Upcoming events ({page.upcomingCount})
          </h2>
          <p className="text-sm">
            <a href={page.icsPath} className="font-medium text-brand-700 underline">
              Add to my calendar (iCal)
            </a>
            {' · '}
            <a href={page.rssPath} className="font-medium text-brand-700 underline">
              RSS
            </a>
          </p>
        </div>
        <QuickDates filters={filters} today={page.today} hrefFor={pageHref} />
        {filtered ? (
          <p className="mt-2 text-sm">
            <a href={page.path} className="font-medium text-brand-700 underline">
              Every upcoming event
            </a>
          </p>
        ) : null}
        {events.length > 0 ? (
          <ul aria-label="Events" className="mt-5 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {events.map((event, i) => (
              <li key={event.eventID}>
                <EventTile event={event} photoPriority={i === 0 ? 'high' : 'lazy'} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-5 rounded-md border border-slate-200 bg-slate-50 px-4 py-6 text-center text-slate-700">
            No events of {business.businessName} on these dates.
          </p>
        )}
      </section>

      <FollowBusinessForm businessID={business.businessID} businessName={business.businessName} />
    </main>
  )
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: () => (
          <NotFoundScreen
            title={BUSINESS_NOT_FOUND_TITLE}
            message="This business has no page here: it has no event on the calendar now."
          />
        ),
      }}
    />
  )
}
