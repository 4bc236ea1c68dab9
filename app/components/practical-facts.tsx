import { hidesTickets, SCHEDULE_STATUS_LABELS } from '#app/models/ads/schedule-status.ts'
import {
  ACCESSIBILITY_LABELS,
  AGE_LABELS,
  ATTENDANCE_LABELS,
  isHttpsUrl,
  priceLabel,
  venueLine,
  type PracticalFacts,
} from '#app/models/ads/practical-facts.ts'
import { creditedHref, UNCREDITED_LINKS, type OutboundLinks } from '#app/models/ads/outbound-links.ts'

const safeUrl = (value: string) => (isHttpsUrl(value) ? value : null)

/**
 * An ad's practical facts on its card (preview, event page, `/public`, review): tickets and price, where, the link
 * to join (on the event page only, `joinLink`), accessibility and age. Nothing is drawn when none is said.
 */
export function PracticalFactsList({
  facts,
  joinLink = false,
  scheduleStatus = null,
  outbound = UNCREDITED_LINKS,
}: {
  facts: PracticalFacts
  joinLink?: boolean
  /** Any status hides the tickets link; Sold out says so in its place. */
  scheduleStatus?: string | null
  /** The credit and `rel` of the ticket and join links. */
  outbound?: OutboundLinks
}) {
  const linkTo = (url: string | null) => (url ? creditedHref(url, outbound.credit) : null)
  const tickets = hidesTickets(scheduleStatus) ? null : linkTo(safeUrl(facts.ticketUrl))
  const soldOut = scheduleStatus === 'sold_out' ? SCHEDULE_STATUS_LABELS.sold_out : null
  const join = joinLink ? linkTo(safeUrl(facts.onlineUrl)) : null
  const price = priceLabel(facts.priceCents)
  const place = venueLine(facts)
  const rows: Array<[string, React.ReactNode]> = []
  if (price || tickets || soldOut)
    rows.push([
      'Tickets',
      <>
        {[price, soldOut].filter(Boolean).join(' · ')}
        {(price || soldOut) && tickets ? ' · ' : null}
        {tickets ? (
          <a href={tickets} target="_blank" rel={outbound.rel} className="text-brand-700 underline">
            Tickets
          </a>
        ) : null}
      </>,
    ])
  if (facts.attendanceMode !== 'in_person' || place)
    rows.push([
      'Where',
      <>
        {facts.attendanceMode === 'in_person' ? 'In person' : ATTENDANCE_LABELS[facts.attendanceMode]}
        {place ? ` · ${place}` : null}
        {join ? (
          <>
            {' · '}
            <a href={join} target="_blank" rel={outbound.rel} className="text-brand-700 underline">
              Join online
            </a>
          </>
        ) : null}
      </>,
    ])
  const access = facts.accessibilityFeatures.map((feature) => ACCESSIBILITY_LABELS[feature])
  if (access.length > 0 || facts.accessibilityNote || facts.accessibilityContact)
    rows.push([
      'Accessibility',
      [
        access.join(', '),
        facts.accessibilityNote,
        facts.accessibilityContact ? `Access questions: ${facts.accessibilityContact}` : '',
      ]
        .filter(Boolean)
        .join(' · '),
    ])
  if (facts.ageRange) rows.push(['Age', AGE_LABELS[facts.ageRange]])
  if (rows.length === 0) return null
  return (
    <dl className="mt-3 grid gap-1 text-sm text-slate-700" aria-label="Practical facts">
      {rows.map(([term, detail]) => (
        <div key={term} className="flex flex-wrap gap-x-2">
          <dt className="font-semibold text-slate-800">{term}:</dt>
          <dd className="break-words">{detail}</dd>
        </div>
      ))}
    </dl>
  )
}

/** The few facts a small card has room for: price, online, step-free access. */
export function PracticalFactBadges({
  facts,
}: {
  facts: Pick<PracticalFacts, 'priceCents' | 'attendanceMode' | 'accessibilityFeatures'>
}) {
  const badges = [
    priceLabel(facts.priceCents),
    facts.attendanceMode === 'in_person' ? '' : ATTENDANCE_LABELS[facts.attendanceMode],
    facts.accessibilityFeatures.includes('step_free') ? ACCESSIBILITY_LABELS.step_free : '',
  ].filter(Boolean)
  if (badges.length === 0) return null
  return (
    <ul className="mt-1 flex flex-wrap gap-1 text-xs" aria-label="Practical facts">
      {badges.map((badge) => (
        <li key={badge} className="rounded-full bg-slate-100 px-2 py-0.5 text-slate-700">
          {badge}
        </li>
      ))}
    </ul>
  )
}
