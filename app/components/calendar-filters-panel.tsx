import { Form } from '@remix-run/react'
import { CalendarFilterFields } from '#app/components/calendar-filter-fields.tsx'
import { activeFilters, type CalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import { CALENDAR_VIEW_PARAMS } from '#app/models/calendar/calendar-month.ts'
import { NEAR_ME_ERROR_PROPS, NEAR_ME_PROPS, NEAR_ME_SCRIPT } from '#app/utils/near-me.ts'

/** `month`: the month grid being filtered (the form keeps it), or null for the list. */
interface FiltersProps {
  filters: CalendarFilters
  categories: string[]
  month: string | null
  /** Where "Clear Filters" goes: the same view without filters. */
  clearHref: string
}

/**
 * The calendar's one filter form, without script: on a wide screen open in the left column under a "Filters"
 * heading; on a narrow one behind a "Filters (n)" control (a <details> whose summary says how many are set) that
 * opens it in place, above the results. The form follows the control rather than sitting inside it, so CSS alone
 * can show it open on a wide screen (`peer-open` shows it on a narrow one once the control is open).
 */
export function CalendarFiltersPanel(props: FiltersProps) {
  const count = activeFilters(props.filters).length
  return (
    <>
      <details
        data-testid="calendar-filters"
        className="peer rounded-lg border border-slate-200 bg-white lg:hidden"
      >
        <summary className="cursor-pointer px-4 py-3 text-lg font-bold text-ink">
          Filters{count > 0 ? ` (${count})` : ''}
        </summary>
      </details>
      <div className="mt-2 hidden rounded-lg border border-slate-200 bg-white p-4 peer-open:block lg:mt-0 lg:block">
        <h2 className="mb-3 hidden text-lg font-bold text-ink lg:block">Filters</h2>
        <FiltersForm {...props} />
      </div>
    </>
  )
}

function FiltersForm({ filters, categories, month, clearHref }: FiltersProps) {
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
        href={clearHref}
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

/** The filters set, each a link to the same view without it; nothing when none is set. */
export function ActiveFilters({
  filters,
  hrefWithout,
}: {
  filters: CalendarFilters
  hrefWithout: (filters: CalendarFilters) => string
}) {
  const active = activeFilters(filters)
  if (active.length === 0) return null
  return (
    <ul aria-label="Active filters" className="mt-3 flex flex-wrap gap-2 text-sm">
      {active.map(({ label, without }) => (
        <li key={label}>
          <a
            href={hrefWithout(without)}
            className="inline-flex items-center gap-1.5 rounded-full border border-brand-100 bg-brand-50 px-3 py-1 font-medium text-brand-700 hover:bg-brand-100"
          >
            <span className="sr-only">Remove the filter </span>
            {label}
            <span aria-hidden="true">×</span>
          </a>
        </li>
      ))}
    </ul>
  )
}
