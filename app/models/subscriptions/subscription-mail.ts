/**
 * The subscribers' emails: the confirmation, the digest of a saved search, an event's reminder and the news of a
 * followed business.
 */
import { PRODUCT_NAME } from '#app/constants.ts'
import { composeMail, type MailBlock } from '#app/models/mail/mail-templates.ts'

/** The links every subscriber email carries; built from signed tokens, never the address. */
export interface SubscriberLinks {
  manage: string
  /** The RFC 8058 one-click address (List-Unsubscribe). */
  unsubscribe: string
}

export interface ListedEvent {
  eventID: number
  eventTitle: string
  /** "Sat, Dec 5, 2026" or a list of dates, as the calendar says it. */
  when: string
  where: string
  href: string
}

/** The headers of RFC 8058: a mail client offers "Unsubscribe", which posts to the https address. */
export function unsubscribeHeaders(links: SubscriberLinks): Record<string, string> {
  return {
    'List-Unsubscribe': `<${links.unsubscribe}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  }
}

function footer(links: SubscriberLinks): MailBlock[] {
  return [
    { link: 'Change how often you hear from us, or see what you subscribed to', href: links.manage },
    { link: 'Unsubscribe', href: links.unsubscribe },
  ]
}

function eventBlocks(list: ListedEvent[]): MailBlock[] {
  return list.flatMap((event) => [
    {
      rows: [
        ['Event', event.eventTitle],
        ['When', event.when],
        ['Where', event.where],
      ] as const,
    },
    { link: `See ${event.eventTitle}`, href: event.href },
  ])
}

export function confirmSubscriptionMail({
  what,
  confirmHref,
  links,
}: {
  what: string
  confirmHref: string
  links: SubscriberLinks
}) {
  return composeMail(`Confirm your ${PRODUCT_NAME} subscription`, [
    { paragraph: `Someone, probably you, asked ${PRODUCT_NAME} to email this address: ${what}.` },
    { paragraph: 'Nothing more is sent until you confirm. The link works for 48 hours.' },
    { link: 'Confirm my subscription', href: confirmHref },
    { paragraph: 'If you did not ask for this, ignore this email: the request is deleted after 7 days.' },
    ...footer(links),
  ])
}

/** An event a digest listed before whose status changed since: "Cancelled", "Postponed", "Sold out" or "Back on". */
export interface ChangedEvent extends ListedEvent {
  status: string
  note: string
}

function changeBlocks(list: ChangedEvent[]): MailBlock[] {
  return list.flatMap((event) => [
    {
      rows: [
        ['Event', event.eventTitle],
        ['Status', event.status],
        ...(event.note ? [['Note', event.note] as const] : []),
        ['When', event.when],
        ['Where', event.where],
      ] as const,
    },
    { link: `See ${event.eventTitle}`, href: event.href },
  ])
}

export function digestMail({
  search,
  fresh,
  comingWeek,
  changes = [],
  calendarHref,
  links,
}: {
  search: string
  fresh: ListedEvent[]
  comingWeek: ListedEvent[]
  /** Events of earlier digests whose status changed since the last email (listed under "Changes"). */
  changes?: ChangedEvent[]
  calendarHref: string
  links: SubscriberLinks
}) {
  const subject = fresh.length
    ? `${fresh.length} new event${fresh.length === 1 ? '' : 's'} for your ${PRODUCT_NAME} search`
    : `Changes to events of your ${PRODUCT_NAME} search`
  return composeMail(subject, [
    { paragraph: `Your search: ${search}.` },
    ...(fresh.length ? [{ paragraph: 'New since our last email:' }, ...eventBlocks(fresh)] : []),
    ...(changes.length ? [{ paragraph: 'Changes' }, ...changeBlocks(changes)] : []),
    ...(comingWeek.length ? [{ paragraph: 'On in the coming week:' }, ...eventBlocks(comingWeek)] : []),
    { link: 'See them all on the calendar', href: calendarHref },
    ...footer(links),
  ])
}

/** A followed business's new live ads, since the follower's last email. */
export function followMail({
  businessName,
  fresh,
  pageHref,
  links,
}: {
  businessName: string
  fresh: ListedEvent[]
  pageHref: string
  links: SubscriberLinks
}) {
  const subject =
    fresh.length === 1
      ? `New from ${businessName}: ${fresh[0]!.eventTitle}`
      : `${fresh.length} new events from ${businessName}`
  return composeMail(subject, [
    { paragraph: `You follow ${businessName} on ${PRODUCT_NAME}. New since our last email:` },
    ...eventBlocks(fresh),
    { link: `See every event of ${businessName}`, href: pageHref },
    ...footer(links),
  ])
}

export function reminderMail({
  event,
  tomorrow = 'tomorrow',
  links,
}: {
  event: ListedEvent
  /** "tomorrow at 7:30 PM", "tomorrow, all day". */
  tomorrow?: string
  links: SubscriberLinks
}) {
  return composeMail(`Tomorrow: ${event.eventTitle}`, [
    { paragraph: `A reminder you asked for: ${event.eventTitle} is ${tomorrow}.` },
    ...eventBlocks([event]),
    ...footer(links),
  ])
}

/** The emails a reminder's subscribers get at once when the ad's status changes ("Back on" only after Postponed). */
export type ScheduleChangeNews = 'cancelled' | 'postponed' | 'back_on'

const SCHEDULE_NEWS_SUBJECTS: Record<ScheduleChangeNews, string> = {
  cancelled: 'Cancelled',
  postponed: 'Postponed',
  back_on: 'Back on',
}

const SCHEDULE_NEWS_TEXTS: Record<ScheduleChangeNews, (title: string) => string> = {
  cancelled: (title) => `${title}, which you asked to be reminded of, is cancelled.`,
  postponed: (title) =>
    `${title}, which you asked to be reminded of, is postponed. We will not remind you of it while it is.`,
  back_on: (title) => `${title}, which you asked to be reminded of, is back on.`,
}

export function scheduleChangeMail({
  news,
  eventTitle,
  note,
  href,
  links,
}: {
  news: ScheduleChangeNews
  eventTitle: string
  note: string
  href: string
  links: SubscriberLinks
}) {
  return composeMail(`${SCHEDULE_NEWS_SUBJECTS[news]}: ${eventTitle}`, [
    { paragraph: SCHEDULE_NEWS_TEXTS[news](eventTitle) },
    ...(note ? [{ rows: [['Note from the organiser', note]] as const }] : []),
    { link: `See ${eventTitle}`, href },
    ...footer(links),
  ])
}
