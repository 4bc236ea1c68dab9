/** The "Auto-approved — check" list on /admin: sampled ads of trusted businesses, live, waiting for a look. */
import { Form, Link } from '@remix-run/react'
import { primaryButtonClass } from './account-ui.tsx'
import { TakedownForm } from './takedown-form.tsx'

export const AUTO_APPROVED_CHECK_HEADING = 'Auto-approved — check'

export interface AutoApprovalCheckItem {
  eventID: number
  eventTitle: string
  businessName: string
  live: boolean
  approvedAt: string
}

function CheckItem({ ad }: { ad: AutoApprovalCheckItem }) {
  return (
    <li data-testid="auto-approved-check" className="rounded-md border border-slate-200 bg-white p-4">
      <p className="font-semibold break-words text-ink">{ad.eventTitle}</p>
      <p className="mt-1 text-sm text-slate-600">
        {ad.businessName} · event {ad.eventID} · auto-approved{' '}
        <time dateTime={ad.approvedAt}>{ad.approvedAt.slice(0, 16).replace('T', ' ')} UTC</time> ·{' '}
        {ad.live ? 'live' : <strong className="text-red-800">hidden by reports</strong>} ·{' '}
        <Link to={`/event/${ad.eventID}`} className="text-brand-700 underline">
          the ad
        </Link>{' '}
        ·{' '}
        <Link to={`/admin/events/${ad.eventID}`} className="text-brand-700 underline">
          decisions so far
        </Link>
      </p>
      <div className="mt-3 grid gap-3">
        <Form method="post" action="/admin/checks" className="flex justify-end">
          <input type="hidden" name="eventID" value={ad.eventID} />
          <button type="submit" name="intent" value="confirm" className={primaryButtonClass}>
            Confirm “{ad.eventTitle}”
          </button>
        </Form>
        <TakedownForm id={`check-takedown-${ad.eventID}`} eventID={ad.eventID} action="/admin/checks" />
      </div>
    </li>
  )
}

export function AutoApprovalChecks({ ads, total }: { ads: AutoApprovalCheckItem[]; total: number }) {
  if (total === 0) return null
  return (
    <section id="auto-approved-checks" aria-labelledby="auto-approved-checks-heading" className="mt-8">
      <h2 id="auto-approved-checks-heading" className="text-lg font-semibold text-ink">
        {AUTO_APPROVED_CHECK_HEADING} ({total})
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        A sample of the trusted businesses’ ads: already live, to be confirmed or taken down.
      </p>
      <ul aria-label={AUTO_APPROVED_CHECK_HEADING} className="mt-3 grid gap-3">
        {ads.map((ad) => (
          <CheckItem key={ad.eventID} ad={ad} />
        ))}
      </ul>
    </section>
  )
}
