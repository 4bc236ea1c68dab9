/**
 * A live ad's schedule status (Cancelled, Postponed, Sold out, or back on), set by its advertiser or an administrator
 * without a review. The change, its line in the moderation audit and the emails to the ad's confirmed "Remind me"
 * subscribers are one transaction: all of them happen, or none.
 */
import {
  scheduleChangeProblem,
  BACK_ON,
  UNKNOWN_SCHEDULE_STATUS_MESSAGE,
  NOT_LIVE_SCHEDULE_MESSAGE,
  SCHEDULE_CHOICE_LABELS,
  scheduleStatusOf,
  type ScheduleChoice,
} from '#app/models/ads/schedule-status.ts'
import {
  scheduleStateOf,
  setScheduleStatus,
  type ScheduleState,
} from '#app/models/ads/schedule-status.server.ts'
import {
  currentDates,
  NEW_DATES_NEED_POSTPONED_MESSAGE,
  newDatesLimit,
  rescheduledDates,
  type NewDates,
} from '#app/models/ads/new-dates.ts'
import { hasOwnDate } from '#app/models/ads/event-dates.ts'
import { scheduleStatusFormSchema } from '#app/models/ads/schedule-status-schema.ts'
import { z } from 'zod'
import { eventPageUrl } from '#app/models/ads/event-address.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import { enqueueMessages } from '#app/models/mail/outbox.server.ts'
import { recordModerationDecision, type AuditAction } from '#app/models/moderation/moderation-audit.server.ts'
import { confirmedRemindersOf } from '#app/models/subscriptions/subscription-matches.server.ts'
import {
  scheduleChangeMail,
  unsubscribeHeaders,
  type ScheduleChangeNews,
} from '#app/models/subscriptions/subscription-mail.ts'
import { AppError } from '#app/utils/app-error.ts'
import { db } from '#db/client.server.ts'
import type { BusinessSessionCopy, SessionUser } from '../http/auth.server.ts'
import { linkOrigin } from '../http/site-url.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import { subscriberLinks } from '../subscriptions/subscriber-links.server.ts'

export const SCHEDULE_AD_NOT_FOUND_MESSAGE = 'No ad with this id'
export const SCHEDULE_AD_NOT_YOURS_MESSAGE = 'That ad belongs to another business.'
export const SCHEDULE_CHANGED_MEANWHILE_MESSAGE =
  'The ad changed while you were choosing: look at its status again before changing it.'

/** Who changes the status: the ad's advertiser, or an administrator. */
export type ScheduleActor =
  { kind: 'business'; business: BusinessSessionCopy } | { kind: 'admin'; user: SessionUser }

const AUDIT_ACTION_OF: Record<ScheduleChoice, AuditAction> = {
  cancelled: 'status_cancelled',
  postponed: 'status_postponed',
  sold_out: 'status_sold_out',
  [BACK_ON]: 'status_back_on',
}

/** The ad `idParam` as the actor may change it: not_found for none, forbidden for another business's. */
async function reachableAd(actor: ScheduleActor, idParam: unknown) {
  const eventID = parseId(idParam)
  const ad = eventID === null ? null : await scheduleStateOf(db, eventID)
  if (!ad) throw new AppError(SCHEDULE_AD_NOT_FOUND_MESSAGE, 'not_found')
  if (actor.kind === 'business' && ad.businessID !== actor.business.businessID)
    throw new AppError(SCHEDULE_AD_NOT_YOURS_MESSAGE, 'forbidden')
  return ad
}

/** What the reminders' subscribers are told of a change, if anything (nothing for Sold out, or back from it). */
function newsOf(from: string | null, to: ScheduleChoice): ScheduleChangeNews | null {
  if (to === 'cancelled' || to === 'postponed') return to
  if (to === BACK_ON && scheduleStatusOf(from) === 'postponed') return 'back_on'
  return null
}

/** The toast after a change. */
export function scheduleChangeToast(choice: ScheduleChoice, told: number, newDates = false) {
  const title =
    choice === BACK_ON
      ? newDates
        ? 'Your ad is back on, with its new dates'
        : 'Your ad is back on'
      : `Marked ${SCHEDULE_CHOICE_LABELS[choice].toLowerCase()}`
  return {
    title,
    description:
      told > 0
        ? `${told} ${told === 1 ? 'person who asked' : 'people who asked'} to be reminded will get an email.`
        : 'The ad shows its new status now.',
  }
}

/** The new dates' fields as posted: the non-empty strings among them. */
function postedDates(value: unknown): string[] {
  return [value ?? []].flat().filter((date): date is string => typeof date === 'string' && date.trim() !== '')
}

/**
 * The dates a postponed ad gets with "Back on" (`posted`, new-dates.ts), or null for none; read only with "Back on"
 * on a postponed ad, refused on an ad that is not postponed.
 */
function newDatesOf(
  ad: ScheduleState,
  chosen: ScheduleChoice,
  posted: string[],
  today: string,
): NewDates | null {
  if (posted.length === 0) return null
  const postponed = scheduleStatusOf(ad.scheduleStatus) === 'postponed'
  if (!postponed) throw newDatesRefusal(NEW_DATES_NEED_POSTPONED_MESSAGE)
  if (chosen !== BACK_ON) return null
  const outcome = rescheduledDates(ad, posted, today)
  if ('problem' in outcome) throw newDatesRefusal(outcome.problem)
  return outcome.newDates
}

function newDatesRefusal(message: string) {
  return new AppError(message, 'invalid', { fieldErrors: { newDates: [message] } })
}

/**
 * Sets the ad's status (`choice`: a status, or `on` for back on) with an optional note for visitors; a postponed ad
 * back on may get `newDates` (yyyy-mm-dd each), its next date before them kept for search engines. Refusals, after
 * which nothing has changed: not_found (no such ad), forbidden (another business's), invalid (an unknown choice, a
 * note over the limit, an ad that is not live, back on after Cancelled, the status it has, new dates it cannot
 * have), conflict (another change was made meanwhile). Returns how many reminder subscribers were emailed, and the
 * toast saying so.
 */
export async function changeScheduleStatus({
  actor,
  eventID: idParam,
  choice,
  note: rawNote,
  newDates: rawNewDates,
}: {
  actor: ScheduleActor
  eventID: unknown
  choice: unknown
  note?: unknown
  newDates?: unknown
}) {
  const ad = await reachableAd(actor, idParam)
  // The form's own rules (the browser checks the same): a known choice, a note within its limit and without NUL.
  const parsed = scheduleStatusFormSchema.safeParse({
    status: choice ?? undefined,
    note: rawNote ?? undefined,
  })
  if (!parsed.success) {
    const fieldErrors = z.flattenError(parsed.error).fieldErrors as Record<string, string[]>
    const message = Object.values(fieldErrors).flat()[0] ?? UNKNOWN_SCHEDULE_STATUS_MESSAGE
    throw new AppError(message, 'invalid', { fieldErrors })
  }
  const { status: chosen } = parsed.data
  const note = parsed.data.note ?? ''
  const today = platformToday()
  const problem = scheduleChangeProblem(ad, chosen, today)
  if (problem) throw new AppError(problem, 'invalid')
  const newDates = newDatesOf(ad, chosen, postedDates(rawNewDates), today)
  const origin = linkOrigin()
  const news = newsOf(ad.scheduleStatus, chosen)
  const told = await db.transaction(async (tx) => {
    const changed = await setScheduleStatus(tx, {
      eventID: ad.eventID,
      from: ad.scheduleStatus,
      to: chosen === BACK_ON ? null : chosen,
      note,
      today,
      newDates,
    })
    if (!changed) throw new AppError(SCHEDULE_CHANGED_MEANWHILE_MESSAGE, 'conflict')
    await recordModerationDecision(tx, {
      action: AUDIT_ACTION_OF[chosen],
      actorUserId: actor.kind === 'admin' ? actor.user.id : null,
      actorEmail: actor.kind === 'business' ? actor.business.businessEmail : undefined,
      eventID: ad.eventID,
      businessID: ad.businessID,
      reason: note,
    })
    if (!news) return 0
    const subscribers = await confirmedRemindersOf(tx, ad.eventID)
    const href = eventPageUrl(ad, origin)
    const queued = await enqueueMessages(
      tx,
      subscribers.map((subscriber) => {
        const links = subscriberLinks(subscriber.id, origin)
        return {
          kind: 'subscription-schedule-change',
          to: subscriber.email,
          ...scheduleChangeMail({ news, eventTitle: ad.eventTitle, note, href, links }),
          headers: unsubscribeHeaders(links),
          // One email per change: the sequence the change gave the ad names it.
          dedupeKey: `schedule:${subscriber.id}:${ad.eventID}:${changed.calendarSequence}`,
        }
      }),
    )
    return queued.length
  })
  return { told, toast: scheduleChangeToast(chosen, told, newDates !== null) }
}

/** A refusal the status form shows beside itself (a choice or note it cannot take); the others are the page's. */
export function refusedAtForm(error: unknown): error is AppError {
  return error instanceof AppError && (error.kind === 'invalid' || error.kind === 'conflict')
}

/** What the status form is drawn from after a refusal: the ad as it stands (not_found, forbidden as above). */
export async function scheduleFormOf(actor: ScheduleActor, idParam: unknown) {
  const ad = await reachableAd(actor, idParam)
  const today = platformToday()
  return {
    eventID: ad.eventID,
    eventTitle: ad.eventTitle,
    status: scheduleStatusOf(ad.scheduleStatus),
    note: ad.scheduleNote,
    live: scheduleChangeProblem(ad, BACK_ON, today) !== NOT_LIVE_SCHEDULE_MESSAGE,
    // The new dates' fields, offered while the ad is postponed.
    newDates:
      scheduleStatusOf(ad.scheduleStatus) === 'postponed'
        ? { ownDate: hasOwnDate(ad.eventDate), dates: currentDates(ad, today), limit: newDatesLimit(ad) }
        : null,
  }
}
