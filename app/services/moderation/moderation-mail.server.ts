/** The moderation emails' wording: the administrators' daily digest, and what advertisers are told about reports. */
import { composeMail, mailLinks } from '#app/models/mail/mail-templates.ts'

export interface DigestFacts {
  origin: string
  waiting: { eventID: number; eventTitle: string; waitedHours: number }[]
  waitingTotal: number
  reportedAds: { eventID: number; eventTitle: string; reports: number; hidden: boolean }[]
  reportedAdsTotal: number
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

export function moderationDigestMail(facts: DigestFacts) {
  const parts: string[] = []
  if (facts.waitingTotal) parts.push(`${plural(facts.waitingTotal, 'ad')} waiting over 24 hours`)
  if (facts.reportedAdsTotal) parts.push(`${plural(facts.reportedAdsTotal, 'reported ad')}`)
  const more = (shown: number, total: number) =>
    total > shown ? [{ paragraph: `…and ${total - shown} more.` }] : []
  return composeMail(`Moderation: ${parts.join(', ')}`, [
    ...(facts.waitingTotal
      ? [
          { paragraph: 'These paid ads have waited for a review for more than 24 hours:' },
          {
            rows: facts.waiting.map(
              (ad) =>
                [
                  `${ad.eventTitle} (event ${ad.eventID})`,
                  `waiting ${plural(ad.waitedHours, 'hour')}`,
                ] as const,
            ),
          },
          ...more(facts.waiting.length, facts.waitingTotal),
          { link: 'Review them', href: `${facts.origin}/admin?date=all` },
        ]
      : []),
    ...(facts.reportedAdsTotal
      ? [
          { paragraph: 'Visitors reported these ads; the reports are open:' },
          {
            rows: facts.reportedAds.map(
              (ad) =>
                [
                  `${ad.eventTitle} (event ${ad.eventID})`,
                  `${plural(ad.reports, 'report')}${ad.hidden ? ', hidden from the public pages' : ''}`,
                ] as const,
            ),
          },
          ...more(facts.reportedAds.length, facts.reportedAdsTotal),
          { link: 'See the reports', href: `${facts.origin}/admin/reports` },
        ]
      : []),
  ])
}

interface AdFacts {
  eventID: number
  eventTitle: string
  origin: string
}

export function adHiddenMail(ad: AdFacts) {
  return composeMail(`Your ad is hidden while we review reports: ${ad.eventTitle}`, [
    {
      paragraph: `Several visitors reported your ad "${ad.eventTitle}", so it is hidden from the public pages until an administrator has looked at the reports. You will hear from us when they have.`,
    },
    { link: 'Your dashboard', href: mailLinks.dashboard(ad.origin) },
  ])
}

export function adRestoredMail(ad: AdFacts) {
  return composeMail(`Your ad is shown again: ${ad.eventTitle}`, [
    {
      paragraph: `An administrator looked at the reports about your ad "${ad.eventTitle}" and dismissed them. It is shown on the public pages again.`,
    },
    { link: 'See its page', href: mailLinks.eventPage(ad.origin, ad) },
  ])
}

export function adTakenDownMail(ad: AdFacts & { reason: string }) {
  return composeMail(`Your ad was taken down: ${ad.eventTitle}`, [
    { paragraph: `An administrator took down your ad "${ad.eventTitle}". The reason given:` },
    { paragraph: ad.reason },
    {
      paragraph:
        'It no longer appears on the public pages. As our terms say, a takedown for breaking them is not refunded.',
    },
    { link: 'Our terms', href: `${ad.origin}/terms` },
    { link: 'Your dashboard', href: mailLinks.dashboard(ad.origin) },
  ])
}
