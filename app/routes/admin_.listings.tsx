import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Form, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { InputField } from '#app/components/form-controls.tsx'
import { FormField, type FieldState } from '#app/components/form-field.tsx'
import { QrCode } from '#app/components/qr-code.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { eventQrLabel } from '#app/models/ads/event-qr.ts'
import {
  entryPlace,
  entryStatus,
  entryTime,
  formatDayHeading,
  formatRange,
  LISTINGS_TITLE,
  TRUNCATED_NOTICE,
} from '#app/models/calendar/listings.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { siteOrigin } from '#app/services/http/site-url.server.ts'
import {
  listingsCategories,
  listingsFormValues,
  listingsPage,
} from '#app/services/calendar/listings.server.ts'

/** Plain HTML: a GET form and links, so the page ships no JavaScript and its listing is not encoded twice. */
export const handle = { hydrate: false }

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: `${LISTINGS_TITLE}${data?.range ? ` ${formatRange(data.range)}` : ''} · ${PRODUCT_NAME}`,
  },
]

/**
 * The live ads of a range (`from`/`to`, a week from today unless given, at most 366 days) matching the calendar's
 * filters, grouped by day in time order, to print or download; a bad range or filter is a 400 shown at the form.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  const query = new URL(request.url).searchParams
  const headers = { 'Cache-Control': 'no-store' }
  try {
    return data(
      { ...(await listingsPage(query, { origin: siteOrigin(request) })), errors: null },
      { headers },
    )
  } catch (error) {
    const categories = await listingsCategories()
    return errorResponse(error, {
      request,
      headers,
      reply: (refusal) => ({
        range: null,
        form: listingsFormValues(query),
        categories,
        days: [],
        qrCodes: {} as Record<number, string>,
        truncated: false,
        downloads: null,
        errors: Object.keys(refusal.fieldErrors).length ? refusal.fieldErrors : { '': [refusal.message] },
      }),
    })
  }
}

const input = 'mt-1 block max-w-full rounded-md border border-slate-300 px-3 py-2'
const linkClass = 'font-medium text-brand-700 underline'

/** The filter form (a plain GET), the downloads, and the days: on paper without the form, two columns, a day a page. */
export default function Listings() {
  const { range, form, categories, days, qrCodes, truncated, downloads, errors } =
    useLoaderData<typeof loader>()
  const field = (name: string): FieldState => ({
    id: `listings-${name}`,
    errorId: `listings-${name}-error`,
    errors: errors?.[name],
  })
  const known = new Set(['from', 'to', 'category', 'keyword'])
  const formErrors = Object.entries(errors ?? {})
    .filter(([name]) => !known.has(name))
    .flatMap(([, messages]) => messages)
  return (
    <main className="mx-auto max-w-5xl px-4 py-10 print:max-w-none print:p-0">
      <header>
        <h1 className="text-3xl font-bold text-ink print:text-2xl">
          {LISTINGS_TITLE}{' '}
          {range ? <span className="block text-xl font-semibold">{formatRange(range)}</span> : null}
        </h1>
        <p className="mt-2 text-slate-600 print:hidden">
          The live ads of the chosen days, by day and time, to print or to paste into a newsletter or a layout
          program. At most 366 days at once.
        </p>
      </header>
      <Form
        method="get"
        action="/admin/listings"
        aria-label="Choose the listings"
        className="mt-6 flex flex-wrap items-start gap-3 print:hidden"
      >
        {formErrors.length ? (
          <p role="alert" className="w-full text-sm text-red-700">
            {formErrors.join(' ')}
          </p>
        ) : null}
        <InputField
          field={field('from')}
          label="From"
          name="from"
          type="date"
          defaultValue={form.from}
          className={input}
        />
        <InputField
          field={field('to')}
          label="To"
          name="to"
          type="date"
          defaultValue={form.to}
          className={input}
        />
        <FormField field={field('category')} label="Category" className="max-w-full min-w-0">
          {(control) => (
            <select {...control} name="category" defaultValue={form.category} className={input}>
              <option value="">All categories</option>
              {categories.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <InputField
          field={field('keyword')}
          label="Keyword"
          name="keyword"
          type="search"
          defaultValue={form.keyword}
          className={input}
        />
        <div className="flex flex-wrap items-center gap-3 self-end">
          <button
            type="submit"
            className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
          >
            Show
          </button>
        </div>
      </Form>
      {downloads ? (
        <nav aria-label="Downloads" className="mt-4 flex flex-wrap gap-4 text-sm print:hidden">
          {/* Downloads, not pages: the browser fetches them itself. */}
          <a href={downloads.csv} className={linkClass}>
            Download CSV
          </a>
          <a href={downloads.text} className={linkClass}>
            Download plain text
          </a>
          <a href={downloads.html} className={linkClass}>
            Download HTML
          </a>
        </nav>
      ) : null}
      {truncated ? (
        <p role="status" className="mt-4 rounded-md bg-amber-50 p-3 text-amber-900">
          {TRUNCATED_NOTICE}
        </p>
      ) : null}
      {range && days.length === 0 ? <p className="mt-8 text-slate-600">No events on these days.</p> : null}
      {days.map((day, index) => (
        <section
          key={day.date}
          aria-labelledby={`day-${day.date}`}
          className={`mt-8 print:mt-0 ${index > 0 ? 'print:break-before-page' : ''}`}
        >
          <h2 id={`day-${day.date}`} className="border-b border-slate-300 pb-1 text-xl font-bold text-ink">
            {formatDayHeading(day.date)}
          </h2>
          <ul className="mt-3 gap-8 md:columns-2 print:columns-2">
            {day.entries.map((entry) => {
              const status = entryStatus(entry)
              const place = entryPlace(entry)
              const qr = qrCodes[entry.eventID]
              return (
                <li
                  key={entry.eventID}
                  className="mb-3 flex break-inside-avoid items-start justify-between gap-3"
                >
                  <div>
                    <span className="font-semibold">{entryTime(entry)}</span>{' '}
                    <span className="font-semibold text-ink">{entry.eventTitle}</span>
                    {status ? <span className="text-red-800"> ({status})</span> : null}
                    {place ? <span className="block text-slate-700">{place}</span> : null}
                  </div>
                  {qr ? (
                    <QrCode
                      svg={qr}
                      label={eventQrLabel(entry.eventTitle)}
                      className="w-20 shrink-0 print:w-[18mm]"
                    />
                  ) : null}
                </li>
              )
            })}
          </ul>
        </section>
      ))}
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
