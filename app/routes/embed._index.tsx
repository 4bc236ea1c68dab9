import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Form, useLoaderData } from '@remix-run/react'
import {
  CalendarFilterFields,
  filterInputClasses,
  filterLabelClasses,
} from '#app/components/calendar-filter-fields.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import {
  CALENDAR_FILTER_PARAMS as P,
  DEFAULT_NEAR_RADIUS,
  calendarSearchParams,
  EMPTY_CALENDAR_FILTERS,
} from '#app/models/calendar/calendar-filters.ts'
import {
  EMBED_EVENTS_LIMIT,
  EMBED_FRAME_HEIGHT_PX,
  EMBED_FRAME_TITLE,
  embedCalendarPath,
  embedSnippet,
} from '#app/models/calendar/embed.ts'
import { getCategoryNames } from '#app/models/calendar/public-pages.server.ts'
import { readEmbedFilters } from '#app/services/calendar/embed.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { siteOrigin } from '#app/services/http/site-url.server.ts'

/** Plain HTML: the filters are a GET form, the snippet a read-only text box, the preview the iframe itself. */
export const handle = { hydrate: false }

const EMBED_PAGE_TITLE = 'Show our events on your site'

/**
 * The partners' page: choose filters, copy the <iframe> for them, see it live. Bad filters answer 400 with the form
 * and the reasons, so the partner can correct them.
 */
/** Each filter's value as the form shows it; the accessibility facts (repeated) joined by commas. */
function submittedFilters(searchParams: URLSearchParams): Record<string, string> {
  return Object.fromEntries(
    Object.values(P).map((name) => [
      name,
      name === P.access ? searchParams.getAll(name).join(',') : (searchParams.get(name) ?? ''),
    ]),
  )
}

export async function loader({ request }: LoaderFunctionArgs) {
  const searchParams = new URL(request.url).searchParams
  const categories = await getCategoryNames()
  let filters
  try {
    filters = await readEmbedFilters(searchParams)
  } catch (error) {
    const submitted = submittedFilters(searchParams)
    return errorResponse(error, {
      request,
      reply: (refusal) => ({
        errors: refusal.fieldErrors[''] ?? [refusal.message],
        categories,
        submitted,
        filters: EMPTY_CALENDAR_FILTERS,
        snippet: null,
        path: null,
      }),
    })
  }
  const path = embedCalendarPath(filters)
  const submitted = submittedFilters(calendarSearchParams(filters))
  return data({
    errors: [] as string[],
    categories,
    submitted,
    filters,
    snippet: embedSnippet(`${siteOrigin(request)}${path}`),
    path,
  })
}

export const meta: MetaFunction = () => [{ title: `${EMBED_PAGE_TITLE} · ${PRODUCT_NAME}` }]

export default function EmbedPage() {
  const { errors, categories, submitted, snippet, path } = useLoaderData<typeof loader>()
  const value = (name: string) => submitted[name] ?? ''
  return (
    <main className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-2xl font-bold text-ink">{EMBED_PAGE_TITLE}</h1>
      <p className="mt-2 text-slate-600">
        Choose which events to show, then paste the code into your page. It lists the next{' '}
        {EMBED_EVENTS_LIMIT} matching events; each opens on {PRODUCT_NAME} in a new tab.
      </p>

      <div className="mt-6 grid gap-8 lg:grid-cols-[18rem_1fr]">
        <Form method="get" action="/embed" className="grid content-start gap-4" aria-label="Events to show">
          <CalendarFilterFields
            idPrefix="embed"
            categories={categories}
            values={{
              keyword: value(P.keyword),
              category: value(P.category),
              zip: value(P.zip),
              near: value(P.near),
              radius: value(P.radius) || String(DEFAULT_NEAR_RADIUS),
              sort: value(P.sort) || 'soonest',
              from: value(P.from),
              to: value(P.to),
              free: value(P.free) === '1',
              online: value(P.online) === '1',
              access: value(P.access).split(',').filter(Boolean),
              hideCancelled: value(P.hideCancelled) === '1',
            }}
          />
          <button
            type="submit"
            className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
          >
            Update the code
          </button>
        </Form>

        <div className="min-w-0">
          {errors.length > 0 ? (
            <ul
              role="alert"
              className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900"
            >
              {errors.map((error) => (
                <li key={error}>{error}</li>
              ))}
            </ul>
          ) : null}
          {snippet && path ? (
            <>
              <label htmlFor="embed-snippet" className={filterLabelClasses}>
                Code to paste into your page
              </label>
              <textarea
                id="embed-snippet"
                readOnly
                rows={4}
                value={snippet}
                className={`${filterInputClasses} font-mono text-xs`}
              />
              <h2 className="mt-6 text-lg font-semibold text-ink">Preview</h2>
              <iframe
                src={path}
                title={EMBED_FRAME_TITLE}
                height={EMBED_FRAME_HEIGHT_PX}
                loading="lazy"
                className="mt-2 w-full rounded-md border border-slate-200"
              />
            </>
          ) : null}
        </div>
      </div>
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
