/**
 * Whether a live ad's event is still on: its advertiser (or an administrator) marks it Cancelled, Postponed or Sold
 * out without a review, with a short note for visitors. "Back on" (no status) is allowed from Postponed or Sold
 * out; Cancelled is final. Only a live ad (approved, paid, a date today or later) can change. No refund is made.
 */
import { isLive, type EventStatusFields } from '#app/models/ads/event-status.ts'

export const SCHEDULE_STATUSES = ['cancelled', 'postponed', 'sold_out'] as const
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number]

/** What the status form posts for "back on": no status. */
export const BACK_ON = 'on'
export type ScheduleChoice = ScheduleStatus | typeof BACK_ON

export const SCHEDULE_STATUS_LABELS: Record<ScheduleStatus, string> = {
  cancelled: 'Cancelled',
  postponed: 'Postponed',
  sold_out: 'Sold out',
}

export const SCHEDULE_NOTE_MAX = 140

export const SCHEDULE_NOTE_TOO_LONG_MESSAGE = `Keep the note to ${SCHEDULE_NOTE_MAX} characters or fewer`
export const UNKNOWN_SCHEDULE_STATUS_MESSAGE = 'Choose Cancelled, Postponed, Sold out or Back on'
export const NOT_LIVE_SCHEDULE_MESSAGE =
  'Only a live ad can be marked cancelled, postponed or sold out (this one is not live)'
export const CANCELLED_IS_FINAL_MESSAGE =
  'This ad is cancelled: a cancelled ad cannot be put back on or changed'
export const SAME_SCHEDULE_STATUS_MESSAGE = 'The ad already has this status'

/** A stored status as one of the statuses, or null (as advertised; also anything unknown). */
export function scheduleStatusOf(value: string | null | undefined): ScheduleStatus | null {
  return (SCHEDULE_STATUSES as readonly string[]).includes(value ?? '') ? (value as ScheduleStatus) : null
}

export function isScheduleChoice(value: unknown): value is ScheduleChoice {
  return value === BACK_ON || (SCHEDULE_STATUSES as readonly unknown[]).includes(value)
}

/** The event will not happen as advertised: it leaves the featured strip, loses "Add to calendar" and tickets. */
export function isOff(status: string | null | undefined): boolean {
  const known = scheduleStatusOf(status)
  return known === 'cancelled' || known === 'postponed'
}

/** Tickets cannot be bought: the tickets link is hidden. */
export function hidesTickets(status: string | null | undefined): boolean {
  return scheduleStatusOf(status) !== null
}

/** Why the ad cannot take this status now, or null when it can. */
export function scheduleChangeProblem(
  event: EventStatusFields & { scheduleStatus: string | null },
  next: ScheduleChoice,
  today: string,
): string | null {
  if (!isLive(event, today)) return NOT_LIVE_SCHEDULE_MESSAGE
  const current = scheduleStatusOf(event.scheduleStatus)
  if (current === 'cancelled') return CANCELLED_IS_FINAL_MESSAGE
  if ((current ?? BACK_ON) === next) return SAME_SCHEDULE_STATUS_MESSAGE
  return null
}

/** The choices the status form offers for an ad in this status (none once cancelled). */
export function scheduleChoices(current: string | null | undefined): ScheduleChoice[] {
  const status = scheduleStatusOf(current)
  if (status === 'cancelled') return []
  const all: ScheduleChoice[] = [...SCHEDULE_STATUSES, BACK_ON]
  return all.filter((choice) => choice !== (status ?? BACK_ON))
}

export const SCHEDULE_CHOICE_LABELS: Record<ScheduleChoice, string> = {
  ...SCHEDULE_STATUS_LABELS,
  [BACK_ON]: 'Back on',
}
