import { and, eq, inArray, sql } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { business, events, payments } from '#db/schema.ts'
import { SETTLED } from '#app/models/payments/settled.ts'
import { promoOfPaymentMetadata } from '#app/models/payments/promo-code.ts'
import { sponsoredDatesOf } from '#app/models/payments/sponsorship.ts'

/**
 * What a receipt shows: a settled payment (paid, or paid and refunded) with its ad and business, read from the rows
 * the payment wrote. Null for a missing payment or one never paid.
 */
export async function getReceipt(paymentID: number) {
  const [row] = await db
    .select({
      payment: {
        paymentID: payments.paymentID,
        status: payments.payment_status,
        amountPaidCents: payments.amount_paid_cents,
        amountRefundedCents: payments.amount_refunded_cents,
        currency: payments.currency,
        paidAt: payments.paid_at,
        refundedAt: sql<Date | null>`case when ${payments.payment_status} = 'refunded' then ${payments.updated_at} end`,
        paymentIntentId: payments.payment_intent_id,
        cardBrand: payments.card_brand,
        cardLast4: payments.card_last4,
        receiptUrl: payments.receipt_url,
        metadata: payments.metadata,
      },
      event: {
        eventID: events.eventID,
        eventTitle: events.eventTitle,
        showAdOnDates: events.showAdOnDates,
        eventDate: events.eventDate,
      },
      business: {
        businessID: business.businessID,
        businessName: business.businessName,
        businessAddress: business.businessAddress,
        businessCity: business.businessCity,
        businessState: business.businessState,
        businessZip: business.businessZip,
        businessEmail: business.businessEmail,
      },
    })
    .from(payments)
    .innerJoin(events, eq(events.eventID, payments.eventID))
    .innerJoin(business, eq(business.businessID, events.businessID))
    .where(and(eq(payments.paymentID, paymentID), inArray(payments.payment_status, [...SETTLED])))
    .limit(1)
  if (!row) return null
  const metadata = (row.payment.metadata ?? {}) as { provider?: unknown; refundReason?: unknown }
  const { metadata: _metadata, ...payment } = row.payment
  return {
    ...row,
    payment: {
      ...payment,
      testMode: metadata.provider === 'test',
      refundReason: typeof metadata.refundReason === 'string' ? metadata.refundReason : null,
      /** Nothing was charged: a promo code made the ad free. */
      noCharge: metadata.provider === 'none',
      /** The list price, the discount and the code of a payment set up with a promo code. */
      promo: promoOfPaymentMetadata(row.payment.metadata),
      /** The display days a sponsorship bought for the live ad covers; null for the ad's own payment. */
      sponsoredDates: sponsoredDatesOf(row.payment.metadata),
    },
  }
}

export type Receipt = NonNullable<Awaited<ReturnType<typeof getReceipt>>>
