import { SCHEDULE_STATUS_LABELS, scheduleStatusOf, type ScheduleStatus } from '#app/models/ads/schedule-status.ts'

/** Dark text on a pale shade of the same hue, with a border: readable (over 7:1) and never colour alone. */
const BADGE_CLASSES: Record<ScheduleStatus, string> = {
  cancelled: 'border-red-300 bg-red-50 text-red-900',
  postponed: 'border-amber-300 bg-amber-50 text-amber-900',
  sold_out: 'border-slate-300 bg-slate-100 text-slate-900',
}

/** "Cancelled", "Postponed" or "Sold out" as a small label; nothing for an event that is on as advertised. */
export function ScheduleStatusBadge({
  status,
  className = '',
}: {
  status: string | null | undefined
  className?: string
}) {
  const known = scheduleStatusOf(status)
  if (!known) return null
  return (
    <span
      data-testid="schedule-status"
      data-status={known}
      className={`inline-block rounded-full border px-2 py-0.5 text-xs font-bold tracking-wide uppercase ${BADGE_CLASSES[known]} ${className}`}
    >
      {SCHEDULE_STATUS_LABELS[known]}
    </span>
  )
}

const BANNER_CLASSES: Record<ScheduleStatus, string> = {
  cancelled: 'border-red-300 bg-red-50 text-red-900',
  postponed: 'border-amber-300 bg-amber-50 text-amber-900',
  sold_out: 'border-slate-300 bg-slate-50 text-slate-900',
}

/** "This event is cancelled." and the advertiser's note ("Moved to the gym"). */
export function scheduleBannerText(status: ScheduleStatus, note: string) {
  const said = `This event is ${SCHEDULE_STATUS_LABELS[status].toLowerCase()}.`
  return note.trim() ? `${said} ${note.trim()}` : said
}

/** The event page's notice above the card when the event is off or sold out. */
export function ScheduleBanner({ status, note }: { status: string | null | undefined; note: string }) {
  const known = scheduleStatusOf(status)
  if (!known) return null
  return (
    <p
      role="status"
      data-testid="schedule-banner"
      className={`mb-4 rounded-md border-2 px-4 py-3 font-semibold break-words ${BANNER_CLASSES[known]}`}
    >
      {scheduleBannerText(known, note)}
    </p>
  )
}
