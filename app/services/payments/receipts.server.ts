import { externalUrl, formatDatesLine } from '#app/utils/format.ts'
import { cardLine, dollars, NO_CHARGE_CARD_TEXT } from '#app/models/mail/mail-templates.ts'
import { formatPaidAt } from '#app/models/mail/notifications.server.ts'
import { getReceipt } from '#app/models/payments/receipt.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import { getEnv } from '../platform/env.server.ts'
import { parseId } from '#app/models/platform/input-rules.ts'

export const RECEIPT_NOT_FOUND_MESSAGE = 'Receipt not found'
export const NOT_YOUR_RECEIPT_MESSAGE = 'That receipt is not yours.'

/**
 * The receipt of a payment (`idParam`, the page's id as written), for the business whose ad it paid for: not found
 * for an id that is not a paid payment, forbidden for another business's (as for its ads).
 */
export async function businessReceipt(businessID: number, idParam: string | undefined) {
  const paymentID = parseId(idParam)
  const receipt = paymentID === null ? null : await getReceipt(paymentID)
  if (!receipt) throw new AppError(RECEIPT_NOT_FOUND_MESSAGE, 'not_found')
  if (receipt.business.businessID !== businessID) throw new AppError(NOT_YOUR_RECEIPT_MESSAGE, 'forbidden')
  const { payment, event, business } = receipt
  const timeZone = getEnv().APP_TIME_ZONE
  return {
    paymentID: payment.paymentID,
    business: {
      name: business.businessName,
      address: [
        business.businessAddress,
        [business.businessCity, [business.businessState, business.businessZip].filter(Boolean).join(' ')]
          .filter(Boolean)
          .join(', '),
      ].filter(Boolean),
      email: business.businessEmail,
    },
    ad: {
      eventID: event.eventID,
      title: event.eventTitle,
      dates: formatDatesLine(event.showAdOnDates, event.eventDate),
    },
    /** A sponsorship bought for the live ad: the display days it covers. */
    sponsoredDays: payment.sponsoredDates ? formatDatesLine(payment.sponsoredDates, null) : null,
    amount: dollars(payment.amountPaidCents),
    currency: payment.currency.toUpperCase(),
    promo: payment.promo
      ? {
          code: payment.promo.code,
          listPrice: dollars(payment.promo.listCents),
          discount: dollars(payment.promo.discountCents),
        }
      : null,
    card: payment.noCharge
      ? NO_CHARGE_CARD_TEXT
      : cardLine({ card_brand: payment.cardBrand, card_last4: payment.cardLast4 }, payment.testMode),
    providerReference: payment.noCharge ? null : payment.paymentIntentId,
    paidAt: payment.paidAt ? formatPaidAt(payment.paidAt, timeZone) : null,
    refund:
      payment.amountRefundedCents > 0
        ? {
            amount: dollars(payment.amountRefundedCents),
            full: payment.status === 'refunded',
            at: payment.refundedAt ? formatPaidAt(new Date(payment.refundedAt), timeZone) : null,
            reason: payment.refundReason,
          }
        : null,
    providerReceiptUrl: externalUrl(payment.receiptUrl),
  }
}
