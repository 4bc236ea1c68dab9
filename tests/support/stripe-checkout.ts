import { afterAll, beforeAll } from 'vitest'
import { showDateBounds } from '#app/models/ads/event-dates.ts'
import { EMPTY_PRACTICAL_FACTS } from '#app/models/ads/practical-facts.ts'
import { setEventPaymentData } from '#app/services/payments/payment-data.server.ts'
import { sessionStorage } from '#app/services/http/session.server.ts'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import { db } from '#db/client.server.ts'
import { events, type Business } from '#db/schema.ts'
import { businessSessionCopy } from './auth.ts'

/** An ad its advertiser approved but has not paid for yet, shown on `showAdOnDates`. */
export async function insertUnpaidEvent(owner: Business, showAdOnDates: string[], today: string) {
  const [row] = await db
    .insert(events)
    .values({
      businessID: owner.businessID,
      businessName: owner.businessName,
      eventTitle: 'Summer Sale',
      eventDescription: 'Everything half price.',
      category: ['Special'],
      showAdOnDates,
      ...showDateBounds('1989-01-01', showAdOnDates),
      daysOrdered: showAdOnDates.length,
      totalCost: 29,
      approvedDateByBusiness: today,
    })
    .returning()
  return row!
}

/** A signed-in advertiser whose session holds eventPaymentData for `event` (as the checkout page leaves it). */
export async function cookieWithPaymentData(
  owner: Business,
  event: { eventID: number; showAdOnDates: string[] },
  totalAmount = 29,
) {
  const session = await sessionStorage.getSession()
  session.set('business', businessSessionCopy(owner))
  setEventPaymentData(session, {
    businessID: owner.businessID,
    selectedDates: event.showAdOnDates,
    eventData: {
      eventTitle: 'Summer Sale',
      eventDescription: 'Everything half price.',
      eventCategory: ['Special'],
      showAdDates: event.showAdOnDates,
      eventDate: '1989-01-01',
      contactPerson: '',
      contactPhone: '',
      contactEmail: '',
      ...EMPTY_PRACTICAL_FACTS,
    },
    totalAmount,
    eventID: event.eventID,
  })
  return (await sessionStorage.commitSession(session)).split(';')[0]!
}

/** The Stripe variables: unset, the built-in test provider takes the payments. */
const STRIPE_VARS = [
  'STRIPE_SECRET_KEY',
  'STRIPE_PUBLISHABLE_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_API_BASE',
]

/** The test file's payments go to the built-in test provider (no Stripe keys); the variables come back after it. */
export function useTestPaymentProvider() {
  const saved: Record<string, string | undefined> = {}
  beforeAll(() => {
    for (const name of STRIPE_VARS) {
      saved[name] = process.env[name]
      delete process.env[name]
    }
    resetEnvCache()
  })
  afterAll(() => {
    for (const name of STRIPE_VARS) {
      if (saved[name] === undefined) delete process.env[name]
      else process.env[name] = saved[name]
    }
    resetEnvCache()
  })
}
