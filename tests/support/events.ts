import { showDateBounds } from '#app/models/ads/event-dates.ts'
import { db } from '#db/client.server.ts'
import { insertBusiness } from '#db/factories.ts'
import { events, payments, type Business, type NewEvent } from '#db/schema.ts'

let counter = 0

/**
 * An events row as the app writes one: live (approved, paid) unless overridden, with firstShowDate/lastShowDate
 * computed from the dates like the model keeps them.
 */
export async function insertTestEvent(
  owner: Business,
  overrides: Partial<NewEvent> & { showAdOnDates?: string[] } = {},
) {
  const showAdOnDates = overrides.showAdOnDates ?? []
  const eventDate = overrides.eventDate ?? '1989-01-01'
  const n = ++counter
  const [row] = await db
    .insert(events)
    .values({
      businessID: owner.businessID,
      businessName: owner.businessName,
      eventTitle: `Test Event ${n}`,
      eventDescription: `Description of test event ${n}.`,
      category: ['Community'],
      daysOrdered: showAdOnDates.length,
      totalCost: 29,
      contactPerson: owner.businessContact,
      contactEmail: owner.businessEmail,
      contactPhone: owner.businessPhone,
      approvedDateByBusiness: '2026-01-01',
      paymentStatus: 'paid',
      eventStatus: 'approved',
      ...overrides,
      showAdOnDates,
      eventDate,
      ...showDateBounds(eventDate, showAdOnDates),
    })
    .returning()
  return row!
}

/** A paid payments row for an event, as a completed checkout leaves it. */
export async function insertPaidPayment(eventID: number, cents = 2900) {
  const [row] = await db
    .insert(payments)
    .values({
      eventID,
      totalCost: cents / 100,
      totalPaid: cents / 100,
      datePaid: new Date(),
      payment_intent_id: `pi_test_${eventID}_${++counter}`,
      idempotency_key: `event-${eventID}-test-${counter}`,
      amount_due_cents: cents,
      amount_paid_cents: cents,
      payment_status: 'paid',
      paid_at: new Date(),
    })
    .returning()
  return row!
}

export { insertBusiness }
