/** The moderation queue's health at the top of /admin: what waits, since when, how fast, and the open reports. */
import { Link } from '@remix-run/react'

export interface QueueHealthFigures {
  waiting: number
  checks: number
  oldestAge: string
  medianDecision: string
  openReports: number
  reportedAds: number
}

function Figure({ label, value, testId }: { label: string; value: string | number; testId: string }) {
  return (
    <div className="rounded-md border border-slate-200 bg-white px-4 py-3">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-ink" data-testid={testId}>
        {value}
      </dd>
    </div>
  )
}

export function QueueHealth({ health }: { health: QueueHealthFigures }) {
  return (
    <section aria-labelledby="queue-health" className="mt-6">
      <h2 id="queue-health" className="text-lg font-semibold text-ink">
        Queue health
      </h2>
      <dl className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Figure label="Ads waiting" value={health.waiting} testId="health-waiting" />
        <Figure label="Oldest waiting (since upload)" value={health.oldestAge} testId="health-oldest" />
        <Figure
          label="Median time to a decision (7 days)"
          value={health.medianDecision}
          testId="health-median"
        />
        <Figure label="Open reports" value={health.openReports} testId="health-reports" />
      </dl>
      {health.checks ? (
        <p className="mt-2 text-sm" data-testid="health-checks">
          <a href="#auto-approved-checks" className="font-medium text-brand-700 underline">
            {health.checks} of them auto-approved, waiting for a check
          </a>
        </p>
      ) : null}
      {health.openReports ? (
        <p className="mt-2 text-sm">
          <Link to="/admin/reports" className="font-medium text-brand-700 underline">
            {health.openReports} open report{health.openReports === 1 ? '' : 's'} on {health.reportedAds} ad
            {health.reportedAds === 1 ? '' : 's'}
          </Link>
        </p>
      ) : null}
    </section>
  )
}
