import '#app/zod-config.ts'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PriceListForm } from '#app/components/price-list-form.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { priceListFormSchema } from '#app/models/payments/price-list-schema.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
import {
  fieldsTooLongToEcho,
  formRefusal,
  parseFormSubmission,
} from '#app/services/http/form-submission.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { readFormData } from '#app/services/http/request-body.server.ts'
import { redirectWithToast } from '#app/services/http/toast.server.ts'
import { changePrices, pricingPage } from '#app/services/payments/pricing.server.ts'
import { formatDollars } from '#app/utils/pricing.ts'

const PRICING_TITLE = 'Prices'
/** A value this long is not sent back with the refusal (no price field needs more). */
const ECHO_MAX = 600

export const meta: MetaFunction = () => [{ title: `${PRICING_TITLE} · ${PRODUCT_NAME}` }]

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  return data(await pricingPage(), { headers: { 'Cache-Control': 'no-store' } })
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const form = await readFormData(request).catch((error: unknown) => {
    throw errorResponse(error, { request })
  })
  const submission = parseFormSubmission(form, priceListFormSchema)
  if (submission.status !== 'success') {
    return formRefusal(submission.reply({ hideFields: fieldsTooLongToEcho(form, ECHO_MAX) }))
  }
  try {
    return redirectWithToast('/admin/pricing', await changePrices(submission.value, admin.id))
  } catch (error) {
    return errorResponse(error, {
      request,
      reply: (refusal) => ({
        result: submission.reply({ formErrors: [refusal.message], fieldErrors: refusal.fieldErrors }),
      }),
    })
  }
}

export default function AdminPricing() {
  const page = useLoaderData<typeof loader>()
  const refused = useActionData<typeof action>()
  return (
    <main className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-3xl font-bold text-ink">{PRICING_TITLE}</h1>
      <p className="mt-2 text-slate-600">
        What an ad costs by its number of display days (a category may have prices of its own), and the
        sponsored placement's surcharge. New prices apply at once to every ad not yet paid; a paid ad keeps
        the price it was paid.{' '}
        <Link to="/admin" className="font-medium text-brand-700 underline">
          Back to moderation
        </Link>
      </p>

      <h2 className="mt-8 text-xl font-semibold text-ink">Current prices</h2>
      <table className="mt-2 w-full text-left text-sm" data-testid="current-prices">
        <thead>
          <tr className="border-b border-slate-200">
            <th className="py-2 pr-3">Display days</th>
            <th className="py-2">Price</th>
          </tr>
        </thead>
        <tbody>
          {page.table.map((row) => (
            <tr key={row.label} className="border-b border-slate-100">
              <td className="py-2 pr-3">{row.label}</td>
              <td className="py-2">${formatDollars(row.cents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-sm text-slate-700" data-testid="category-prices">
        {page.priceRows.some((row) => row.own)
          ? `Priced apart (an ad in several categories pays the highest of their prices): ${page.priceRows
              .filter((row) => row.own)
              .map((row) => `${row.name}: ${row.own}`)
              .join('; ')}.`
          : 'Every category has the prices above.'}
      </p>
      <p className="mt-2 text-sm text-slate-700">
        Sponsored surcharge: ${formatDollars(page.sponsoredCentsPerDay)} a day, in up to {page.sponsoredSlots}{' '}
        slots.
      </p>
      <p className="mt-2 text-sm text-slate-700" data-testid="free-listings">
        {page.freeRows.some((row) => row.free)
          ? `Free listings: ${page.freeRows
              .filter((row) => row.free)
              .map((row) => `${row.name} (${row.free})`)
              .join('; ')}.`
          : 'No category is listed free.'}
      </p>

      <h2 className="mt-8 text-xl font-semibold text-ink">Change the prices</h2>
      <PriceListForm
        values={page.formValues}
        reply={refused?.result ?? null}
        freeRows={page.freeRows}
        priceRows={page.priceRows}
      />

      <h2 className="mt-10 text-xl font-semibold text-ink">History</h2>
      <table className="mt-2 w-full text-left text-sm" data-testid="price-history">
        <thead>
          <tr className="border-b border-slate-200">
            <th className="py-2 pr-3">When</th>
            <th className="py-2 pr-3">Who</th>
            <th className="py-2">What changed</th>
          </tr>
        </thead>
        <tbody>
          {page.history.map((entry) => (
            <tr key={entry.id} className="border-b border-slate-100 align-top">
              <td className="py-2 pr-3">
                <time dateTime={entry.at}>{entry.at.slice(0, 16).replace('T', ' ')} UTC</time>
              </td>
              <td className="py-2 pr-3">{entry.by || '—'}</td>
              <td className="py-2">
                <ul>
                  {entry.changes.length ? (
                    entry.changes.map((change) => <li key={change}>{change}</li>)
                  ) : (
                    <li>Nothing changed</li>
                  )}
                  {entry.note ? <li className="text-slate-600">Note: {entry.note}</li> : null}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
