/**
 * The emails the platform sends, each queued in the outbox with the transaction of the change it tells about
 * (`tx`): the message exists if and only if that change commits. The mail worker sends it later.
 *
 * `origin` is the site's address for the links (PUBLIC_URL, else the request's origin) and `timeZone` the
 * platform's, both given by the caller (`mailContext` in app/services/http/site-url.server.ts builds them).
 */
import { TZDate } from '@date-fns/tz'
import { format } from 'date-fns/format'
import { eq, sql } from 'drizzle-orm'
import type { Transaction } from '#db/client.server.ts'
import { business, events, payments, users } from '#db/schema.ts'
import { isoDateInZone } from '#app/utils/time.ts'
import { formatDatesLine } from '#app/utils/format.ts'
import {
  accountCreatedMail,
  adApprovedMail,
  adRejectedMail,
  revisionDecidedMail,
  cardLine,
  changesRequestedMail,
  NO_CHARGE_CARD_TEXT,
  paymentReceivedMail,
  reviewWaitingMail,
  type ComposedMail,
} from '#app/models/mail/mail-templates.ts'
import { enqueueMessage } from '#app/models/mail/outbox.server.ts'
import { promoOfPaymentMetadata } from '#app/models/payments/promo-code.ts'
import { sponsoredDatesOf } from '#app/models/payments/sponsorship.ts'

/** The display days a sponsorship payment covers, as a receipt lists them; null for the ad's own payment. */
function formatSponsoredDays(metadata: unknown) {
  const dates = sponsoredDatesOf(metadata)
  return dates ? formatDatesLine(dates, null) : null
}

export interface MailContext {
  origin: string
  timeZone: string
}

function enqueue(tx: Transaction, kind: string, to: string, mail: ComposedMail, dedupeKey?: string) {
  return enqueueMessage(tx, { kind, to, ...mail, dedupeKey })
}

async function adWithOwner(tx: Transaction, eventID: number) {
  const [row] = await tx
    .select({
      eventID: events.eventID,
      eventTitle: events.eventTitle,
      showAdOnDates: events.showAdOnDates,
      eventDate: events.eventDate,
      createdDate: events.createdDate,
      businessName: business.businessName,
      businessEmail: business.businessEmail,
    })
    .from(events)
    .innerJoin(business, eq(business.businessID, events.businessID))
    .where(eq(events.eventID, eventID))
    .limit(1)
  if (!row) throw new Error(`No event ${eventID} to write to its advertiser about`)
  return { ...row, displayDates: formatDatesLine(row.showAdOnDates, row.eventDate) }
}

export function formatPaidAt(instant: Date, timeZone: string) {
  return `${format(new TZDate(instant, timeZone), 'MMM d, yyyy h:mm a')} (${timeZone})`
}

/** A new business account: a welcome with the sign-in link. */
export async function enqueueAccountCreatedEmail(
  tx: Transaction,
  {
    businessID,
    businessName,
    businessEmail,
    origin,
  }: {
    businessID: number
    businessName: string
    businessEmail: string
    origin: string
  },
) {
  await enqueue(
    tx,
    'account-created',
    businessEmail,
    accountCreatedMail({ businessName, origin }),
    `account-created:${businessID}`,
  )
}

/**
 * A payment recorded as paid: the receipt to the advertiser, and to every administrator word that a paid ad waits
 * for review. Once per payment, however many times its success is reported.
 */
export async function enqueuePaymentReceivedEmails(tx: Transaction, paymentID: number, context: MailContext) {
  const [payment] = await tx.select().from(payments).where(eq(payments.paymentID, paymentID)).limit(1)
  if (!payment) throw new Error(`No payment ${paymentID} to send a receipt for`)
  const ad = await adWithOwner(tx, payment.eventID)
  const provider = (payment.metadata as { provider?: string } | null)?.provider
  const testMode = provider === 'test'
  // A promo code made the ad free: nothing was charged, and no provider holds a reference.
  const noCharge = provider === 'none'
  await enqueue(
    tx,
    'payment-received',
    ad.businessEmail,
    paymentReceivedMail({
      ...ad,
      paymentID,
      providerReference: noCharge ? null : payment.payment_intent_id,
      amountCents: payment.amount_paid_cents,
      promo: promoOfPaymentMetadata(payment.metadata),
      sponsoredDays: formatSponsoredDays(payment.metadata),
      card: noCharge ? NO_CHARGE_CARD_TEXT : cardLine(payment, testMode),
      paidAt: formatPaidAt(payment.paid_at ?? new Date(), context.timeZone),
      origin: context.origin,
    }),
    `payment-received:${paymentID}`,
  )
  // An ad approved at payment (a trusted business's) waits for no one.
  const [status] = await tx
    .select({ eventStatus: events.eventStatus })
    .from(events)
    .where(eq(events.eventID, payment.eventID))
  if (status?.eventStatus !== 'pending') return
  const admins = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(sql`'admin' = any(${users.roles})`)
  const mail = reviewWaitingMail({
    ...ad,
    uploadDate: isoDateInZone(ad.createdDate, context.timeZone),
    origin: context.origin,
  })
  for (const admin of admins) {
    await enqueue(tx, 'review-waiting', admin.email, mail, `review-waiting:${paymentID}:${admin.id}`)
  }
}

/** An approved ad: the link to its public page. */
export async function enqueueAdApprovedEmail(
  tx: Transaction,
  { eventID, origin }: { eventID: number; origin: string },
) {
  const ad = await adWithOwner(tx, eventID)
  await enqueue(
    tx,
    'ad-approved',
    ad.businessEmail,
    adApprovedMail({ ...ad, origin }),
    `ad-approved:${eventID}`,
  )
}

/** A rejected ad: the administrator's reason, the refund, and the link to edit it. Once per ad. */
export async function enqueueAdRejectedEmail(
  tx: Transaction,
  {
    eventID,
    reason,
    refundedCents,
    origin,
  }: { eventID: number; reason: string; refundedCents: number; origin: string },
) {
  const ad = await adWithOwner(tx, eventID)
  await enqueue(
    tx,
    'ad-rejected',
    ad.businessEmail,
    adRejectedMail({ ...ad, reason, refundedCents, origin }),
    `ad-rejected:${eventID}`,
  )
}

/**
 * An administrator asks for changes to an ad: the reason and the link to edit it. Call it in the transaction that
 * records the request; each call queues one message (a second request for the same ad is a second email).
 */
export async function enqueueChangesRequestedEmail(
  tx: Transaction,
  { eventID, reason, origin }: { eventID: number; reason: string; origin: string },
) {
  const ad = await adWithOwner(tx, eventID)
  await enqueue(tx, 'changes-requested', ad.businessEmail, changesRequestedMail({ ...ad, reason, origin }))
}

/**
 * A decision on the changes to a live ad (its revision): approved, rejected or sent back, with the reason. Call it in
 * the transaction that records the decision; each decision is one message.
 */
export async function enqueueRevisionDecidedEmail(
  tx: Transaction,
  {
    eventID,
    decision,
    reason,
    origin,
  }: {
    eventID: number
    decision: 'approved' | 'rejected' | 'changes_requested'
    reason: string
    origin: string
  },
) {
  const ad = await adWithOwner(tx, eventID)
  await enqueue(
    tx,
    `revision-${decision.replace('_', '-')}`,
    ad.businessEmail,
    revisionDecidedMail({ ...ad, decision, reason, origin }),
  )
}
