/** One ad on /admin/reports: its open reports, and the two decisions (dismiss them, or take the ad down). */
import { Form, Link } from '@remix-run/react'
import { secondaryButtonClass } from './account-ui.tsx'
import type { FormReply } from './checked-form.tsx'
import { otherMessages } from './form-messages.ts'
import { TakedownForm } from './takedown-form.tsx'

export interface ReportedAdItem {
  eventID: number
  eventTitle: string
  businessName: string
  hidden: boolean
  reports: { id: number; createdAt: string; reason: string; details: string }[]
}

/** One ad; `reply` is a refused decision on it: its reason's messages at the takedown form, the others above. */
export function ReportedAd({ ad, reply }: { ad: ReportedAdItem; reply?: FormReply | null }) {
  const headingId = `reported-${ad.eventID}`
  const refusal = otherMessages(reply, ['reason'])
  return (
    <li>
      <article
        aria-labelledby={headingId}
        data-testid="reported-ad"
        className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
      >
        <h2 id={headingId} className="text-xl font-bold break-words text-ink">
          {ad.eventTitle}
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          {ad.businessName} · event {ad.eventID} ·{' '}
          {ad.hidden ? <strong className="text-red-800">hidden from the public pages</strong> : 'still shown'}{' '}
          ·{' '}
          <Link to={`/admin/events/${ad.eventID}`} className="text-brand-700 underline">
            decisions so far
          </Link>{' '}
          ·{' '}
          <Link to={`/event/${ad.eventID}`} className="text-brand-700 underline">
            the ad
          </Link>
        </p>
        <h3 className="mt-4 text-sm font-semibold text-slate-700">
          {ad.reports.length} open report{ad.reports.length === 1 ? '' : 's'}
        </h3>
        <ul className="mt-2 grid gap-2 text-sm">
          {ad.reports.map((report) => (
            <li key={report.id} className="rounded-md bg-slate-50 px-3 py-2">
              <span className="font-medium">{report.reason}</span> ·{' '}
              <time dateTime={report.createdAt}>{report.createdAt.slice(0, 16).replace('T', ' ')} UTC</time>
              {report.details ? (
                <p className="mt-1 whitespace-pre-line wrap-anywhere">{report.details}</p>
              ) : null}
            </li>
          ))}
        </ul>
        {refusal ? (
          <p role="alert" className="mt-3 text-sm text-red-700">
            {refusal}
          </p>
        ) : null}
        <div className="mt-4 grid gap-3">
          <Form method="post" className="flex justify-end">
            <input type="hidden" name="eventID" value={ad.eventID} />
            <button type="submit" name="intent" value="dismiss" className={secondaryButtonClass}>
              Dismiss the reports
            </button>
          </Form>
          <TakedownForm id={`takedown-${ad.eventID}`} eventID={ad.eventID} reply={reply} />
        </div>
      </article>
    </li>
  )
}
