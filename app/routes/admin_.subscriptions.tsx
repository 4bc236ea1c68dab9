import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PRODUCT_NAME } from '#app/constants.ts'
import { FREQUENCY_LABELS } from '#app/models/subscriptions/subscription-rules.ts'
import { requireRole } from '#app/services/http/auth.server.ts'
import { subscriptionReport } from '#app/services/subscriptions/subscription-report.server.ts'

const TITLE = 'Subscriptions'

export const meta: MetaFunction = () => [{ title: `${TITLE} · ${PRODUCT_NAME}` }]

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  return data(await subscriptionReport(), { headers: { 'Cache-Control': 'no-store' } })
}

type Run = ReturnType<typeof useLoaderData<typeof loader>>['lastDigestRun']

function RunLine({ label, run }: { label: string; run: Run }) {
  return (
    <div>
      <dt className="font-medium">{label}</dt>
      <dd data-testid={`${label.toLowerCase().replace(/\s+/g, '-')}`}>
        {run
          ? `${run.startedAtText}: ${run.queued} email(s) queued for ${run.checked} subscription(s) in ${(run.durationMs / 1000).toFixed(1)} s`
          : 'Not run yet'}
      </dd>
    </div>
  )
}

/** Counts only: no list of addresses. */
export default function AdminSubscriptions() {
  const { counts, lastDigestRun, lastReminderRun } = useLoaderData<typeof loader>()
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold text-ink">{TITLE}</h1>
      <p className="mt-2 text-slate-600">
        Visitors’ confirmed email subscriptions, by frequency, and the last runs of the jobs that queue their
        emails in the{' '}
        <Link to="/admin/outbox" className="font-medium text-brand-700 underline">
          outbox
        </Link>
        .
      </p>
      <table className="mt-6 w-full text-left text-sm" data-testid="subscription-counts">
        <thead>
          <tr className="border-b border-slate-200">
            <th className="py-2 pr-3">Frequency</th>
            <th className="py-2">Confirmed subscriptions</th>
          </tr>
        </thead>
        <tbody>
          {(['weekly', 'daily', 'once'] as const).map((frequency) => (
            <tr key={frequency} className="border-b border-slate-100">
              <td className="py-2 pr-3">
                {frequency === 'once' ? 'Event reminders' : FREQUENCY_LABELS[frequency]}
              </td>
              <td className="py-2">{counts[frequency]}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="mt-6 grid gap-3 text-sm text-slate-800">
        <RunLine label="Last digest run" run={lastDigestRun} />
        <RunLine label="Last reminder run" run={lastReminderRun} />
      </dl>
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
