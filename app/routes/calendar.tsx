import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data, redirect } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { ActiveFilters, CalendarFiltersPanel } from '#app/components/calendar-filters-panel.tsx'
import { CalendarMonth } from '#app/components/calendar-month.tsx'
import { CalendarResults, foundEventsText } from '#app/components/calendar-results.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { QuickDates } from '#app/components/quick-dates.tsx'
import { SubscribeForm } from '#app/components/subscribe-form.tsx'
import { PRODUCT_NAME, TAGLINE } from '#app/constants.ts'
import {
  EMPTY_CALENDAR_FILTERS,
  calendarSearchParams,
  normalizeCalendarFilters,
  type CalendarFilters,
} from '#app/models/calendar/calendar-filters.ts'
import { calendarDayHref, calendarHref, calendarMonthHref } from '#app/models/calendar/calendar-links.ts'
import { calendarViewOf, shiftMonth } from '#app/models/calendar/calendar-month.ts'
import { getCategoryNames } from '#app/models/calendar/public-pages.server.ts'
import {
  calendarNearPosition,
  NO_ZIP_NEAR_YOU_MESSAGE,
  getCalendarMonth,
  getCalendarResults,
  nearZipNotices,
} from '#app/services/calendar/calendar-page.server.ts'
import { listingPageHeaders, sharedPageHeaders } from '#app/services/http/page-cache.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { NEAR_ME_LAT, NEAR_ME_LNG } from '#app/utils/near-me.ts'

/** Plain HTML: the filters are a GET form and 'View details' a POST form, so no script is needed. */
export const handle = { hydrate: false }
export const headers = sharedPageHeaders

const CALENDAR_SUBTITLE = 'Discover upcoming events in your area'

export async function loader({ request }: LoaderFunctionArgs) {
  const searchParams = new URL(request.url).searchParams
  const { filters, page, notices } = normalizeCalendarFilters(searchParams)
  const today = platformToday()
  let view
  try {
    view = calendarViewOf(searchParams, today)
  } catch (error) {
    throw errorResponse(error, { request })
  }
  if (view.view === 'month') {
    const [month, categories, nearNotices] = await Promise.all([
      getCalendarMonth(filters, { today, month: view.month }),
      getCategoryNames(),
      nearZipNotices(filters),
    ])
    return data({ view: view.view, filters, notices: [...notices, ...nearNotices], categories, month })
  }
  const [results, categories, nearNotices] = await Promise.all([
    getCalendarResults(filters, { today, page }),
    getCategoryNames(),
    nearZipNotices(filters),
  ])
  const { sponsoredForSeconds, ...shownResults } = results
  const shown = new Set([...results.featured, ...results.events].map((event) => event.eventID))
  const headers = listingPageHeaders({
    listed: [...shown],
    inSlots: results.sponsored.map((event) => event.eventID),
    slotsForSeconds: sponsoredForSeconds,
  })
  return data(
    { view: view.view, filters, notices: [...notices, ...nearNotices], categories, today, ...shownResults },
    { headers },
  )
}

/** "Use my location" posts the browser's position here; the answer is the calendar near the closest ZIP. */
export async function action({ request }: ActionFunctionArgs) {
  let answer
  try {
    const form = await readFormData(request)
    answer = await calendarNearPosition(
      { latitude: form.get(NEAR_ME_LAT), longitude: form.get(NEAR_ME_LNG) },
      new URL(request.url).searchParams,
    )
  } catch (error) {
    throw errorResponse(error, { request })
  }
  if (answer.zip) return redirect(answer.href)
  return redirectWithToast(answer.href, { variant: 'destructive', title: NO_ZIP_NEAR_YOU_MESSAGE })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const query = data ? calendarSearchParams(data.filters).toString() : ''
  const suffix = query ? `?${query}` : ''
  return [
    { title: `Event calendar · ${PRODUCT_NAME}` },
    { name: 'description', content: `${CALENDAR_SUBTITLE}. ${TAGLINE}` },
    {
      tagName: 'link',
      rel: 'alternate',
      type: 'application/rss+xml',
      title: 'Events (RSS)',
      href: `/calendar.rss${suffix}`,
    },
    {
      tagName: 'link',
      rel: 'alternate',
      type: 'text/calendar',
      title: 'Events (iCal)',
      href: `/calendar.ics${suffix}`,
    },
  ]
}

const monthHref = (filters: CalendarFilters, month: string | null) =>
  month ? calendarMonthHref(filters, month) : null

/** List | Month, as links that keep the filters (the month link opens the current month). */
function ViewLinks({ filters, current }: { filters: CalendarFilters; current: 'list' | 'month' }) {
  const linkClasses = 'rounded-md px-3 py-1.5 font-medium'
  const views = [
    { view: 'list', label: 'List', href: calendarHref(filters) },
    { view: 'month', label: 'Month', href: calendarMonthHref(filters, null) },
  ] as const
  return (
    <nav aria-label="Calendar views" className="mt-3 flex gap-2 text-sm">
      {views.map(({ view, label, href }) => (
        <a
          key={view}
          href={href}
          aria-current={view === current ? 'page' : undefined}
          className={
            view === current
              ? `${linkClasses} bg-brand-600 text-white`
              : `${linkClasses} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50`
          }
        >
          {label} view
        </a>
      ))}
    </nav>
  )
}

export default function CalendarPage() {
  const loaderData = useLoaderData<typeof loader>()
  const { filters, notices, categories } = loaderData
  const month = loaderData.view === 'month' ? loaderData.month : null
  const monthShown = month?.grid.month ?? null
  const feedQuery = calendarSearchParams(filters).toString()
  const feedSuffix = feedQuery ? `?${feedQuery}` : ''
  return (
    // The site header's column (max-w-6xl, px-4): the page lines up under it at any width.
    <main className="mx-auto max-w-6xl px-4 py-8">
      {/* The site header above carries the logo; the page shows it once. */}
      <header className="border-b border-slate-200 pb-6">
        <div>
          <h1 className="text-lg font-semibold text-brand-700">{TAGLINE}</h1>
          <p className="text-slate-600">{CALENDAR_SUBTITLE}</p>
        </div>
      </header>

      <div className="mt-6 grid gap-4 lg:mt-8 lg:grid-cols-[16rem_1fr] lg:gap-8">
        {/* First in the page: above the results on a phone, the left column on wide screens (keyboard order too). */}
        <aside className="lg:sticky lg:top-4 lg:self-start">
          <CalendarFiltersPanel
            filters={filters}
            categories={categories}
            month={monthShown}
            clearHref={monthShown ? calendarMonthHref(EMPTY_CALENDAR_FILTERS, monthShown) : '/calendar'}
          />
        </aside>

        <section aria-labelledby={month ? 'month-heading' : 'found-heading'} className="min-w-0">
          {notices.length > 0 ? (
            <ul
              role="status"
              className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
            >
              {notices.map((notice) => (
                <li key={notice}>{notice}</li>
              ))}
            </ul>
          ) : null}
          {month ? (
            <>
              <ActiveFilters filters={filters} hrefWithout={(rest) => calendarMonthHref(rest, monthShown)} />
              <ViewLinks filters={filters} current="month" />
              <CalendarMonth
                grid={month.grid}
                days={month.days}
                dayHref={(date) => calendarDayHref(filters, date)}
                prevHref={monthHref(filters, shiftMonth(month.grid.month, -1))}
                nextHref={monthHref(filters, shiftMonth(month.grid.month, 1))}
              />
            </>
          ) : loaderData.view === 'list' ? (
            <>
              <h2 id="found-heading" className="text-2xl font-bold text-ink">
                {foundEventsText(loaderData.total)}
              </h2>
              <ActiveFilters filters={filters} hrefWithout={(rest) => calendarHref(rest)} />
              <ViewLinks filters={filters} current="list" />
              <QuickDates filters={filters} today={loaderData.today} hrefFor={(f) => calendarHref(f)} />

              <div data-testid="calendar-results">
                <CalendarResults
                  featured={loaderData.featured}
                  sponsored={loaderData.sponsored}
                  events={loaderData.events}
                  page={loaderData.page}
                  pageCount={loaderData.pageCount}
                  pageHref={(p) => calendarHref(filters, p)}
                />
              </div>
            </>
          ) : null}

          <p className="mt-8 text-sm text-slate-600">
            Follow these events:{' '}
            <a href={`/calendar.ics${feedSuffix}`} className="font-medium text-brand-700 underline">
              iCal
            </a>
            {' · '}
            <a href={`/calendar.rss${feedSuffix}`} className="font-medium text-brand-700 underline">
              RSS
            </a>
            {' · '}
            <a href={`/embed${feedSuffix}`} className="font-medium text-brand-700 underline">
              Show them on your site
            </a>
          </p>
          <SubscribeForm filters={filters} />
        </section>
      </div>
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
