import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Form, useLoaderData } from '@remix-run/react'
import type { InputHTMLAttributes } from 'react'
import { CalendarResults, NO_EVENTS_FOUND_TEXT } from '#app/components/calendar-results.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PRODUCT_NAME, TAGLINE } from '#app/constants.ts'
import {
  ALL_CATEGORIES,
  CALENDAR_FILTER_PARAMS as P,
  calendarSearchParams,
  normalizeCalendarFilters,
  type CalendarFilters,
} from '#app/models/calendar-filters.ts'
import { formatShortDate } from '#app/models/format.ts'
import { getCategoryNames } from '#app/models/public-pages.server.ts'
import { getCalendarResults } from '#app/services/calendar-page.server.ts'
import { listedEventsHeaders, sharedPageHeaders } from '#app/services/page-cache.server.ts'
import { platformToday } from '#app/services/platform-today.server.ts'

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

export function foundEventsText(total: number) {
  return `We found ${total} event(s) for you!`
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { filters, page, notices } = normalizeCalendarFilters(new URL(request.url).searchParams)
  const today = platformToday()
  const [results, categories] = await Promise.all([
    getCalendarResults(filters, { today, page }),
    getCategoryNames(),
  ])
  const shown = new Set([...results.featured, ...results.events].map((event) => event.eventID))
  return data({ filters, notices, categories, ...results }, { headers: listedEventsHeaders([...shown]) })
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

const inputClasses =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200'
const labelClasses = 'block text-sm font-medium text-slate-800'

/** One labelled filter field. */
function FilterInput({
  id,
  label,
  ...input
}: { id: string; label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div>
      <label htmlFor={id} className={labelClasses}>
        {label}
      </label>
      <input id={id} {...input} className={inputClasses} />
    </div>
  )
}

/** The filters set, in a few words ("Keyword “jazz”, Music, from Dec 1"), '' when none is. */
export function activeFiltersSummary(filters: CalendarFilters) {
  const parts = [
    filters.keyword ? `Keyword “${filters.keyword}”` : '',
    filters.category && filters.category !== ALL_CATEGORIES ? filters.category : '',
    filters.zip ? `ZIP ${filters.zip}` : '',
    filters.from ? `from ${formatShortDate(filters.from, { withYear: true })}` : '',
    filters.to ? `to ${formatShortDate(filters.to, { withYear: true })}` : '',
  ]
  return parts.filter(Boolean).join(', ')
}

/**
 * The filters behind a "Filters" disclosure (a plain <details>, no script): closed, with the active filters in its
 * summary, so the results come first on a phone.
 */
function FiltersDisclosure({ filters, categories }: { filters: CalendarFilters; categories: string[] }) {
  const active = activeFiltersSummary(filters)
  return (
    <details data-testid="calendar-filters" className="rounded-lg border border-slate-200 bg-white">
      <summary className="cursor-pointer px-4 py-3 text-lg font-bold text-ink">
        Filters
        {active ? <span className="block text-sm font-normal text-slate-700">{active}</span> : null}
      </summary>
      <div className="px-4 pb-4">
        <Filters filters={filters} categories={categories} />
      </div>
    </details>
  )
}

function Filters({ filters, categories }: { filters: CalendarFilters; categories: string[] }) {
  const selected = filters.category || ALL_CATEGORIES
  // A category typed into the URL that no longer exists still shows as selected.
  const options =
    categories.includes(selected) || selected === ALL_CATEGORIES ? categories : [...categories, selected]
  return (
    <Form method="get" action="/calendar" className="grid gap-4" aria-label="Filters">
      <FilterInput
        id="calendar-keyword"
        label="Keyword"
        name={P.keyword}
        type="search"
        defaultValue={filters.keyword}
        maxLength={100}
      />
      <div>
        <label htmlFor="calendar-category" className={labelClasses}>
          Category
        </label>
        <select id="calendar-category" name={P.category} defaultValue={selected} className={inputClasses}>
          <option value={ALL_CATEGORIES}>{ALL_CATEGORIES}</option>
          {options.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <FilterInput
        id="calendar-zip"
        label="ZIP Code"
        name={P.zip}
        type="text"
        inputMode="numeric"
        autoComplete="postal-code"
        defaultValue={filters.zip}
        maxLength={50}
      />
      <fieldset className="grid gap-3">
        <legend className="sr-only">Dates</legend>
        <FilterInput
          id="calendar-from"
          label="Date(s) From"
          name={P.from}
          type="date"
          defaultValue={filters.from ?? ''}
        />
        <FilterInput id="calendar-to" label="To" name={P.to} type="date" defaultValue={filters.to ?? ''} />
      </fieldset>
      <button
        type="submit"
        className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
      >
        Apply filters
      </button>
      <a
        href="/calendar"
        className="rounded-md border border-slate-300 bg-white px-4 py-2 text-center text-sm font-medium text-slate-800 hover:bg-slate-50"
      >
        Clear Filters
      </a>
    </Form>
  )
}

export default function CalendarPage() {
  const { filters, notices, categories, total, featured, events, page, pageCount } =
    useLoaderData<typeof loader>()
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
        <section aria-labelledby="found-heading" className="min-w-0 lg:col-start-2 lg:row-start-1">
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
          <h2 id="found-heading" className="text-2xl font-bold text-ink">
            {foundEventsText(total)}
          </h2>

          <div data-testid="calendar-results">
            <CalendarResults
              featured={featured}
              events={events}
              page={page}
              pageCount={pageCount}
              pageHref={(p) => calendarHref(filters, p)}
            />
          </div>

          <p className="mt-8 text-sm text-slate-600">
            Follow these events:{' '}
            <a href={`/calendar.ics${feedSuffix}`} className="font-medium text-brand-700 underline">
              iCal
            </a>
            {' · '}
            <a href={`/calendar.rss${feedSuffix}`} className="font-medium text-brand-700 underline">
              RSS
            </a>
          </p>
        </section>

        <aside className="lg:sticky lg:top-4 lg:col-start-1 lg:row-start-1 lg:self-start">
          <FiltersDisclosure filters={filters} categories={categories} />
        </aside>
      </div>
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
