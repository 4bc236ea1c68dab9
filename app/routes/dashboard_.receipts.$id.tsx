import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import type { ReactNode } from 'react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { requireBusiness } from '#app/services/http/auth.server.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { businessReceipt } from '#app/services/payments/receipts.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Receipt ${data?.paymentID ?? ''} · ${PRODUCT_NAME}` },
]

/** The receipt is the business's own: never stored by a browser or shared cache. */
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders

/**
 * A plain page that prints as it shows (the site's header and footer are left off in print). Signed out → sign-in;
 * 404 for an id that is not a paid payment, 403 for another business's.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const business = await requireBusiness(request)
  try {
    return data(await businessReceipt(business.businessID, params.id), {
      headers: { 'Cache-Control': 'private, no-store' },
    })
  } catch (error) {
    throw errorResponse(error, { request })
  }
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[7rem_minmax(0,1fr)] gap-2 border-b border-slate-100 py-2 sm:grid-cols-[10rem_minmax(0,1fr)]">
      <dt className="font-medium text-slate-600">{label}</dt>
      <dd className="break-words text-ink">{children}</dd>
    </div>
  )
}

export default function ReceiptPage() {
  const receipt = useLoaderData<typeof loader>()
  return (
    <main className="receipt mx-auto max-w-2xl px-4 py-10 break-words">
      <p className="print:hidden">
        <Link to="/dashboard" className="text-brand-700 underline">
          ← Dashboard
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold text-ink">Receipt</h1>
      <p className="mt-1 text-slate-600">
        {PRODUCT_NAME} · Payment {receipt.paymentID}
      </p>
      <section className="mt-6" aria-label="Billed to">
        <p className="font-semibold">{receipt.business.name}</p>
        {receipt.business.address.map((line) => (
          <p key={line}>{line}</p>
        ))}
        <p>{receipt.business.email}</p>
      </section>
      <dl className="mt-6" data-testid="receipt">
        <Row label="Ad">{receipt.ad.title}</Row>
        {receipt.sponsoredDays ? (
          <Row label="Sponsored placement">{receipt.sponsoredDays}</Row>
        ) : (
          <Row label="Display dates">{receipt.ad.dates}</Row>
        )}
        {receipt.promo ? (
          <>
            <Row label="List price">
              {receipt.promo.listPrice} {receipt.currency}
            </Row>
            <Row label="Discount">
              −{receipt.promo.discount} {receipt.currency} (promo code {receipt.promo.code})
            </Row>
          </>
        ) : null}
        <Row label="Amount">
          {receipt.amount} {receipt.currency}
        </Row>
        <Row label="Card">{receipt.card}</Row>
        <Row label="Payment ID">{receipt.paymentID}</Row>
        {receipt.providerReference ? <Row label="Reference">{receipt.providerReference}</Row> : null}
        <Row label="Paid">{receipt.paidAt ?? '—'}</Row>
        <Row label="Refunds">
          {receipt.refund
            ? `${receipt.refund.amount} refunded${receipt.refund.full ? ' in full' : ''}${receipt.refund.at ? ` on ${receipt.refund.at}` : ''}${receipt.refund.reason ? ` — ${receipt.refund.reason}` : ''}`
            : 'None'}
        </Row>
      </dl>
      {receipt.providerReceiptUrl ? (
        <p className="mt-6 print:hidden">
          <a
            href={receipt.providerReceiptUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="text-brand-700 underline"
          >
            The card processor's receipt (Stripe)
          </a>
        </p>
      ) : null}
      <p className="mt-6 text-sm text-slate-500 print:hidden">
        Use your browser's Print command to print or save this receipt.
      </p>
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
