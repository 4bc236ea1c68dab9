/** The subscribers' emails: the confirmation, the digest of a saved search and an event's reminder. */
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

export function digestMail({
  search,
  fresh,
  comingWeek,
  calendarHref,
  links,
}: {
  search: string
  fresh: ListedEvent[]
  comingWeek: ListedEvent[]
  calendarHref: string
  links: SubscriberLinks
}) {
  const subject = `${fresh.length} new event${fresh.length === 1 ? '' : 's'} for your ${PRODUCT_NAME} search`
  return composeMail(subject, [
    { paragraph: `Your search: ${search}.` },
    { paragraph: 'New since our last email:' },
    ...eventBlocks(fresh),
    ...(comingWeek.length ? [{ paragraph: 'On in the coming week:' }, ...eventBlocks(comingWeek)] : []),
    { link: 'See them all on the calendar', href: calendarHref },
    ...footer(links),
  ])
}

export function reminderMail({ event, links }: { event: ListedEvent; links: SubscriberLinks }) {
  return composeMail(`Tomorrow: ${event.eventTitle}`, [
    { paragraph: `A reminder you asked for: ${event.eventTitle} is tomorrow.` },
    ...eventBlocks([event]),
    ...footer(links),
  ])
}
