import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Form, useLoaderData } from '@remix-run/react'
import { CalendarFilterFields } from '#app/components/calendar-filter-fields.tsx'
import { CalendarMonth } from '#app/components/calendar-month.tsx'
import { CalendarResults, NO_EVENTS_FOUND_TEXT } from '#app/components/calendar-results.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PRODUCT_NAME, TAGLINE } from '#app/constants.ts'
import {
  ALL_CATEGORIES,
  EMPTY_CALENDAR_FILTERS,
  calendarSearchParams,
  normalizeCalendarFilters,
  type CalendarFilters,
} from '#app/models/calendar-filters.ts'
import { CALENDAR_VIEW_PARAMS, calendarViewOf, shiftMonth } from '#app/models/calendar-month.ts'
import { formatShortDate } from '#app/models/format.ts'
import { getCategoryNames } from '#app/models/public-pages.server.ts'
import {
  calendarNearPosition,
  getCalendarMonth,
  getCalendarResults,
  nearZipNotices,
} from '#app/services/calendar-page.server.ts'
import { listedEventsHeaders, sharedPageHeaders } from '#app/services/page-cache.server.ts'
import { platformToday } from '#app/services/platform-today.server.ts'
import { AppError, appErrorResponse } from '#app/utils/app-error.ts'
import { NEAR_ME_ERROR_PROPS, NEAR_ME_PROPS, NEAR_ME_SCRIPT } from '#app/utils/near-me.ts'

/** Plain HTML: the filters are a GET form and 'View details' a POST form, so no script is needed. */
export const handle = { hydrate: false }
export const headers = sharedPageHeaders

export const CALENDAR_SUBTITLE = 'Discover upcoming events in your area'
export { NO_EVENTS_FOUND_TEXT }

/** The calendar's URL for these filters and page. */
export function calendarHref(filters: CalendarFilters, page = 1) {
  const query = calendarSearchParams(filters, page).toString()
  return `/calendar${query ? `?${query}` : ''}`
}

/** The month grid's URL for these filters and month (yyyy-mm; null = the current month). */
export function calendarMonthHref(filters: CalendarFilters, month: string | null) {
  const params = calendarSearchParams(filters)
  params.set(CALENDAR_VIEW_PARAMS.view, 'month')
  if (month) params.set(CALENDAR_VIEW_PARAMS.month, month)
  return `/calendar?${params}`
}

/** The list of one day's events with these filters (a day of the month grid). */
export function calendarDayHref(filters: CalendarFilters, date: string) {
  return calendarHref({ ...filters, from: date, to: date })
}

export function foundEventsText(total: number) {
  return `We found ${total} event(s) for you!`
}

export async function loader({ request }: LoaderFunctionArgs) {
  const searchParams = new URL(request.url).searchParams
  const { filters, page, notices } = normalizeCalendarFilters(searchParams)
  const today = platformToday()
  const view = calendarViewOf(searchParams, today)
  if (!view.ok) throw appErrorResponse(new AppError(view.message, 400))
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
  const shown = new Set([...results.featured, ...results.events].map((event) => event.eventID))
  return data(
    { view: view.view, filters, notices: [...notices, ...nearNotices], categories, ...results },
    { headers: listedEventsHeaders([...shown]) },
  )
}

/** "Use my location" posts the browser's position here; the answer is the calendar near the closest ZIP. */
export async function action({ request }: ActionFunctionArgs) {
  try {
    return await calendarNearPosition(request)
  } catch (error) {
    if (error instanceof AppError) throw appErrorResponse(error)
    throw error
  }
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

/** The filters set, in a few words ("Keyword “jazz”, Music, from Dec 1"), '' when none is. */
export function activeFiltersSummary(filters: CalendarFilters) {
  const parts = [
    filters.keyword ? `Keyword “${filters.keyword}”` : '',
    filters.category && filters.category !== ALL_CATEGORIES ? filters.category : '',
    filters.zip ? `ZIP ${filters.zip}` : '',
    filters.near
      ? `within ${filters.radius} mi of ${filters.near}${filters.sort === 'nearest' ? ', nearest first' : ''}`
      : '',
    filters.from ? `from ${formatShortDate(filters.from, { withYear: true })}` : '',
    filters.to ? `to ${formatShortDate(filters.to, { withYear: true })}` : '',
  ]
  return parts.filter(Boolean).join(', ')
}

/** `month`: the month grid being filtered (the form keeps it), or null for the list. */
interface FiltersProps {
  filters: CalendarFilters
  categories: string[]
  month: string | null
}

/**
 * The filters behind a "Filters" disclosure (a plain <details>, no script): closed, with the active filters in its
 * summary, so the results come first on a phone.
 */
function FiltersDisclosure({ filters, categories, month }: FiltersProps) {
  const active = activeFiltersSummary(filters)
  return (
    <details data-testid="calendar-filters" className="rounded-lg border border-slate-200 bg-white">
      <summary className="cursor-pointer px-4 py-3 text-lg font-bold text-ink">
        Filters
        {active ? <span className="block text-sm font-normal text-slate-700">{active}</span> : null}
      </summary>
      <div className="px-4 pb-4">
        <Filters filters={filters} categories={categories} month={month} />
      </div>
    </details>
  )
}

function Filters({ filters, categories, month }: FiltersProps) {
  return (
    <Form method="get" action="/calendar" className="grid gap-4" aria-label="Filters">
      {month ? (
        <>
          <input type="hidden" name={CALENDAR_VIEW_PARAMS.view} value="month" />
          <input type="hidden" name={CALENDAR_VIEW_PARAMS.month} value={month} />
        </>
      ) : null}
      <CalendarFilterFields
        idPrefix="calendar"
        categories={categories}
        values={{
          ...filters,
          radius: String(filters.radius),
          from: filters.from ?? '',
          to: filters.to ?? '',
        }}
        nearMe={<NearMe />}
      />
      <button
        type="submit"
        className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
      >
        Apply filters
      </button>
      <a
        href={month ? calendarMonthHref(EMPTY_CALENDAR_FILTERS, month) : '/calendar'}
        className="rounded-md border border-slate-300 bg-white px-4 py-2 text-center text-sm font-medium text-slate-800 hover:bg-slate-50"
      >
        Clear Filters
      </a>
      <script dangerouslySetInnerHTML={{ __html: NEAR_ME_SCRIPT }} />
    </Form>
  )
}

/** Hidden until the near-me script finds the browser can tell its position; the script comes after the form. */
function NearMe() {
  return (
    <>
      <button
        type="button"
        hidden
        {...NEAR_ME_PROPS}
        className="justify-self-start rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-60"
      >
        Use my location
      </button>
      <p hidden role="alert" {...NEAR_ME_ERROR_PROPS} className="text-sm text-red-800">
        Your browser did not share your location. Enter a ZIP code instead.
      </p>
    </>
  )
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
  const feedQuery = calendarSearchParams(filters).toString()
  const feedSuffix = feedQuery ? `?${feedQuery}` : ''
  return (
    <main className="mx-auto max-w-7xl px-4 py-8">
      {/* The site header above carries the logo; the page shows it once. */}
      <header className="border-b border-slate-200 pb-6">
        <div>
          <h1 className="text-lg font-semibold text-brand-700">{TAGLINE}</h1>
          <p className="text-slate-600">{CALENDAR_SUBTITLE}</p>
        </div>
      </header>

      <div className="mt-8 grid gap-8 lg:grid-cols-[16rem_1fr]">
        {/* After the results in the page, so a phone shows them first; beside them, first, on wide screens. */}
        <section
          aria-labelledby={month ? 'month-heading' : 'found-heading'}
          className="min-w-0 lg:col-start-2 lg:row-start-1"
        >
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
              <ViewLinks filters={filters} current="list" />

              <div data-testid="calendar-results">
                <CalendarResults
                  featured={loaderData.featured}
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
        </section>

        <aside className="lg:sticky lg:top-4 lg:col-start-1 lg:row-start-1 lg:self-start">
          <FiltersDisclosure filters={filters} categories={categories} month={month?.grid.month ?? null} />
        </aside>
      </div>
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
