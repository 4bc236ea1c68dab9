import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { requireRole } from '#app/services/accounts/auth.server.ts'
import { platformToday } from '#app/services/platform/platform-today.server.ts'
import { addDaysIso } from '#app/utils/time.ts'

const AUDIT_TITLE = 'Moderation audit'

export const meta: MetaFunction = () => [{ title: `${AUDIT_TITLE} · ${PRODUCT_NAME}` }]

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  const today = platformToday()
  return data({ from: addDaysIso(today, -30), to: today }, { headers: { 'Cache-Control': 'no-store' } })
}

const input = 'mt-1 rounded-md border border-slate-300 px-3 py-2'

/** The download of the decisions of a date range (a plain GET form: no JavaScript needed). */
export default function ModerationAudit() {
  const { from, to } = useLoaderData<typeof loader>()
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold text-ink">{AUDIT_TITLE}</h1>
      <p className="mt-2 text-slate-600">
        Every moderation decision (approvals, auto-approvals, requests for changes, rejections, takedowns, trust
        granted or revoked, reports dismissed) with who took it, when and why. The trail cannot be changed. An
        ad&apos;s own decisions are on its page from the{' '}
        <Link to="/admin" className="font-medium text-brand-700 underline">
          moderation queue
        </Link>
        .
      </p>
      <form method="get" action="/admin/audit.csv" className="mt-6 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="audit-from" className="block text-sm font-medium text-slate-800">
            From
          </label>
          <input id="audit-from" name="from" type="date" defaultValue={from} required className={input} />
        </div>
        <div>
          <label htmlFor="audit-to" className="block text-sm font-medium text-slate-800">
            To
          </label>
          <input id="audit-to" name="to" type="date" defaultValue={to} required className={input} />
        </div>
        <button
          type="submit"
          className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
        >
          Download CSV
        </button>
      </form>
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
