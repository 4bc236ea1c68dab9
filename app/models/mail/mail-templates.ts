/**
 * The emails' wording, as plain text and HTML from one description, so the two never disagree. Every value is
 * escaped in the HTML: titles, reasons and names are what users typed.
 */
import { eventPageUrl, type EventAddressSource } from '#app/models/ads/event-address.ts'
import { PRODUCT_NAME } from '#app/constants.ts'
import { oneLine } from '#app/utils/format.ts'
import { formatDollars } from '#app/utils/pricing.ts'
import type { PaymentPromo } from '#app/models/payments/promo-code.ts'

export type MailBlock =
  | { paragraph: string }
  | { rows: ReadonlyArray<readonly [label: string, value: string]> }
  | { link: string; href: string }

export interface ComposedMail {
  subject: string
  text: string
  html: string
}

export function escapeHtml(value: string) {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

/** A paragraph keeps its lines; a row or a link is one line, whatever line breaks a title or a name holds. */
function blockText(block: MailBlock) {
  if ('paragraph' in block) return block.paragraph
  if ('rows' in block) return block.rows.map(([label, value]) => oneLine(`${label}: ${value}`)).join('\n')
  return oneLine(`${block.link}: ${block.href}`)
}

function blockHtml(block: MailBlock) {
  if ('paragraph' in block) return `<p>${escapeHtml(block.paragraph).replace(/\n/g, '<br>')}</p>`
  if ('rows' in block) {
    const rows = block.rows
      .map(
        ([label, value]) =>
          `<tr><th align="left" style="padding:2px 12px 2px 0">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
      )
      .join('')
    return `<table role="presentation">${rows}</table>`
  }
  return `<p><a href="${escapeHtml(block.href)}">${escapeHtml(block.link)}</a></p>`
}

export function composeMail(subject: string, blocks: MailBlock[]): ComposedMail {
  const footer = `— ${PRODUCT_NAME}`
  return {
    subject: oneLine(subject),
    text: [...blocks.map(blockText), footer].join('\n\n') + '\n',
    html:
      `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">` +
      `<h1 style="font-size:20px">${escapeHtml(subject)}</h1>${blocks.map(blockHtml).join('')}` +
      `<p style="color:#64748b">${escapeHtml(footer)}</p></body></html>`,
  }
}

/** "$12.00" */
export function dollars(cents: number) {
  return `$${formatDollars(cents)}`
}

/** "Visa •••• 4242", or the test provider's note. */
export const TEST_MODE_CARD_TEXT = 'Test mode — no real charge'
/** The card of an ad a promo code made free. */
export const NO_CHARGE_CARD_TEXT = 'None (nothing to charge)'

export function cardLine(
  payment: { card_brand: string | null; card_last4: string | null },
  testMode: boolean,
) {
  if (testMode) return TEST_MODE_CARD_TEXT
  if (!payment.card_last4) return payment.card_brand ? capitalize(payment.card_brand) : 'Card'
  return `${payment.card_brand ? capitalize(payment.card_brand) : 'Card'} •••• ${payment.card_last4}`
}

function capitalize(value: string) {
  return value === 'amex' ? 'American Express' : value.charAt(0).toUpperCase() + value.slice(1)
}

export interface AdFacts {
  eventID: number
  eventTitle: string
  displayDates: string
}

export const mailLinks = {
  dashboard: (origin: string) => `${origin}/dashboard`,
  login: (origin: string) => `${origin}/login`,
  eventPage: (origin: string, ad: EventAddressSource) => eventPageUrl(ad, origin),
  editAd: (origin: string, eventID: number) => `${origin}/dashboard/events/${eventID}/edit`,
  receipt: (origin: string, paymentID: number) => `${origin}/dashboard/receipts/${paymentID}`,
  review: (origin: string, uploadDate: string) => `${origin}/admin?date=${uploadDate}`,
}

export function accountCreatedMail({ businessName, origin }: { businessName: string; origin: string }) {
  return composeMail(`Welcome to ${PRODUCT_NAME}, ${businessName}`, [
    { paragraph: `Your business account for ${businessName} has been created.` },
    {
      paragraph:
        'Sign in to create ad listings for your events and specials; once paid and approved, they appear on the public events page and calendar.',
    },
    { link: 'Sign in', href: mailLinks.login(origin) },
  ])
}

export interface ReceiptFacts extends AdFacts {
  paymentID: number
  providerReference: string | null
  amountCents: number
  /** The list price, the discount and the code of a payment with a promo code. */
  promo?: PaymentPromo | null
  card: string
  paidAt: string
  /** A sponsorship bought for the live ad: the display days it covers ("Nov 29, Nov 30"); absent for the ad's own. */
  sponsoredDays?: string | null
}

export function paymentReceivedMail(receipt: ReceiptFacts & { origin: string }) {
  const sponsorship = Boolean(receipt.sponsoredDays)
  return composeMail(`Payment received: ${sponsorship ? 'sponsored placement, ' : ''}${receipt.eventTitle}`, [
    {
      paragraph: sponsorship
        ? `Thank you: we received your payment for the sponsored placement of "${receipt.eventTitle}". It takes turns in the Sponsored slots on its display days left.`
        : `Thank you: we received your payment for the ad "${receipt.eventTitle}". An administrator reviews it before it goes live; we will email you the decision.`,
    },
    {
      rows: [
        ['Ad', receipt.eventTitle],
        sponsorship
          ? (['Sponsored placement', receipt.sponsoredDays!] as const)
          : (['Display dates', receipt.displayDates] as const),
        ...(receipt.promo
          ? ([
              ['List price', dollars(receipt.promo.listCents)],
              ['Discount', `−${dollars(receipt.promo.discountCents)} (promo code ${receipt.promo.code})`],
            ] as const)
          : []),
        ['Amount', dollars(receipt.amountCents)],
        ['Card', receipt.card],
        ['Payment ID', String(receipt.paymentID)],
        ...(receipt.providerReference ? [['Reference', receipt.providerReference] as const] : []),
        ['Paid', receipt.paidAt],
      ],
    },
    { link: 'Your receipt', href: mailLinks.receipt(receipt.origin, receipt.paymentID) },
  ])
}

export function reviewWaitingMail(
  ad: AdFacts & { businessName: string; uploadDate: string; origin: string },
) {
  return composeMail(`Ad waiting for review: ${ad.eventTitle}`, [
    { paragraph: `${ad.businessName} paid for the ad "${ad.eventTitle}"; it is waiting for your review.` },
    {
      rows: [
        ['Display dates', ad.displayDates],
        ['Uploaded', ad.uploadDate],
      ],
    },
    { link: 'Review it', href: mailLinks.review(ad.origin, ad.uploadDate) },
  ])
}

export function adApprovedMail(ad: AdFacts & { origin: string }) {
  return composeMail(`Your ad is live: ${ad.eventTitle}`, [
    {
      paragraph: `Your ad "${ad.eventTitle}" was approved and appears on its display dates (${ad.displayDates}).`,
    },
    { link: 'See its page', href: mailLinks.eventPage(ad.origin, ad) },
  ])
}

export function adRejectedMail(ad: AdFacts & { reason: string; refundedCents: number; origin: string }) {
  return composeMail(`Your ad was not approved: ${ad.eventTitle}`, [
    { paragraph: `Your ad "${ad.eventTitle}" was not approved. The reason given:` },
    { paragraph: ad.reason },
    {
      paragraph:
        ad.refundedCents > 0
          ? `Your payment of ${dollars(ad.refundedCents)} has been refunded to your card.`
          : 'There was no payment to refund.',
    },
    { link: 'Edit your ad', href: mailLinks.editAd(ad.origin, ad.eventID) },
  ])
}

export function changesRequestedMail(ad: AdFacts & { reason: string; origin: string }) {
  return composeMail(`Changes requested for your ad: ${ad.eventTitle}`, [
    { paragraph: `An administrator asks for changes to your ad "${ad.eventTitle}" before it can go live:` },
    { paragraph: ad.reason },
    { link: 'Edit your ad', href: mailLinks.editAd(ad.origin, ad.eventID) },
  ])
}

/** A decision on the advertiser's changes to their live ad (a revision): approved, not approved, or sent back. */
export function revisionDecidedMail(
  ad: AdFacts & { decision: 'approved' | 'rejected' | 'changes_requested'; reason: string; origin: string },
) {
  if (ad.decision === 'approved') {
    return composeMail(`Your changes are live: ${ad.eventTitle}`, [
      {
        paragraph: `The changes to your ad "${ad.eventTitle}" were approved: its page shows the new version.`,
      },
      { link: 'See its page', href: mailLinks.eventPage(ad.origin, ad) },
    ])
  }
  const [subject, opening] =
    ad.decision === 'rejected'
      ? [
          `Your changes were not approved: ${ad.eventTitle}`,
          `The changes to your ad "${ad.eventTitle}" were not approved; the ad stays live as it was. The reason given:`,
        ]
      : [
          `Changes requested to your edit: ${ad.eventTitle}`,
          `An administrator asks for changes to your edit of "${ad.eventTitle}"; the ad stays live as it was meanwhile:`,
        ]
  return composeMail(subject, [
    { paragraph: opening },
    { paragraph: ad.reason || 'No reason was given.' },
    { link: 'Edit your ad', href: mailLinks.editAd(ad.origin, ad.eventID) },
  ])
}
