import type { MetaFunction } from '@remix-run/node'
import { Link } from '@remix-run/react'
import { PRODUCT_NAME } from '#app/constants.ts'

export const meta: MetaFunction = () => [
  { title: `Advertising terms · ${PRODUCT_NAME}` },
  { name: 'description', content: `How ${PRODUCT_NAME} reviews ads, handles reports and refunds.` },
]

/** The advertising terms: review, trusted advertisers, visitors' reports, takedowns and refunds. */
export default function Terms() {
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold text-ink">Advertising terms</h1>
      <section aria-labelledby="terms-review" className="mt-6 space-y-3 text-slate-700">
        <h2 id="terms-review" className="text-xl font-semibold text-ink">
          Review
        </h2>
        <p>
          Every paid ad is reviewed by an administrator before it goes live. An ad that is not approved is refunded
          in full; one sent back for changes keeps its payment and can be fixed and resubmitted.
        </p>
        <p>
          A business whose ads have been approved several times, with no rejection, takedown or upheld report in the
          last 90 days, is trusted: its new paid ads go live at payment, its edits of live ads as soon as they are sent, and some
          are still checked afterwards. The checkout, and the edit page of a live ad, say beforehand whether it goes
          live at once or after review.
        </p>
      </section>
      <section aria-labelledby="terms-reports" className="mt-6 space-y-3 text-slate-700">
        <h2 id="terms-reports" className="text-xl font-semibold text-ink">
          Reports and takedowns
        </h2>
        <p>
          Visitors can report an ad that is misleading, offensive, spam or shows the wrong date or place. An ad that
          several visitors report is hidden until an administrator looks at it; if the reports are dismissed it is
          shown again.
        </p>
        <p id="takedown-refunds">
          <strong>A takedown is not refunded.</strong> An administrator may take down a live ad that breaks these
          terms (for example, a misleading or offensive ad, or an event that does not exist). The ad leaves the
          public pages, you are told why by email and on your dashboard, and the payment is kept: the ad was
          approved and shown as paid for until it was found to break the terms.
        </p>
        <p id="schedule-status-refunds">
          <strong>Marking an ad cancelled, postponed or sold out does not refund it.</strong> You may mark
          your live ad Cancelled, Postponed or Sold out from its page on your dashboard, with a short note for
          visitors; it stays on the calendar, labelled, until its last date, and people who asked to be
          reminded of it are told.
        </p>
      </section>
      <p className="mt-8">
        <Link to="/create-account" className="font-medium text-brand-700 underline">
          Advertise with us
        </Link>
      </p>
    </main>
  )
}
