/**
 * The ad checkout pays for next (eventPaymentData), kept in the server session rather than the browser:
 * written when an ad is saved for payment or confirmed, read and cleared by checkout. The route hands over the
 * session it read and commits it afterwards.
 */
import { z } from 'zod'
import { eventInputFromEvent, type EventInput } from '#app/models/ads/event-schema.ts'
import type { Event } from '#db/schema.ts'
import { centsToDollars } from '#app/utils/pricing.ts'
import { currentAdCharge } from './pricing.server.ts'

/** What checkout needs (eventPaymentData), kept in the server session rather than the browser. */
export interface EventPaymentData {
  businessID: number
  selectedDates: string[]
  eventData: EventInput
  totalAmount: number
  eventID: number
}

/** Where the payment data is kept: the visitor's server session, as the route read it. */
export interface PaymentDataStore {
  get(key: string): unknown
  set(key: string, value: EventPaymentData): void
  unset(key: string): void
}

const PAYMENT_KEY = 'eventPaymentData'

export function getEventPaymentData(session: PaymentDataStore): EventPaymentData | null {
  return (session.get(PAYMENT_KEY) as EventPaymentData | undefined) ?? null
}

export function setEventPaymentData(session: PaymentDataStore, value: EventPaymentData | null) {
  if (value) session.set(PAYMENT_KEY, value)
  else session.unset(PAYMENT_KEY)
}

export function clearPaymentData(session: PaymentDataStore) {
  setEventPaymentData(session, null)
}

/** Clears the payment data once its ad is paid; true when there was that ad's to clear. */
export function clearPaymentDataOf(session: PaymentDataStore, eventID: number) {
  const stored = readPaymentData(session)
  if (stored.status !== 'ok' || stored.data.eventID !== eventID) return false
  clearPaymentData(session)
  return true
}

/** The eventPaymentData of a saved ad: its fields, dates and price. */
export function paymentDataFor(ad: {
  businessID: number
  eventID: number
  input: EventInput
  totalCents: number
}): EventPaymentData {
  return {
    businessID: ad.businessID,
    selectedDates: ad.input.showAdDates,
    eventData: ad.input,
    totalAmount: centsToDollars(ad.totalCents),
    eventID: ad.eventID,
  }
}

/** The eventPaymentData rebuilt from an event row, its total from its own display dates at the current prices. */
export async function paymentDataFromEvent(event: Event): Promise<EventPaymentData> {
  return paymentDataFor({
    businessID: event.businessID,
    eventID: event.eventID,
    input: eventInputFromEvent(event),
    totalCents: (await currentAdCharge({ days: event.showAdOnDates.length, categories: event.category }))
      .cents,
  })
}

const paymentDataSchema = z.object({
  businessID: z.number().int().positive(),
  selectedDates: z.array(z.string()),
  eventData: z.looseObject({ eventTitle: z.string() }),
  totalAmount: z.number().nonnegative(),
  eventID: z.number().int().positive(),
})

export type StoredPaymentData =
  { status: 'none' } | { status: 'invalid' } | { status: 'ok'; data: EventPaymentData }

/** The session's payment data, checked: stored data that does not have the expected shape reads as 'invalid'. */
export function readPaymentData(session: PaymentDataStore): StoredPaymentData {
  const raw = getEventPaymentData(session)
  if (raw === null || raw === undefined) return { status: 'none' }
  const parsed = paymentDataSchema.safeParse(raw)
  return parsed.success ? { status: 'ok', data: raw } : { status: 'invalid' }
}
