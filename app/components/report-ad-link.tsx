/** The way from an ad's public page to "Report this ad" (its own page, so the ad's page loads no form code). */
import { Link } from '@remix-run/react'

export function ReportAdLink({ eventID }: { eventID: number }) {
  return (
    <p className="mt-6 text-right text-sm">
      <Link
        to={`/event/${eventID}/report`}
        className="text-slate-600 underline hover:text-slate-900"
        rel="nofollow"
      >
        Report this ad
      </Link>
    </p>
  )
}
