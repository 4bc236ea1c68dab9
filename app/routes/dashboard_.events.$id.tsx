import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { AnalyticsChart } from '#app/components/analytics-chart.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { ScheduleStatusForm } from '#app/components/schedule-status-form.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { clickThroughRate } from '#app/models/analytics/analytics-range.ts'
import { adPageData } from '#app/services/analytics/analytics.server.ts'
import { requireBusiness } from '#app/services/http/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'

/** Plain HTML: the range is a GET form, the chart an SVG drawn on the server. */
export const handle = { hydrate: false }

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? data.eventTitle : 'Ad'} · Analytics · ${PRODUCT_NAME}` },
]

/** GET /dashboard/events/{id}?from=&to=: the ad's page for its owner; 404 for no such ad, 403 for another's. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const business = await requireBusiness(request)
  try {
    return await adPageData(business, params.id, new URL(request.url).searchParams)
  } catch (error) {
    throw errorResponse(error, { request })
  }
}

/** Visits through the ad's QR code (its page and the print listings): a source of their own, not among the clicks. */
export const QR_SCANS_LABEL = 'QR code scans'

const buttonClasses =
  'rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50'

export default function AdPage() {
  const ad = useLoaderData<typeof loader>()
  const query = new URLSearchParams(ad.range).toString()
  return (
    <main className="mx-auto max-w-5xl px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold break-words text-ink">{ad.eventTitle}</h1>
        <Link to="/dashboard" className={buttonClasses}>
          Back to dashboard
        </Link>
      </div>
      <p className="mt-2 text-slate-700">
        Status: <strong data-testid="ad-status">{ad.statusLabel}</strong>
      </p>
      {ad.reviewReason ? (
        <p data-testid="review-reason" className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-slate-800">
          <span className="font-semibold">Reviewer:</span> {ad.reviewReason}
        </p>
      ) : null}
      <div className="mt-4 flex flex-wrap gap-3">
        <Link to={`/event/${ad.eventID}?viewMode=true`} className={buttonClasses}>
          View the ad
        </Link>
        {ad.editHref ? (
          <Link to={ad.editHref} className={buttonClasses}>
            Edit Event
          </Link>
        ) : null}
        {ad.receiptHref ? (
          <a href={ad.receiptHref} className={buttonClasses}>
            Receipt
          </a>
        ) : null}
        {ad.runAgainHref ? (
          // A new unpaid ad from this one (the dashboard's cards have the same button).
          <form method="post" action={ad.runAgainHref}>
            <button type="submit" className={buttonClasses}>
              Run again<span className="sr-only"> {ad.eventTitle}</span>
            </button>
          </form>
        ) : null}
        {ad.sponsorshipReceipts.map((receipt) => (
          <a key={receipt.href} href={receipt.href} className={buttonClasses}>
            Sponsorship receipt (${receipt.total})
          </a>
        ))}
      </div>

      {ad.sponsorOffer ? (
        <section
          aria-labelledby="sponsor-heading"
          className="mt-6 rounded-lg border border-amber-300 bg-amber-50 p-4"
        >
          <h2 id="sponsor-heading" className="text-lg font-semibold text-ink">
            Sponsored placement
          </h2>
          <p className="mt-1 text-slate-800">
            Show this ad in the “Sponsored” slots at the top of the calendar on its {ad.sponsorOffer.days}{' '}
            display day{ad.sponsorOffer.days === 1 ? '' : 's'} left, for ${ad.sponsorOffer.total}.
          </p>
          <a href={ad.sponsorOffer.href} className={`${buttonClasses} mt-3 inline-block`}>
            Make it sponsored
          </a>
        </section>
      ) : null}

      {ad.schedule.live ? (
        <ScheduleStatusForm
          action={`/dashboard/events/${ad.eventID}/status`}
          status={ad.schedule.status}
          note={ad.schedule.note}
        />
      ) : null}

      <section aria-labelledby="timeline-heading" className="mt-8">
        <h2 id="timeline-heading" className="text-xl font-bold text-ink">
          History
        </h2>
        <ol className="mt-3 grid gap-2 sm:grid-cols-3 lg:grid-cols-6" data-testid="ad-timeline">
          {ad.timeline.map((step, index) => (
            <li
              key={`${index}-${step.label}`}
              className={`rounded-md px-3 py-2 text-sm ${step.date ? 'bg-brand-50 text-ink' : 'bg-slate-50 text-slate-500'}`}
            >
              <span className="block font-semibold">{step.label}</span>
              {step.date ?? 'not yet'}
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="figures-heading" className="mt-8">
        <h2 id="figures-heading" className="text-xl font-bold text-ink">
          Views, clicks and bounces
        </h2>
        <Form method="get" className="mt-3 flex flex-wrap items-end gap-3">
          <label className="text-sm text-slate-700">
            From
            <input
              type="date"
              name="from"
              defaultValue={ad.range.from}
              className="ml-2 rounded border px-2 py-1 focus:outline-2 focus:outline-offset-1 focus:outline-brand-600"
            />
          </label>
          <label className="text-sm text-slate-700">
            To
            <input
              type="date"
              name="to"
              defaultValue={ad.range.to}
              className="ml-2 rounded border px-2 py-1 focus:outline-2 focus:outline-offset-1 focus:outline-brand-600"
            />
          </label>
          <button type="submit" className={buttonClasses}>
            Show
          </button>
          <a
            href={`/dashboard/events/${ad.eventID}/analytics.csv?${query}`}
            className={buttonClasses}
            download
          >
            Download CSV
          </a>
        </Form>
        <dl className="mt-4 grid grid-cols-2 gap-2 text-sm sm:grid-cols-4" data-testid="ad-totals">
          {(
            [
              ['Views', ad.totals.views],
              ['Clicks', ad.totals.clicks],
              ['Bounces', ad.totals.bounces],
              ['Click-through rate', ad.totals.clickThroughRate],
              ...(ad.sponsored
                ? ([
                    ['Views in Sponsored slots', ad.totals.slotViews],
                    ['Clicks from Sponsored slots', ad.totals.slotClicks],
                  ] as const)
                : []),
              [QR_SCANS_LABEL, ad.totals.scans],
            ] as const
          ).map(([label, value]) => (
            <div key={label} className="rounded-md bg-slate-50 px-3 py-2">
              <dt className="text-slate-600">{label}</dt>
              <dd className="text-lg font-bold text-ink">{value}</dd>
            </div>
          ))}
        </dl>
        <div className="mt-4">
          <AnalyticsChart days={ad.days} title={`Views and clicks per day for ${ad.eventTitle}`} />
          <p className="mt-1 text-sm text-slate-600">
            <span className="text-blue-600">■</span> views <span className="ml-3 text-amber-500">■</span>{' '}
            clicks
          </p>
        </div>
        <details className="mt-4">
          <summary className="cursor-pointer text-sm font-medium text-brand-700">The figures per day</summary>
          <table className="mt-2 w-full text-left text-sm" data-testid="ad-figures">
            <caption className="sr-only">
              Views, clicks, bounces, click-through rate and QR code scans per day
            </caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Views</th>
                <th scope="col">Clicks</th>
                <th scope="col">Bounces</th>
                <th scope="col">Click-through rate</th>
                {ad.sponsored ? (
                  <>
                    <th scope="col">Views in Sponsored slots</th>
                    <th scope="col">Clicks from Sponsored slots</th>
                  </>
                ) : null}
                <th scope="col">{QR_SCANS_LABEL}</th>
              </tr>
            </thead>
            <tbody>
              {ad.days.map((d) => (
                <tr key={d.date}>
                  <th scope="row">{d.date}</th>
                  <td>{d.views}</td>
                  <td>{d.clicks}</td>
                  <td>{d.bounces}</td>
                  <td>{clickThroughRate(d)}</td>
                  {ad.sponsored ? (
                    <>
                      <td>{d.slotViews}</td>
                      <td>{d.slotClicks}</td>
                    </>
                  ) : null}
                  <td>{d.scans}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </section>
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
