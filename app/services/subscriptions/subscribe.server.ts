/**
 * Asking for a subscription, with double opt-in: only a confirmation email is sent until its link is followed. The
 * answer is the same whether the address is new, waiting for its confirmation or subscribed already, so it tells
 * nobody which addresses are known.
 */
import { normalizeCalendarFilters, type CalendarFilters } from '#app/models/calendar/calendar-filters.ts'
import { getPublishedBusiness } from '#app/models/calendar/business-page.server.ts'
import { enqueueMessage } from '#app/models/mail/outbox.server.ts'
import { getLiveEventTitle } from '#app/models/subscriptions/subscription-matches.server.ts'
import { confirmSubscriptionMail, unsubscribeHeaders } from '#app/models/subscriptions/subscription-mail.ts'
import {
  businessFilterKey,
  describeSearch,
  reminderFilterKey,
  savedSearchFilters,
  searchFilterKey,
  SUBSCRIPTION_TEXT,
} from '#app/models/subscriptions/subscription-rules.ts'
import type { SubscribeForm } from '#app/models/subscriptions/subscription-schema.ts'
import { addOrFindSubscription, type NewSubscription } from '#app/models/subscriptions/subscription.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { db } from '#db/client.server.ts'
import { getEnv } from '../platform/env.server.ts'
import { platformToday } from '../platform/platform-today.server.ts'
import {
  CONFIRMATION_MAIL_WINDOW_MS,
  confirmationMailKey,
  SUBSCRIBE_WINDOW_MS,
  subscribeKey,
  takeSlot,
} from '../platform/rate-limit.server.ts'
import { confirmLink, subscriberLinks } from './subscriber-links.server.ts'

export const TOO_MANY_SUBSCRIPTIONS = (seconds: number) =>
  `Too many subscriptions were asked for from your network. Try again in ${Math.ceil(seconds / 60)} minute(s).`
export const EVENT_NOT_LIVE = 'This event is not on the calendar any more, so no reminder can be set for it.'
export const BUSINESS_WITHOUT_PAGE =
  'This business has no page here (it has no event on the calendar now), so it cannot be followed.'

/** The calendar's filters a subscribe form carries as its own fields (keyword, category, zip, near, radius). */
export function postedFilters(form: FormData): CalendarFilters {
  const params = new URLSearchParams()
  for (const [name, value] of form) if (typeof value === 'string') params.append(name, value)
  return savedSearchFilters(normalizeCalendarFilters(params).filters)
}

/** Who asks: the client's address (counted for the rate limit) and the site's origin for the email's links. */
export interface SubscriptionAsker {
  clientIp: string
  origin: string
}

async function limitRequests(ip: string) {
  // Without an address (a request that did not come through server.js) there is nothing to count by.
  if (ip === 'unknown') return
  const taken = await takeSlot(subscribeKey(ip), {
    max: getEnv().SUBSCRIPTIONS_PER_ADDRESS_PER_HOUR,
    windowMs: SUBSCRIBE_WINDOW_MS,
  })
  if (!taken.allowed) {
    throw new AppError(TOO_MANY_SUBSCRIPTIONS(taken.retryAfterSeconds), 'too_many_requests', {
      retryAfterSeconds: taken.retryAfterSeconds,
    })
  }
}

/** Whether one more confirmation email may go to `email` today; counts it when it may. */
async function takeConfirmationMail(email: string) {
  const taken = await takeSlot(confirmationMailKey(email), {
    max: getEnv().CONFIRMATIONS_PER_EMAIL_PER_DAY,
    windowMs: CONFIRMATION_MAIL_WINDOW_MS,
  })
  return taken.allowed
}

/** Records the request and, for a subscription not confirmed yet, queues its confirmation email. */
export async function requestSubscription(
  { clientIp, origin }: SubscriptionAsker,
  form: SubscribeForm,
  filters: CalendarFilters,
): Promise<{ message: string }> {
  await limitRequests(clientIp)
  let wanted: NewSubscription
  let what: string
  if (form.kind === 'reminder') {
    const title = await getLiveEventTitle(form.eventID, platformToday())
    if (title === null) throw new AppError(EVENT_NOT_LIVE, 'not_found')
    wanted = {
      email: form.email,
      kind: 'reminder',
      frequency: 'once',
      filters: savedSearchFilters(normalizeCalendarFilters(new URLSearchParams()).filters),
      filterKey: reminderFilterKey(form.eventID),
      eventID: form.eventID,
    }
    what = `a reminder the day before “${title}”`
  } else if (form.kind === 'business') {
    const followed = await getPublishedBusiness(form.businessID, platformToday())
    if (!followed) throw new AppError(BUSINESS_WITHOUT_PAGE, 'not_found')
    wanted = {
      email: form.email,
      kind: 'business',
      frequency: 'daily',
      filters: savedSearchFilters(normalizeCalendarFilters(new URLSearchParams()).filters),
      filterKey: businessFilterKey(form.businessID),
      eventID: null,
      businessID: form.businessID,
    }
    what = `new events from ${followed.businessName}, at most one email a day`
  } else {
    wanted = {
      email: form.email,
      kind: 'search',
      frequency: form.frequency,
      filters,
      filterKey: searchFilterKey(filters),
      eventID: null,
    }
    what = `${form.frequency === 'weekly' ? 'a weekly digest' : 'new events as they go live'} of ${describeSearch(filters)}`
  }
  // No transaction: the rate limit's rows are written on their own; a failed enqueue is retried by asking again.
  const { subscription } = await addOrFindSubscription(db, wanted)
  if (!subscription.confirmedAt && (await takeConfirmationMail(wanted.email))) {
    const links = subscriberLinks(subscription.id, origin)
    await enqueueMessage(db, {
      kind: 'subscription-confirm',
      to: wanted.email,
      ...confirmSubscriptionMail({ what, confirmHref: confirmLink(subscription.id, origin), links }),
      headers: unsubscribeHeaders(links),
    })
  }
  return { message: SUBSCRIPTION_TEXT.requested }
}
